import { SYSTEM_PERSON, type Caller } from './caller.ts';
import type { IdentityProvider } from './provider.ts';

/** AUTH=none: no sessions at all; every request acts as the system person with the admin role. */
export function noneProvider(): IdentityProvider {
  const caller: Caller = { via: 'none', person: SYSTEM_PERSON, roles: ['admin'] };
  return {
    mode: 'none',
    aal2Redirect: '/',
    async authenticate() {
      return caller;
    },
    async routes() {},
    async logout() {},
  };
}
