/**
 * The machinery every self-service flow shares: create (GET .../<type>/browser), fetch
 * (GET .../<type>/flows?id=) and submit (POST .../<type>?flow=), with the CSRF binding, expiry,
 * return_to checks and error storage done once here. What differs per flow is a FlowKind.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Queryable } from '#server/db/index.ts';
import type { AuthContext } from '../context.ts';
import { randomToken, safeEqual, sha256 } from '../crypto.ts';
import { AuthError, storeFlowError } from '../errors.ts';
import { CSRF_COOKIE, UI_PATHS, checkReturnTo, isUuid, setCsrfCookie, setSessionCookie, wantsHtml } from '../http.ts';
import type { Identity } from '../identities.ts';
import { createSession, type AuthMethod, type Session } from '../sessions.ts';
import {
  insertClientFlow,
  isExpired,
  loadFlow,
  lockFlow,
  updateFlow,
  type FlowRow,
  type FlowType,
  type FlowUiState,
  type NewFlow,
} from './store.ts';
import { csrfNode, type UiNode, type UiText } from './ui.ts';

/** The cookie session of the request, whatever its assurance level. */
export interface CurrentSession {
  session: Session;
  identity: Identity;
  /** the identity has a second factor this session has not presented */
  needsAal2: boolean;
}

export interface FlowRequest {
  ctx: AuthContext;
  req: FastifyRequest;
  reply: FastifyReply;
  /** the database, or the submission's transaction */
  q: Queryable;
  current: CurrentSession | null;
  csrfCookieHash: string;
  /** runs after the submission committed (sending email must not hold a transaction open) */
  after(fn: () => Promise<void>): void;
  /** the functions after() collected; runDeferred() empties it */
  deferred: (() => Promise<void>)[];
  /** signs the browser in: creates a session and sets its cookie */
  startSession(identityId: string, method: AuthMethod): Promise<Session>;
}

export interface RenderExtras {
  /** backup codes generated just now: shown in this one answer, stored only hashed */
  lookupCodes?: string[];
}

export type Outcome = { flow: FlowRow; status?: number; extras?: RenderExtras } | { status: number; body: unknown };

interface FlowParams {
  returnTo?: string;
  aal?: 'aal1' | 'aal2';
  refresh: boolean;
}

export interface FlowKind {
  type: FlowType;
  /** Preconditions and initial state of a new flow; throws AuthError to refuse. */
  prepare(fr: FlowRequest, params: FlowParams): Promise<Omit<NewFlow, 'type'>>;
  /** Extra checks whenever an existing flow is used (settings: it must be the caller's). */
  check?(fr: FlowRequest, flow: FlowRow): Promise<void>;
  nodes(fr: FlowRequest, flow: FlowRow, extras: RenderExtras): Promise<UiNode[]>;
  /** Messages shown while the last submission left none (e.g. 'complete the second factor'). */
  info?(flow: FlowRow): UiText[];
  /** Flow-specific top-level fields (login: refresh, requested_aal; settings: identity). */
  fields?(fr: FlowRequest, flow: FlowRow): Promise<Record<string, unknown>>;
  submit(fr: FlowRequest, flow: FlowRow, body: Record<string, string>): Promise<Outcome>;
}

/** A submission the form must show again with messages (400). */
export class FormError extends Error {
  constructor(
    readonly messages: UiText[] = [],
    readonly fieldMessages: Record<string, UiText[]> = {},
  ) {
    super(messages[0]?.text ?? Object.values(fieldMessages)[0]?.[0]?.text ?? 'invalid form');
  }
}

/** Values never echoed back into a form. */
const SECRET_FIELDS = new Set([
  'password',
  'csrf_token',
  'code',
  'totp_code',
  'lookup_secret',
  'webauthn_login',
  'webauthn_register',
]);

const flowAction = (type: FlowType, id: string) => `/api/auth/self-service/${type}?flow=${id}`;
export const browserUrl = (type: FlowType, params: Record<string, string | undefined> = {}) => {
  const qs = new URLSearchParams(
    Object.entries(params).filter(([, v]) => v !== undefined) as [string, string][],
  ).toString();
  return `/api/auth/self-service/${type}/browser${qs ? `?${qs}` : ''}`;
};
export const uiUrl = (type: FlowType, flowId: string) => `${UI_PATHS[type]}?flow=${flowId}`;

const iso = (v: string | null) => (v ? new Date(v).toISOString() : v);

async function renderFlow(kind: FlowKind, fr: FlowRequest, flow: FlowRow, extras: RenderExtras = {}) {
  const state: FlowUiState = flow.ui ?? {};
  const nodes = [csrfNode(flow.csrf_token), ...(await kind.nodes(fr, flow, extras))];
  for (const node of nodes) {
    if (node.attributes.node_type !== 'input') continue;
    const field = state.fields?.[node.attributes.name];
    if (!field) continue;
    if (field.messages?.length) node.messages = field.messages;
    if (
      field.value !== undefined &&
      !SECRET_FIELDS.has(node.attributes.name) &&
      node.attributes.type !== 'submit' &&
      node.attributes.value === undefined
    ) {
      node.attributes.value = field.value;
    }
  }
  return {
    id: flow.id,
    type: 'browser',
    state: flow.state,
    expires_at: iso(flow.expires_at),
    issued_at: iso(flow.created_at),
    request_url: flow.request_url,
    return_to: flow.return_to ?? undefined,
    ...(kind.fields ? await kind.fields(fr, flow) : {}),
    ui: {
      action: flowAction(kind.type, flow.id),
      method: 'POST',
      nodes,
      messages: state.messages ?? kind.info?.(flow) ?? [],
    },
  };
}

/** Form bodies arrive as JSON or urlencoded; nested traits are flattened to 'traits.email'. */
function flattenBody(body: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (prefix: string, v: unknown) => {
    if (v === undefined || v === null) return;
    if (typeof v === 'object' && !Array.isArray(v) && prefix.startsWith('traits')) {
      for (const [k, val] of Object.entries(v as Record<string, unknown>)) walk(`${prefix}.${k}`, val);
    } else if (typeof v === 'object') {
      out[prefix] = JSON.stringify(v); // WebAuthn responses may be sent as objects
    } else {
      out[prefix] = String(v);
    }
  };
  if (body && typeof body === 'object')
    for (const [k, v] of Object.entries(body as Record<string, unknown>)) walk(k, v);
  return out;
}

export interface EngineDeps {
  ctx: AuthContext;
  kinds: FlowKind[];
  currentSession(req: FastifyRequest): Promise<CurrentSession | null>;
  /** extra routes of the flows (recovery link, logout) get the same FlowRequest helpers */
  extraRoutes?(app: FastifyInstance, make: (req: FastifyRequest, reply: FastifyReply) => Promise<FlowRequest>): void;
}

/** Registers the flow routes; call inside an encapsulated plugin (it sets an error handler). */
export function flowRoutes(app: FastifyInstance, deps: EngineDeps) {
  const { ctx } = deps;
  const { db, config } = ctx;

  /** The browser's CSRF cookie, created on first use; flows are bound to its hash. */
  const csrfCookie = (req: FastifyRequest, reply: FastifyReply): string => {
    let value = req.cookies[CSRF_COOKIE];
    if (!value || value.length < 32) {
      value = randomToken(32);
      setCsrfCookie(reply, req, config, value);
    }
    return sha256(value);
  };

  const makeRequest = async (req: FastifyRequest, reply: FastifyReply, q: Queryable = db): Promise<FlowRequest> => {
    const fr: FlowRequest = {
      ctx,
      req,
      reply,
      q,
      current: await deps.currentSession(req),
      csrfCookieHash: csrfCookie(req, reply),
      deferred: [],
      after: (fn) => fr.deferred.push(fn),
      async startSession(identityId, method) {
        const { token, session } = await createSession(fr.q, identityId, {
          method,
          ttlMs: config.sessionTtlMs,
          userAgent: req.headers['user-agent'],
          ip: req.ip,
        });
        setSessionCookie(reply, req, config, token, new Date(session.expires_at));
        return session;
      },
    };
    return fr;
  };

  /**
   * Every flow a browser asks for is a row written for an anonymous caller, so new flows have two
   * brakes per client address: WATCHDECK_AUTH_FLOW_RATE_LIMIT a minute (one budget for all flow
   * types; the rate limiter's address, IPv6 grouped by subnet, also keys the cap) and at most
   * WATCHDECK_AUTH_FLOWS_PER_ADDRESS rows (insertClientFlow). Refusals are 429 and write nothing.
   */
  const flowBudget = app.createRateLimit({ max: config.authFlowRateLimit, timeWindow: 60_000 });
  const tooMany = (reply: FastifyReply, seconds: number, reason: string): never => {
    reply.header('retry-after', String(seconds));
    throw new AuthError('too_many_requests', { reason, details: { retry_after_seconds: seconds }, ephemeral: true });
  };
  /** Spends one from the address's budget (before anything else is done for the caller); its key. */
  const takeFlowBudget = async (fr: FlowRequest): Promise<string> => {
    const budget = await flowBudget(fr.req);
    if ('isExceeded' in budget && budget.isExceeded) {
      const wait = Math.max(1, budget.ttlInSeconds);
      tooMany(fr.reply, wait, `Too many new forms from this address: try again in ${wait} second(s).`);
    }
    return budget.key;
  };
  const createFlow = async (fr: FlowRequest, address: string, f: NewFlow): Promise<FlowRow> => {
    const clientHash = sha256(`flows:${address}`);
    const flow = await insertClientFlow(db, { ...f, clientHash }, config.authFlowsPerAddress);
    if (!flow) tooMany(fr.reply, 60, 'Too many open forms from this address: finish or wait for one to expire.');
    return flow!;
  };

  app.setErrorHandler(async (err, req, reply) => {
    if (err instanceof AuthError) {
      const body = err.ephemeral ? err.toBody() : await storeFlowError(db, err).catch(() => err.toBody());
      // the web app's flow-error page lives at an id route (/error/:id); /error?error_code= is
      // the other, code-based error page
      if (wantsHtml(req) && req.method === 'GET' && body.id)
        return reply.redirect(`${UI_PATHS.error}/${encodeURIComponent(body.id)}`, 303);
      return reply.code(err.statusCode).send(body);
    }
    const status = (err as { statusCode?: number }).statusCode;
    if (status && status < 500) return reply.code(status).send({ message: (err as Error).message });
    req.log.error({ err }, 'auth flow failed');
    return reply.code(500).send({ message: 'Internal Server Error' });
  });

  /** A fresh flow replacing an expired one, so the browser can carry on (use_flow_id). */
  const expired = async (kind: FlowKind, fr: FlowRequest, flow: FlowRow): Promise<never> => {
    let replacement: FlowRow | undefined;
    try {
      const address = await takeFlowBudget(fr);
      const init = await kind.prepare(fr, {
        returnTo: flow.return_to ?? undefined,
        aal: flow.requested_aal ?? undefined,
        refresh: flow.refresh,
      });
      replacement = await createFlow(fr, address, {
        type: kind.type,
        requestUrl: flow.request_url ?? undefined,
        ...init,
        internal: { ...init.internal, csrf_cookie_hash: fr.csrfCookieHash },
      });
    } catch {
      // the situation changed (signed in meanwhile, a flow brake, ...): the browser restarts from scratch
      fr.reply.removeHeader('retry-after');
    }
    throw new AuthError('self_service_flow_expired', {
      useFlowId: replacement?.id,
      redirectBrowserTo: replacement ? uiUrl(kind.type, replacement.id) : UI_PATHS[kind.type],
      details: { expired_at: new Date(flow.expires_at).toISOString() },
    });
  };

  const csrfBound = (fr: FlowRequest, flow: FlowRow) => {
    const bound = flow.internal_context.csrf_cookie_hash;
    return !!bound && safeEqual(bound, fr.csrfCookieHash);
  };

  for (const kind of deps.kinds) {
    const base = `/api/auth/self-service/${kind.type}`;

    app.get(`${base}/browser`, async (req, reply) => {
      const query = req.query as Record<string, string | undefined>;
      const fr = await makeRequest(req, reply);
      // first: a refused preparation (no session, registration off, ...) is a stored error, a row too
      const address = await takeFlowBudget(fr);
      const returnTo = checkReturnTo(query.return_to, req, config);
      const aal = query.aal === 'aal2' ? 'aal2' : query.aal === 'aal1' || !query.aal ? undefined : 'bad';
      if (aal === 'bad') throw new AuthError('bad_request', { reason: 'aal must be aal1 or aal2' });
      const init = await kind.prepare(fr, { returnTo, aal, refresh: query.refresh === 'true' });
      const flow = await createFlow(fr, address, {
        type: kind.type,
        requestUrl: req.url,
        returnTo,
        ...init,
        internal: { ...init.internal, csrf_cookie_hash: fr.csrfCookieHash },
      });
      if (wantsHtml(req)) return reply.redirect(uiUrl(kind.type, flow.id), 303);
      return renderFlow(kind, fr, flow);
    });

    app.get(`${base}/flows`, async (req, reply) => {
      const { id } = req.query as { id?: string };
      const flow = isUuid(id) ? await loadFlow(db, id, kind.type) : undefined;
      if (!flow) throw new AuthError('not_found', { reason: `The ${kind.type} flow does not exist.` });
      const fr = await makeRequest(req, reply);
      if (!csrfBound(fr, flow))
        throw new AuthError('security_csrf_violation', { reason: 'The flow was started by another browser.' });
      if (isExpired(flow)) await expired(kind, fr, flow);
      await kind.check?.(fr, flow);
      return renderFlow(kind, fr, flow);
    });

    app.post(base, { config: { rateLimit: { max: config.authRateLimit, timeWindow: 60_000 } } }, async (req, reply) => {
      const { flow: id } = req.query as { flow?: string };
      const body = flattenBody(req.body);
      const fr = await makeRequest(req, reply);
      const peek = isUuid(id) ? await loadFlow(db, id, kind.type) : undefined;
      if (!peek) throw new AuthError('not_found', { reason: `The ${kind.type} flow does not exist.` });
      if (!csrfBound(fr, peek) || !body.csrf_token || !safeEqual(body.csrf_token, peek.csrf_token)) {
        throw new AuthError('security_csrf_violation', {
          reason: 'The CSRF token is missing or does not match this browser.',
        });
      }
      if (isExpired(peek)) await expired(kind, fr, peek);
      await kind.check?.(fr, peek);

      const outcome = await db.transaction(async (tx) => {
        fr.q = tx;
        const flow = (await lockFlow(tx, peek.id, kind.type))!;
        try {
          return await kind.submit(fr, flow, body);
        } catch (err) {
          if (!(err instanceof FormError)) throw err;
          const fields: FlowUiState['fields'] = {};
          // keep what the person typed for the retry, but never a secret (this is stored)
          for (const [name, value] of Object.entries(body)) if (!SECRET_FIELDS.has(name)) fields[name] = { value };
          for (const [name, messages] of Object.entries(err.fieldMessages))
            fields[name] = { ...fields[name], messages };
          // committed on purpose: the attempt counters a kind bumped before failing must stick
          return {
            flow: await updateFlow(tx, flow.id, { ui: { messages: err.messages, fields } }),
            status: 400,
          } as Outcome;
        }
      });
      fr.q = db;
      await runDeferred(fr);
      if ('body' in outcome) return reply.code(outcome.status).send(outcome.body);
      return reply.code(outcome.status ?? 200).send(await renderFlow(kind, fr, outcome.flow, outcome.extras));
    });
  }

  deps.extraRoutes?.(app, (req, reply) => makeRequest(req, reply));
}

/** The 422 answer that tells the web app to move on to another page (recovery -> settings). */
export function locationChange(to: string, extra: Record<string, unknown> = {}) {
  const err = new AuthError('browser_location_change_required', { redirectBrowserTo: to });
  return { status: 422, body: { ...err.toBody(), ...extra } };
}

/** Runs what a submission deferred until after its commit; failures are logged, not raised. */
export async function runDeferred(fr: FlowRequest): Promise<void> {
  const fns = fr.deferred.splice(0);
  for (const fn of fns) await fn().catch((err) => fr.ctx.log.error({ err }, 'auth: deferred action failed'));
}
