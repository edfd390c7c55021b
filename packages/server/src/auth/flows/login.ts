/**
 * Login: a password makes an aal1 session; an identity with a second factor then completes an
 * aal2 login flow (TOTP, backup code or security key) on the same session. refresh=true asks a
 * signed-in person for their password again before sensitive settings changes.
 */
import { AuthError } from '../errors.ts';
import { checkTotp, relyingParty, authenticationOptions, useLookupCode, verifyAuthentication } from '../factors.ts';
import {
  findIdentityByEmail,
  getCredential,
  highestAal,
  saveCredential,
  secondFactors,
  type LookupConfig,
  type WebauthnConfig,
} from '../identities.ts';
import { burnPasswordCheck, verifyPassword } from '../password.ts';
import { getSessionById, recordFactor, revokeSession, sessionJson, type AuthMethod } from '../sessions.ts';
import { openTotpSecret } from '../secrets-at-rest.ts';
import {
  clearLoginFailures,
  factorRetryAfter,
  factorThrottleKey,
  loginRetryAfter,
  recordLoginFailure,
  throttleKey,
} from '../login-throttle.ts';
import { browserUrl, FormError, type FlowKind, type FlowRequest } from './engine.ts';
import { updateFlow, type FlowRow } from './store.ts';
import { input, MSG, submit } from './ui.ts';

/** The state of a login flow that has signed someone in (Kratos' name for it). */
const COMPLETED = 'passed_challenge';

export const loginKind: FlowKind = {
  type: 'login',

  async prepare(fr, { aal, refresh, returnTo }) {
    const cur = fr.current;
    // A password-only session of someone with a second factor continues at aal2 by itself.
    const wantsAal2 = aal === 'aal2' || (!!cur?.needsAal2 && !refresh);
    if (wantsAal2) {
      if (!cur)
        throw new AuthError('session_inactive', { redirectBrowserTo: browserUrl('login', { return_to: returnTo }) });
      if (cur.session.aal === 'aal2' && !refresh)
        throw new AuthError('session_already_available', { redirectBrowserTo: returnTo ?? '/' });
      const f = await secondFactors(fr.q, cur.identity.id);
      if (!f.totp && !f.lookup && !f.webauthn) {
        throw new AuthError('bad_request', { reason: 'No second factor is set up for this account.' });
      }
      const internal = f.webauthn ? { webauthn_options: await webauthnOptions(fr, cur.identity.id) } : {};
      return { identityId: cur.identity.id, requestedAal: 'aal2', refresh, internal };
    }
    if (cur && !refresh) throw new AuthError('session_already_available', { redirectBrowserTo: returnTo ?? '/' });
    return { identityId: cur?.identity.id ?? null, requestedAal: 'aal1', refresh: refresh && !!cur };
  },

  info(flow) {
    if (flow.requested_aal === 'aal2') return [MSG.secondFactor];
    if (flow.refresh) return [MSG.confirmAction];
    return [];
  },

  async fields(_fr, flow) {
    return { refresh: flow.refresh, requested_aal: flow.requested_aal ?? 'aal1' };
  },

  async nodes(fr, flow) {
    if (flow.requested_aal === 'aal2' && flow.identity_id) {
      const f = await secondFactors(fr.q, flow.identity_id);
      const nodes = [];
      if (f.totp)
        nodes.push(
          input('totp', 'totp_code', 'text', {
            required: true,
            label: 'Authentication code',
            autocomplete: 'one-time-code',
          }),
          submit('totp', 'Use authenticator'),
        );
      if (f.lookup)
        nodes.push(
          input('lookup_secret', 'lookup_secret', 'text', { required: true, label: 'Backup recovery code' }),
          submit('lookup_secret', 'Use backup recovery code'),
        );
      if (f.webauthn && flow.internal_context.webauthn_options) {
        nodes.push(
          input('webauthn', 'webauthn_login_options', 'hidden', {
            value: JSON.stringify(flow.internal_context.webauthn_options),
          }),
          input('webauthn', 'webauthn_login', 'hidden', { required: true }),
          submit('webauthn', 'Use security key'),
        );
      }
      return nodes;
    }
    const email = flow.refresh && fr.current ? fr.current.identity.traits.email : undefined;
    return [
      email
        ? input('default', 'identifier', 'hidden', { value: email, required: true })
        : input('default', 'identifier', 'email', { required: true, label: 'Email', autocomplete: 'username' }),
      input('password', 'password', 'password', {
        required: true,
        label: 'Password',
        autocomplete: 'current-password',
      }),
      submit('password', 'Sign in'),
    ];
  },

  async submit(fr, flow, body) {
    // A login flow signs in once: a replayed submission (same flow, CSRF token and cookie) must
    // not mint another session. The browser restarts, as for an expired flow.
    if (flow.state === COMPLETED) {
      throw new AuthError('self_service_flow_expired', {
        reason: 'This login flow was already used; start a new one.',
        redirectBrowserTo: browserUrl('login', { return_to: flow.return_to ?? undefined }),
      });
    }
    const outcome = flow.requested_aal === 'aal2' ? await secondFactor(fr, flow, body) : await password(fr, flow, body);
    await updateFlow(fr.q, flow.id, { state: COMPLETED });
    return outcome;
  },
};

async function webauthnOptions(fr: FlowRequest, identityId: string) {
  const cred = await getCredential<WebauthnConfig>(fr.q, identityId, 'webauthn');
  const options = await authenticationOptions(relyingParty(fr.req, fr.ctx.config), cred?.config.credentials ?? []);
  return options as unknown as Record<string, unknown> & { challenge: string };
}

function redirectAfter(flow: FlowRow, needsAal2: boolean) {
  const to = needsAal2
    ? browserUrl('login', { aal: 'aal2', return_to: flow.return_to ?? undefined })
    : (flow.return_to ?? '/');
  return [{ action: 'redirect_browser_to', redirect_browser_to: to }];
}

async function password(fr: FlowRequest, flow: FlowRow, body: Record<string, string>) {
  if (body.method !== 'password') throw new FormError([MSG.noStrategy]);
  const missing: Record<string, ReturnType<typeof MSG.required>[]> = {};
  if (!body.identifier?.trim()) missing.identifier = [MSG.required('identifier')];
  if (!body.password) missing.password = [MSG.required('password')];
  if (Object.keys(missing).length) throw new FormError([], missing);

  // Refused before the password is looked at, so a locked-out guesser learns nothing more.
  const throttle = throttleKey(body.identifier, fr.req.ip);
  const retryAfter = await loginRetryAfter(fr.q, throttle);
  if (retryAfter > 0) {
    fr.reply.header('retry-after', String(retryAfter));
    throw new AuthError('too_many_attempts', {
      // the web app's login page shows the reason when it has no page of its own for the id
      reason: `Too many failed sign-in attempts: try again in ${Math.ceil(retryAfter / 60)} minute(s).`,
      details: { retry_after_seconds: retryAfter },
    });
  }

  const identity = await findIdentityByEmail(fr.q, body.identifier);
  const cred =
    identity && identity.state === 'active'
      ? await getCredential<{ hashed_password: string }>(fr.q, identity.id, 'password')
      : undefined;
  if (!identity || !cred) {
    await burnPasswordCheck(body.password);
    // committed with the flow's 400 (the engine keeps what a failed submission wrote)
    await recordLoginFailure(fr.q, throttle);
    throw new FormError([MSG.invalidCredentials]);
  }
  if (!(await verifyPassword(cred.config.hashed_password, body.password))) {
    await recordLoginFailure(fr.q, throttle);
    throw new FormError([MSG.invalidCredentials]);
  }
  await clearLoginFailures(fr.q, throttle);

  let sessionId: string;
  if (flow.refresh && fr.current) {
    if (fr.current.identity.id !== identity.id) throw new AuthError('security_identity_mismatch');
    await recordFactor(fr.q, fr.current.session.id, 'password', 'aal1');
    sessionId = fr.current.session.id;
  } else {
    if (fr.current) await revokeSession(fr.q, fr.current.session.id); // signed in meanwhile: replace it
    sessionId = (await fr.startSession(identity.id, 'password')).id;
  }
  const session = (await getSessionById(fr.q, sessionId))!;
  const needsAal2 = session.aal !== 'aal2' && (await highestAal(fr.q, identity.id)) === 'aal2';
  return {
    status: 200,
    body: { session: await sessionJson(fr.q, session, identity), continue_with: redirectAfter(flow, needsAal2) },
  };
}

/** Refuses a code before it is checked while the account's second step is locked (429). */
async function codeGuard(fr: FlowRequest, key: string): Promise<void> {
  const retryAfter = await factorRetryAfter(fr.q, key);
  if (retryAfter <= 0) return;
  fr.reply.header('retry-after', String(retryAfter));
  throw new AuthError('too_many_attempts', {
    reason: `Too many wrong codes for this account: try again in ${Math.ceil(retryAfter / 60)} minute(s).`,
    details: { retry_after_seconds: retryAfter },
  });
}

async function secondFactor(fr: FlowRequest, flow: FlowRow, body: Record<string, string>) {
  const cur = fr.current;
  if (!cur) throw new AuthError('session_inactive', { redirectBrowserTo: browserUrl('login') });
  if (cur.identity.id !== flow.identity_id) throw new AuthError('security_identity_mismatch');
  const id = cur.identity.id;
  let method: AuthMethod;

  // TOTP and backup codes can be guessed: one brake per account covers both (codeGuard)
  const throttle = factorThrottleKey(id);
  if (body.method === 'totp') {
    const cred = await getCredential<{ secret: string; last_step?: number }>(fr.q, id, 'totp');
    if (!cred) throw new FormError([MSG.noStrategy]);
    if (!body.totp_code) throw new FormError([], { totp_code: [MSG.required('totp_code')] });
    await codeGuard(fr, throttle);
    const secret = openTotpSecret(fr.ctx.box, cred.config.secret);
    if (secret === undefined) {
      // not the person's fault, so not counted: the server's key no longer fits the stored secret
      fr.ctx.log.error({ identity: id }, 'auth: cannot decrypt a TOTP secret; was WATCHDECK_SECRET_KEY changed?');
      throw new FormError([MSG.totpUnavailable]);
    }
    const r = await checkTotp(secret, body.totp_code, cred.config.last_step);
    if (!r.ok) {
      await recordLoginFailure(fr.q, throttle); // committed with the form's 400
      throw new FormError([], { totp_code: [MSG.invalidTotp] });
    }
    await saveCredential(fr.q, id, 'totp', { ...cred.config, last_step: r.step });
    await clearLoginFailures(fr.q, throttle);
    method = 'totp';
  } else if (body.method === 'lookup_secret') {
    const cred = await getCredential<LookupConfig>(fr.q, id, 'lookup_secret');
    if (!cred) throw new FormError([MSG.noStrategy]);
    if (!body.lookup_secret) throw new FormError([], { lookup_secret: [MSG.required('lookup_secret')] });
    await codeGuard(fr, throttle);
    const r = useLookupCode(cred.config, body.lookup_secret);
    if (r.result !== 'ok') await recordLoginFailure(fr.q, throttle);
    if (r.result === 'used') throw new FormError([], { lookup_secret: [MSG.usedLookup] });
    if (r.result === 'invalid') throw new FormError([], { lookup_secret: [MSG.invalidLookup] });
    await saveCredential(fr.q, id, 'lookup_secret', r.config);
    await clearLoginFailures(fr.q, throttle);
    method = 'lookup_secret';
  } else if (body.method === 'webauthn') {
    const cred = await getCredential<WebauthnConfig>(fr.q, id, 'webauthn');
    const options = flow.internal_context.webauthn_options;
    if (!cred || !options) throw new FormError([MSG.noStrategy]);
    if (!body.webauthn_login) throw new FormError([], { webauthn_login: [MSG.required('webauthn_login')] });
    // a challenge is good for one attempt: rotate it before checking, so nothing can be replayed
    await updateFlow(fr.q, flow.id, {
      internal: { ...flow.internal_context, webauthn_options: await webauthnOptions(fr, id) },
    });
    const r = await verifyAuthentication(
      relyingParty(fr.req, fr.ctx.config),
      options.challenge,
      body.webauthn_login,
      cred.config.credentials,
    );
    if (!r) throw new FormError([MSG.webauthnFailed]);
    const credentials = cred.config.credentials.map((k) => (k.id === r.key.id ? { ...k, counter: r.counter } : k));
    await saveCredential(fr.q, id, 'webauthn', { ...cred.config, credentials });
    method = 'webauthn';
  } else {
    throw new FormError([MSG.noStrategy]);
  }

  await recordFactor(fr.q, cur.session.id, method, 'aal2');
  const session = (await getSessionById(fr.q, cur.session.id))!;
  return {
    status: 200,
    body: { session: await sessionJson(fr.q, session, cur.identity), continue_with: redirectAfter(flow, false) },
  };
}
