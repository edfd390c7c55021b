/**
 * Settings: profile, password and second factors of the signed-in person. Changes need a recent
 * sign-in (PRIVILEGED_SESSION_MS): an older session is sent to re-enter its password first
 * (session_refresh_required), so a browser left open cannot be used to take the account over.
 */
import { AuthError } from '../errors.ts';
import {
  newLookupCodes,
  newTotpSecret,
  registrationOptions,
  relyingParty,
  checkTotp,
  totpUri,
  verifyRegistration,
} from '../factors.ts';
import {
  deleteCredential,
  findIdentityByEmail,
  fullName,
  getCredential,
  getIdentity,
  identityJson,
  saveCredential,
  secondFactors,
  setPassword,
  updateTraits,
  type Identity,
  type WebauthnConfig,
} from '../identities.ts';
import { passwordPolicyViolation } from '../password.ts';
import { isPrivileged, recordFactor, revokeAllSessions } from '../sessions.ts';
import { openTotpSecret, sealTotpSecret } from '../secrets-at-rest.ts';
import {
  browserUrl,
  FormError,
  uiUrl,
  type FlowKind,
  type FlowRequest,
  type Outcome,
  type RenderExtras,
} from './engine.ts';
import { validateTraits } from './registration.ts';
import { updateFlow, type FlowInternal } from './store.ts';
import { input, MSG, submit, text, type UiNode } from './ui.ts';

/** The pending enrolment material a settings flow shows: a TOTP secret and WebAuthn options. */
export async function settingsInternal(fr: FlowRequest, identity: Identity): Promise<FlowInternal> {
  const f = await secondFactors(fr.q, identity.id);
  const keys = (await getCredential<WebauthnConfig>(fr.q, identity.id, 'webauthn'))?.config.credentials ?? [];
  const options = await registrationOptions(
    relyingParty(fr.req, fr.ctx.config),
    { id: identity.id, email: identity.traits.email, name: fullName(identity.traits) },
    keys,
  );
  return {
    // the offered secret is stored sealed like the credential it becomes (secrets-at-rest.ts)
    ...(f.totp ? {} : { totp_secret: sealTotpSecret(fr.ctx.box, newTotpSecret()) }),
    webauthn_options: options as unknown as FlowInternal['webauthn_options'],
  };
}

function requireSession(fr: FlowRequest, returnTo: string) {
  const cur = fr.current;
  if (!cur)
    throw new AuthError('session_inactive', { redirectBrowserTo: browserUrl('login', { return_to: returnTo }) });
  if (cur.needsAal2)
    throw new AuthError('session_aal2_required', {
      redirectBrowserTo: browserUrl('login', { aal: 'aal2', return_to: returnTo }),
    });
  return cur;
}

export const settingsKind: FlowKind = {
  type: 'settings',

  async prepare(fr, { returnTo }) {
    const cur = requireSession(fr, '/profile-settings');
    return { identityId: cur.identity.id, returnTo, internal: await settingsInternal(fr, cur.identity) };
  },

  async check(fr, flow) {
    const cur = requireSession(fr, uiUrl('settings', flow.id));
    if (cur.identity.id !== flow.identity_id) throw new AuthError('security_identity_mismatch');
  },

  async fields(fr, flow) {
    const identity = flow.identity_id ? await getIdentity(fr.q, flow.identity_id) : undefined;
    return { identity: identity ? identityJson(identity) : null };
  },

  async nodes(fr, flow, extras) {
    const identity = flow.identity_id ? await getIdentity(fr.q, flow.identity_id) : undefined;
    if (!identity) return [];
    const f = await secondFactors(fr.q, identity.id);
    const keys = (await getCredential<WebauthnConfig>(fr.q, identity.id, 'webauthn'))?.config.credentials ?? [];
    const ic = flow.internal_context;
    const offered = ic.totp_secret ? openTotpSecret(fr.ctx.box, ic.totp_secret) : undefined;
    const nodes: UiNode[] = [
      input('profile', 'traits.email', 'email', { value: identity.traits.email, required: true, label: 'Email' }),
      input('profile', 'traits.name.first', 'text', {
        value: identity.traits.name.first,
        required: true,
        label: 'First name',
      }),
      input('profile', 'traits.name.last', 'text', {
        value: identity.traits.name.last,
        required: true,
        label: 'Last name',
      }),
      submit('profile', 'Save'),
      input('password', 'password', 'password', { required: true, label: 'Password', autocomplete: 'new-password' }),
      submit('password', 'Save'),
    ];
    if (f.totp) {
      nodes.push(input('totp', 'totp_unlink', 'submit', { value: 'true', label: 'Unlink TOTP Authenticator App' }));
    } else if (offered) {
      nodes.push(
        text(
          'totp',
          'totp_secret_key',
          offered,
          'This is your authenticator app secret. Use it if you can not scan the QR code.',
        ),
        text('totp', 'totp_url', totpUri(offered, identity.traits.email), 'Authenticator app QR code (otpauth URI)'),
        input('totp', 'totp_code', 'text', { required: true, label: 'Verify code', autocomplete: 'one-time-code' }),
        submit('totp', 'Save'),
      );
    }
    if (extras.lookupCodes) {
      nodes.push(
        text('lookup_secret', 'lookup_secret_codes', extras.lookupCodes.join(', '), 'Backup recovery codes', {
          secrets: extras.lookupCodes,
        }),
        input('lookup_secret', 'lookup_secret_confirm', 'submit', {
          value: 'true',
          label: 'Confirm backup recovery codes',
        }),
      );
    } else {
      if (f.lookup)
        nodes.push(text('lookup_secret', 'lookup_secret_remaining', `${f.lookup} backup recovery codes left`));
      nodes.push(
        input('lookup_secret', 'lookup_secret_regenerate', 'submit', {
          value: 'true',
          label: 'Generate new backup recovery codes',
        }),
      );
      if (f.lookup)
        nodes.push(
          input('lookup_secret', 'lookup_secret_disable', 'submit', { value: 'true', label: 'Disable this method' }),
        );
    }
    for (const k of keys) {
      nodes.push(
        input('webauthn', 'webauthn_remove', 'submit', {
          value: k.id,
          label: `Remove security key "${k.display_name}"`,
        }),
      );
    }
    nodes.push(
      input('webauthn', 'webauthn_register_displayname', 'text', { label: 'Name of the security key' }),
      input('webauthn', 'webauthn_register_options', 'hidden', { value: JSON.stringify(ic.webauthn_options ?? {}) }),
      input('webauthn', 'webauthn_register', 'hidden'),
      submit('webauthn', 'Add security key'),
    );
    return nodes;
  },

  async submit(fr, flow, body) {
    const cur = fr.current!;
    if (!isPrivileged(cur.session)) {
      throw new AuthError('session_refresh_required', {
        redirectBrowserTo: browserUrl('login', { refresh: 'true', return_to: uiUrl('settings', flow.id) }),
      });
    }
    const identity = cur.identity;
    const saved = async (internal: FlowInternal = flow.internal_context, extras?: RenderExtras): Promise<Outcome> => ({
      flow: await updateFlow(fr.q, flow.id, {
        state: 'success',
        internal,
        ui: { messages: [extras?.lookupCodes ? MSG.lookupCodesShown : MSG.settingsSaved] },
      }),
      extras,
    });

    switch (body.method) {
      case 'profile': {
        const errors = validateTraits(body);
        if (Object.keys(errors).length) throw new FormError([], errors);
        const other = await findIdentityByEmail(fr.q, body['traits.email']);
        if (other && other.id !== identity.id) throw new FormError([MSG.duplicateAccount]);
        await updateTraits(fr.q, identity.id, {
          email: body['traits.email'],
          name: { first: body['traits.name.first'], last: body['traits.name.last'] },
        });
        return saved();
      }

      case 'password': {
        const pw = body.password ?? '';
        if (!pw) throw new FormError([], { password: [MSG.required('password')] });
        const policy = passwordPolicyViolation(pw, identity.traits.email);
        if (policy) throw new FormError([], { password: [MSG.passwordPolicy(policy)] });
        await setPassword(fr.q, identity.id, identity.traits.email, pw);
        await revokeAllSessions(fr.q, identity.id, cur.session.id); // everyone else who knew the old one is out
        return saved();
      }

      case 'totp': {
        if (body.totp_unlink === 'true') {
          await deleteCredential(fr.q, identity.id, 'totp');
          return saved({ ...flow.internal_context, totp_secret: sealTotpSecret(fr.ctx.box, newTotpSecret()) });
        }
        const sealed = flow.internal_context.totp_secret;
        const secret = sealed ? openTotpSecret(fr.ctx.box, sealed) : undefined;
        if (!sealed || !secret) throw new FormError([MSG.noSettingsStrategy]);
        if (!body.totp_code) throw new FormError([], { totp_code: [MSG.required('totp_code')] });
        const r = await checkTotp(secret, body.totp_code);
        if (!r.ok) throw new FormError([], { totp_code: [MSG.invalidTotp] });
        await saveCredential(fr.q, identity.id, 'totp', { secret: sealed, last_step: r.step });
        await recordFactor(fr.q, cur.session.id, 'totp', 'aal2'); // just proved possession of the app
        const { totp_secret: _done, ...rest } = flow.internal_context;
        return saved(rest);
      }

      case 'lookup_secret': {
        if (body.lookup_secret_regenerate === 'true') {
          const { codes, hashes } = newLookupCodes();
          return saved({ ...flow.internal_context, lookup_pending: hashes }, { lookupCodes: codes });
        }
        if (body.lookup_secret_confirm === 'true') {
          const pending = flow.internal_context.lookup_pending;
          if (!pending?.length) throw new FormError([MSG.noSettingsStrategy]);
          await saveCredential(fr.q, identity.id, 'lookup_secret', {
            codes: pending.map((hash) => ({ hash, used_at: null })),
          });
          await recordFactor(fr.q, cur.session.id, 'lookup_secret', 'aal2'); // the codes are in hand this very minute
          const { lookup_pending: _done, ...rest } = flow.internal_context;
          return saved(rest);
        }
        if (body.lookup_secret_disable === 'true') {
          await deleteCredential(fr.q, identity.id, 'lookup_secret');
          return saved();
        }
        throw new FormError([
          {
            id: 4000001,
            type: 'error',
            text: 'Backup recovery codes are stored hashed and cannot be shown again; generate new ones instead.',
          },
        ]);
      }

      case 'webauthn': {
        const cred = await getCredential<WebauthnConfig>(fr.q, identity.id, 'webauthn');
        const keys = cred?.config.credentials ?? [];
        if (body.webauthn_remove) {
          const left = keys.filter((k) => k.id !== body.webauthn_remove);
          if (left.length === keys.length) throw new FormError([MSG.noSettingsStrategy]);
          if (left.length) await saveCredential(fr.q, identity.id, 'webauthn', { credentials: left });
          else await deleteCredential(fr.q, identity.id, 'webauthn');
          return saved({ ...flow.internal_context, ...(await settingsInternal(fr, identity)) });
        }
        const options = flow.internal_context.webauthn_options;
        if (!body.webauthn_register || !options)
          throw new FormError([], { webauthn_register: [MSG.required('webauthn_register')] });
        // one attempt per challenge, successful or not
        const fresh = {
          ...flow.internal_context,
          webauthn_options: (await settingsInternal(fr, identity)).webauthn_options,
        };
        await updateFlow(fr.q, flow.id, { internal: fresh });
        flow.internal_context = fresh;
        const key = await verifyRegistration(
          relyingParty(fr.req, fr.ctx.config),
          options.challenge,
          body.webauthn_register,
          (body.webauthn_register_displayname ?? '').trim().slice(0, 100),
        );
        if (!key) throw new FormError([MSG.webauthnFailed]);
        if (keys.some((k) => k.id === key.id)) throw new FormError([MSG.webauthnFailed]);
        await saveCredential(fr.q, identity.id, 'webauthn', { credentials: [...keys, key] });
        await recordFactor(fr.q, cur.session.id, 'webauthn', 'aal2');
        return saved({ ...fresh, ...(await settingsInternal(fr, identity)) });
      }

      default:
        throw new FormError([MSG.noSettingsStrategy]);
    }
  },
};
