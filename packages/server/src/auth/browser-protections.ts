/**
 * Protections every response and every state-changing request get (README "Security", "Browser
 * protections"). Installed on the root app before any route, so the web app's files, /api/db,
 * errors and 404s are covered alike.
 *
 * Cross-site request forgery: the session cookie is SameSite=Lax, which still lets a top-level
 * form post from another site through in some browsers and says nothing when sign-in is off
 * (AUTH=none: every request is the admin). A page elsewhere can send a form (urlencoded,
 * multipart, text/plain) or a body-less POST, but not a JSON body (that needs a CORS preflight,
 * which we never grant) nor a foreign Origin header. So a POST/PUT/PATCH/DELETE must carry an
 * Origin naming this server, or, without an Origin, a JSON content type. Exempt:
 *   - `Authorization: Bearer` calls: browsers never attach that header on their own, and the
 *     cookie is not read when it is there;
 *   - the identity flows' form submissions (/api/auth/self-service/...): they may arrive as plain
 *     urlencoded forms and carry their own CSRF token, bound to the watchdeck_csrf cookie.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { isOwnOrigin } from './http.ts';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const FLOW_SUBMISSIONS = '/api/auth/self-service/';

const CROSS_SITE_MESSAGE =
  'Cross-site request refused: send it from this site (Origin) or with Content-Type: application/json';

function isJson(req: FastifyRequest): boolean {
  const type = String(req.headers['content-type'] ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
  // Server-side apply's YAML (kube/) is no more a form's than JSON: any type but the three a
  // form may send needs a CORS preflight, which is never granted.
  return (
    type === 'application/json' ||
    type === 'application/apply-patch+yaml' ||
    /^application\/[a-z0-9.+-]*\+json$/.test(type)
  );
}

/** Whether a state-changing request may go on (see above). */
function crossSiteAllowed(req: FastifyRequest, config: Pick<Config, 'publicUrl' | 'allowedHosts'>): boolean {
  if (!STATE_CHANGING.has(req.method)) return true;
  if (/^bearer\s/i.test(req.headers.authorization ?? '')) return true;
  if (req.url.startsWith(FLOW_SUBMISSIONS)) return true;
  const origin = req.headers.origin;
  if (origin !== undefined) return isOwnOrigin(origin, req, config);
  return isJson(req);
}

/** X-Frame-Options for the CSP's frame-ancestors, for browsers that know only the former. */
function frameOptions(ancestors: string): string | undefined {
  if (ancestors === "'none'") return 'DENY';
  if (ancestors === "'self'") return 'SAMEORIGIN';
  return undefined; // a list of sites: only the CSP can say that
}

export function registerBrowserProtections(
  app: FastifyInstance,
  config: Pick<Config, 'publicUrl' | 'allowedHosts' | 'frameAncestors'>,
): void {
  app.addHook('onRequest', async (req, reply) => {
    if (crossSiteAllowed(req, config)) return;
    req.log.warn({ origin: req.headers.origin ?? null }, 'cross-site request refused');
    return reply.code(403).send({ message: CROSS_SITE_MESSAGE });
  });

  const xfo = frameOptions(config.frameAncestors);
  const csp = `frame-ancestors ${config.frameAncestors}`;
  // onSend: also on error answers, 404s and the static files
  app.addHook('onSend', (_req, reply, payload, done) => {
    reply.header('content-security-policy', csp);
    if (xfo) reply.header('x-frame-options', xfo);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    done(null, payload);
  });
}
