import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import * as oidc from 'openid-client';
import { effectiveRoles } from '@watchdeck/core';
import type { OidcSettings } from '../config.ts';
import type { Caller } from './caller.ts';
import type { AuthContext } from './context.ts';
import { AuthError, storeFlowError } from './errors.ts';
import { checkReturnTo, clearSessionCookie, SESSION_COOKIE, setSessionCookie, UI_PATHS, wantsHtml } from './http.ts';
import { linkIdentity, rolesFromClaims, type Claims } from './oidc-identities.ts';
import {
  findOidcSession,
  openProviderTokens,
  saveProviderTokens,
  type OidcSession,
  type ProviderTokens,
} from './oidc-sessions.ts';
import { errorRoutes } from './own-provider.ts';
import type { IdentityProvider } from './provider.ts';
import { setRoles } from './identities.ts';
import { createSession, revokeSession } from './sessions.ts';

/**
 * AUTH=oidc: sign-in through any OpenID Connect provider with openid-client (certified). The
 * authorization code flow with PKCE; state, nonce and the code verifier travel in a sealed,
 * short-lived HTTP-only cookie (AES-GCM with the secrets key, so it can be neither read nor
 * forged), the ID token is verified by openid-client. The local session is ours (the same
 * `watchdeck_session` cookie and table as the own identity service), and it lives only as long
 * as the provider keeps answering: when the provider's access token runs out the session is
 * refreshed with the refresh token, or ends. See auth/README.md "OpenID Connect".
 */
const STATE_COOKIE = 'watchdeck_oidc';
const STATE_COOKIE_PATH = '/api/auth/oidc';
/** how long a browser may spend at the provider's login page */
const STATE_TTL_MS = 10 * 60_000;
const LOGIN_PATH = '/api/auth/oidc/login';
const CALLBACK_PATH = '/api/auth/oidc/callback';
const CALLER_CACHE_MS = 1000;
const CALLER_CACHE_MAX = 10_000;
/** without expires_in nor an ID token expiry the provider's tokens are taken to last this long */
const DEFAULT_TOKEN_TTL_S = 300;

interface LoginState {
  state: string;
  nonce: string;
  verifier: string;
  returnTo?: string;
  /** ms since epoch when the sign-in started */
  at: number;
}

export function oidcProvider(ctx: AuthContext): IdentityProvider {
  const { db, config, box, log } = ctx;
  const settings: OidcSettings = config.oidc!;

  // Discovery happens on first use and is retried after a failure: the provider may come up
  // after this server does.
  let discovered: Promise<oidc.Configuration> | undefined;
  const client = () => {
    discovered ??= oidc
      .discovery(
        new URL(settings.issuer),
        settings.clientId,
        settings.clientSecret ? { client_secret: settings.clientSecret } : undefined,
        settings.clientSecret ? oidc.ClientSecretBasic(settings.clientSecret) : oidc.None(),
        { execute: settings.issuer.startsWith('http:') ? [oidc.allowInsecureRequests] : [], timeout: 10 },
      )
      .catch((err: unknown) => {
        discovered = undefined;
        throw err;
      });
    return discovered;
  };

  const callers = new Map<string, { caller: Caller | null; until: number }>();
  /** one refresh per session at a time: a screen's burst of requests must not spend the token twice */
  const refreshing = new Map<string, Promise<boolean>>();

  const https = () => settings.redirectUri.startsWith('https:');
  const setStateCookie = (reply: FastifyReply, value: LoginState) =>
    reply.setCookie(STATE_COOKIE, box.encrypt(JSON.stringify(value)), {
      path: STATE_COOKIE_PATH,
      httpOnly: true,
      sameSite: 'lax',
      secure: https(),
      maxAge: STATE_TTL_MS / 1000,
    });
  const clearStateCookie = (reply: FastifyReply) =>
    reply.clearCookie(STATE_COOKIE, { path: STATE_COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure: https() });

  /** The sealed sign-in state, or undefined when absent, forged or too old. */
  const readStateCookie = (req: FastifyRequest): LoginState | undefined => {
    const raw = req.cookies?.[STATE_COOKIE];
    if (!raw) return undefined;
    try {
      const plain = box.decrypt(raw);
      // the box hands back what it cannot recognise as sealed unchanged: such a value is forged
      if (plain === raw) return undefined;
      const s = JSON.parse(plain) as LoginState;
      return Date.now() - s.at <= STATE_TTL_MS ? s : undefined;
    } catch {
      return undefined;
    }
  };

  /** A refused sign-in: stored for the web app's error page, which offers to sign in again. */
  const refuse = async (req: FastifyRequest, reply: FastifyReply, err: AuthError) => {
    err.redirectBrowserTo ??= UI_PATHS.login;
    const body = await storeFlowError(db, err).catch(() => err.toBody());
    if (wantsHtml(req) && body.id) return reply.redirect(`${UI_PATHS.error}/${encodeURIComponent(body.id)}`, 303);
    return reply.code(err.statusCode).send(body);
  };

  async function refresh(session: OidcSession, cookie: string): Promise<boolean> {
    const tokens = openProviderTokens(box, session.providerTokens);
    if (!tokens?.refresh_token) return false;
    try {
      const c = await client();
      const res = await oidc.refreshTokenGrant(c, tokens.refresh_token);
      const claims = res.claims() as Claims | undefined;
      const next: ProviderTokens = {
        refresh_token: res.refresh_token ?? tokens.refresh_token,
        id_token: res.id_token ?? tokens.id_token,
      };
      await saveProviderTokens(db, box, session.id, next, expiryOf(res, claims));
      // a new ID token carrying the role claim may bring new roles (a group left at the provider)
      if (claims && claimPresent(claims, settings.roleClaim))
        await setRoles(db, session.personId, rolesFromClaims(claims, settings));
      return true;
    } catch (err) {
      // another replica may have refreshed this session a moment ago (and spent the token)
      const now = await findOidcSession(db, cookie);
      if (now?.providerExpiresAt && now.providerExpiresAt.getTime() > Date.now()) return true;
      log.info({ err, session: session.id }, 'oidc: refreshing the session at the provider failed; it ends');
      return false;
    }
  }

  async function callerFromCookie(token: string): Promise<Caller | null> {
    let s = await findOidcSession(db, token);
    if (!s) return null;
    if (s.providerExpiresAt && s.providerExpiresAt.getTime() <= Date.now()) {
      let p = refreshing.get(s.id);
      if (!p) {
        p = refresh(s, token).finally(() => refreshing.delete(s!.id));
        refreshing.set(s.id, p);
      }
      if (!(await p)) {
        await revokeSession(db, s.id);
        return null;
      }
      s = (await findOidcSession(db, token)) ?? s;
    }
    return {
      via: 'session',
      person: s.person,
      roles: effectiveRoles(s.storedRoles),
      sessionId: s.id,
      aal: 'aal1',
    };
  }

  async function routes(app: FastifyInstance) {
    // Sign-ins per client address and minute, as for the own mode's new flows: a refused
    // callback stores a flow error (a row), and a sign-in costs a provider round trip.
    await app.register(rateLimit, { global: false });
    const limited = { config: { rateLimit: { max: config.authFlowRateLimit, timeWindow: 60_000 } } };
    // The web app's /login page starts a login flow: here that means "go to the provider".
    // A navigation is sent straight there; a fetch gets Kratos' own answer for that case.
    const toProvider = async (req: FastifyRequest<{ Params: { type: string } }>, reply: FastifyReply) => {
      const { return_to } = req.query as { return_to?: string };
      const safeReturnTo = (raw: unknown) => returnToOf(req, raw);
      const token = req.cookies?.[SESSION_COOKIE];
      if (token && (await findOidcSession(db, token))) {
        const err = new AuthError('session_already_available', { redirectBrowserTo: safeReturnTo(return_to) ?? '/' });
        return reply.code(err.statusCode).send(err.toBody());
      }
      if (req.params.type !== 'login' && req.params.type !== 'registration') {
        const err = new AuthError('self_service_flow_disabled', {
          reason: 'Accounts are managed by the sign-in provider (AUTH=oidc).',
        });
        return reply.code(err.statusCode).send(err.toBody());
      }
      const rt = safeReturnTo(return_to);
      const to = rt ? `${LOGIN_PATH}?return_to=${encodeURIComponent(rt)}` : LOGIN_PATH;
      if (wantsHtml(req)) return reply.redirect(to, 303);
      const err = new AuthError('browser_location_change_required', { redirectBrowserTo: to });
      return reply.code(err.statusCode).send(err.toBody());
    };
    app.get('/api/auth/self-service/:type/browser', toProvider);
    app.get('/api/auth/self-service/:type/flows', toProvider);

    /** return_to when it stays on this console, else nothing (the sign-in itself still goes on). */
    function returnToOf(req: FastifyRequest, raw: unknown): string | undefined {
      try {
        return checkReturnTo(raw, req, config);
      } catch {
        return undefined;
      }
    }

    app.get(LOGIN_PATH, limited, async (req, reply) => {
      let c: oidc.Configuration;
      try {
        c = await client();
      } catch (err) {
        log.warn({ err, issuer: settings.issuer }, 'oidc: the provider cannot be reached');
        return reply.code(502).send({
          statusCode: 502,
          code: 'oidc_provider_unreachable',
          error: 'Bad Gateway',
          message: 'The sign-in provider cannot be reached. Please try again in a moment.',
        });
      }
      const state: LoginState = {
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        verifier: oidc.randomPKCECodeVerifier(),
        returnTo: returnToOf(req, (req.query as { return_to?: string }).return_to),
        at: Date.now(),
      };
      setStateCookie(reply, state);
      const url = oidc.buildAuthorizationUrl(c, {
        redirect_uri: settings.redirectUri,
        scope: settings.scopes.join(' '),
        code_challenge: await oidc.calculatePKCECodeChallenge(state.verifier),
        code_challenge_method: 'S256',
        state: state.state,
        nonce: state.nonce,
      });
      return reply.redirect(url.toString(), 303);
    });

    app.get(CALLBACK_PATH, limited, async (req, reply) => {
      const saved = readStateCookie(req);
      clearStateCookie(reply);
      if (!saved)
        return refuse(
          req,
          reply,
          new AuthError('self_service_flow_expired', {
            reason: 'The sign-in took too long or was started in another browser. Please sign in again.',
          }),
        );
      const query = new URL(req.url, 'http://callback').search;
      const params = new URLSearchParams(query);
      if (params.get('error'))
        return refuse(
          req,
          reply,
          new AuthError('security_identity_mismatch', {
            reason: `The sign-in provider refused: ${params.get('error_description') || params.get('error')}`,
          }),
        );
      let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
      let claims: Claims;
      try {
        const c = await client();
        const current = new URL(settings.redirectUri);
        current.search = query;
        tokens = await oidc.authorizationCodeGrant(c, current, {
          pkceCodeVerifier: saved.verifier,
          expectedState: saved.state,
          expectedNonce: saved.nonce,
          idTokenExpected: true,
        });
        claims = { ...(tokens.claims() as Claims) };
        // Many providers put email, name and groups only in the userinfo answer.
        const metadata = c.serverMetadata();
        if (metadata.userinfo_endpoint && (!claims.email || !claimPresent(claims, settings.roleClaim))) {
          const info = await oidc.fetchUserInfo(c, tokens.access_token, claims.sub);
          // the ID token's claims win: they are the verified ones
          claims = { ...info, ...claims };
        }
      } catch (err) {
        log.info({ err }, 'oidc: sign-in refused');
        // openid-client's message is generic ("invalid response"); its cause names the check
        const cause = (err as Error).cause;
        const why = cause instanceof Error ? cause.message : (err as Error).message;
        return refuse(
          req,
          reply,
          new AuthError('security_csrf_violation', {
            reason: `The answer of the sign-in provider was refused: ${why}.`,
          }),
        );
      }

      let personId: string;
      try {
        personId = await linkIdentity(db, settings, claims);
      } catch (err) {
        if (err instanceof AuthError) return refuse(req, reply, err);
        throw err;
      }
      const { token, session } = await createSession(db, personId, {
        method: 'oidc',
        ttlMs: config.sessionTtlMs,
        userAgent: req.headers['user-agent'],
        ip: req.ip,
      });
      await saveProviderTokens(
        db,
        box,
        session.id,
        { refresh_token: tokens.refresh_token, id_token: tokens.id_token },
        expiryOf(tokens, claims),
      );
      callers.clear();
      setSessionCookie(reply, req, config, token, new Date(session.expires_at));
      return reply.redirect(saved.returnTo ?? '/', 303);
    });

    errorRoutes(app, db);
  }

  return {
    mode: 'oidc',
    aal2Redirect: UI_PATHS.login,

    async authenticate(req) {
      const token = req.cookies?.[SESSION_COOKIE];
      if (!token) return null;
      const hit = callers.get(token);
      if (hit && hit.until > Date.now()) return hit.caller;
      const caller = await callerFromCookie(token);
      if (callers.size >= CALLER_CACHE_MAX) callers.clear();
      callers.set(token, { caller, until: Date.now() + CALLER_CACHE_MS });
      return caller;
    },

    forgetCallers() {
      callers.clear();
    },

    async logout(req, reply) {
      const token = req.cookies?.[SESSION_COOKIE];
      const s = token ? await findOidcSession(db, token, { evenExpired: true }) : undefined;
      callers.clear();
      clearSessionCookie(reply, req, config);
      if (!s) return undefined;
      await revokeSession(db, s.id);
      const tokens = openProviderTokens(box, s.providerTokens);
      let c: oidc.Configuration;
      try {
        c = await client();
      } catch {
        return undefined;
      }
      // The refresh token dies with the session; the provider's own session ends at its logout page.
      if (tokens?.refresh_token && c.serverMetadata().revocation_endpoint)
        await oidc
          .tokenRevocation(c, tokens.refresh_token, { token_type_hint: 'refresh_token' })
          .catch((err: unknown) => log.info({ err }, 'oidc: revoking the refresh token failed'));
      if (!c.serverMetadata().end_session_endpoint) return undefined;
      const params: Record<string, string> = { post_logout_redirect_uri: settings.postLogoutRedirectUri };
      if (tokens?.id_token) params.id_token_hint = tokens.id_token;
      return oidc.buildEndSessionUrl(c, params).toString();
    },

    routes,
  };
}

/** When the provider's tokens run out: the access token's expiry, else the ID token's. */
function expiryOf(res: oidc.TokenEndpointResponseHelpers, claims: Claims | undefined): Date {
  const inS = res.expiresIn();
  if (inS !== undefined) return new Date(Date.now() + inS * 1000);
  if (typeof claims?.exp === 'number') return new Date(claims.exp * 1000);
  return new Date(Date.now() + DEFAULT_TOKEN_TTL_S * 1000);
}

function claimPresent(claims: Claims, name: string): boolean {
  if (name in claims) return true;
  let v: unknown = claims;
  for (const part of name.split('.')) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined;
  return v !== undefined;
}
