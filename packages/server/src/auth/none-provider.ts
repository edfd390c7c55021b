import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SYSTEM_PERSON, type Caller } from './caller.ts';
import { AuthError } from './errors.ts';
import type { IdentityProvider } from './provider.ts';

/**
 * Sign-in is off, so every browser already has a session (the system person's): the account
 * flows answer as the identity service does for a signed-in browser, session_already_available
 * with the way home, and /login, /registration, /recovery and /verification go there instead of
 * showing a form whose calls do not exist.
 */
async function flowRoutes(app: FastifyInstance) {
  const signedIn = async (req: FastifyRequest<{ Querystring: { return_to?: string } }>, reply: FastifyReply) => {
    const returnTo = req.query.return_to;
    // only a path of this console: never another site
    const to = returnTo && /^\/(?![/\\])/.test(returnTo) ? returnTo : '/';
    const err = new AuthError('session_already_available', { redirectBrowserTo: to });
    return reply.code(err.statusCode).send(err.toBody());
  };
  app.get('/api/auth/self-service/:type/browser', signedIn);
  app.get('/api/auth/self-service/:type/flows', signedIn);
}

/** AUTH=none: no sessions at all; every request acts as the system person with the admin role. */
export function noneProvider(): IdentityProvider {
  const caller: Caller = { via: 'none', person: SYSTEM_PERSON, roles: ['admin'] };
  return {
    mode: 'none',
    aal2Redirect: '/',
    async authenticate() {
      return caller;
    },
    routes: flowRoutes,
    async logout() {},
  };
}
