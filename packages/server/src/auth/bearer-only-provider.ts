import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AuthError } from './errors.ts';
import { UI_PATHS } from './http.ts';
import type { IdentityProvider } from './provider.ts';

/**
 * An organisation's backend in hosted mode (organizations/README.md): its callers are the bearer
 * tokens the root backend's switch route mints, nothing else. People sign in on the root backend
 * (own identity service or AUTH=oidc), so here no browser sign-in exists: no session cookie is
 * read (the root's cookie reaches /org/{slug} too, same origin), no OpenID Connect login or
 * callback (the provider knows only the root's callback address), and every account flow answers
 * self_service_flow_disabled. whoami still reports the root's sign-in mode for the web app.
 */
export function bearerOnlyProvider(mode: 'kratos' | 'oidc'): IdentityProvider {
  const disabled = async (_req: FastifyRequest, reply: FastifyReply) => {
    const err = new AuthError('self_service_flow_disabled', {
      reason: "Sign in on the console's own address; an organisation's backend takes only its bearer tokens.",
    });
    return reply.code(err.statusCode).send(err.toBody());
  };
  return {
    mode,
    aal2Redirect: UI_PATHS.login,
    async authenticate() {
      return null;
    },
    async routes(app: FastifyInstance) {
      app.get('/api/auth/self-service/:type/browser', disabled);
      app.get('/api/auth/self-service/:type/flows', disabled);
    },
    async logout() {},
  };
}
