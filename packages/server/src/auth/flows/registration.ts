/**
 * Registration (only with WATCHDECK_REGISTRATION=true): email, name and password make a person
 * with no roles (a viewer), signed in at once; a verification code is emailed right away.
 */
import { AuthError } from '../errors.ts';
import { createIdentity, findIdentityByEmail, identityJson } from '../identities.ts';
import { passwordPolicyViolation } from '../password.ts';
import { sessionJson } from '../sessions.ts';
import { issueCode } from '../codes.ts';
import { FormError, uiUrl, type FlowKind } from './engine.ts';
import { verificationMail } from './emails.ts';
import { insertFlow } from './store.ts';
import { input, MSG, submit, type UiText } from './ui.ts';

export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function validateTraits(body: Record<string, string>): Record<string, UiText[]> {
  const errors: Record<string, UiText[]> = {};
  const email = body['traits.email']?.trim() ?? '';
  if (!email) errors['traits.email'] = [MSG.required('traits.email')];
  else if (!EMAIL_RE.test(email) || email.length > 320) errors['traits.email'] = [MSG.invalidEmail];
  if (!body['traits.name.first']?.trim()) errors['traits.name.first'] = [MSG.required('traits.name.first')];
  if (!body['traits.name.last']?.trim()) errors['traits.name.last'] = [MSG.required('traits.name.last')];
  return errors;
}

export const registrationKind: FlowKind = {
  type: 'registration',

  async prepare(fr, { returnTo }) {
    if (!fr.ctx.config.registrationEnabled)
      throw new AuthError('self_service_flow_disabled', {
        reason: 'Registration is disabled; ask an administrator for an invitation.',
      });
    if (fr.current) throw new AuthError('session_already_available', { redirectBrowserTo: returnTo ?? '/' });
    return {};
  },

  async nodes() {
    return [
      input('default', 'traits.email', 'email', { required: true, label: 'Email', autocomplete: 'email' }),
      input('default', 'traits.name.first', 'text', {
        required: true,
        label: 'First name',
        autocomplete: 'given-name',
      }),
      input('default', 'traits.name.last', 'text', { required: true, label: 'Last name', autocomplete: 'family-name' }),
      input('password', 'password', 'password', { required: true, label: 'Password', autocomplete: 'new-password' }),
      submit('password', 'Sign up'),
    ];
  },

  async submit(fr, flow, body) {
    if (!fr.ctx.config.registrationEnabled) throw new AuthError('self_service_flow_disabled');
    if (body.method !== 'password') throw new FormError([MSG.noStrategy]);
    const errors = validateTraits(body);
    const pw = body.password ?? '';
    const policy = pw ? passwordPolicyViolation(pw, body['traits.email']) : undefined;
    if (!pw) errors.password = [MSG.required('password')];
    else if (policy) errors.password = [MSG.passwordPolicy(policy)];
    if (Object.keys(errors).length) throw new FormError([], errors);
    if (await findIdentityByEmail(fr.q, body['traits.email'])) throw new FormError([MSG.duplicateAccount]);

    const identity = await createIdentity(fr.q, {
      traits: {
        email: body['traits.email'],
        name: { first: body['traits.name.first'], last: body['traits.name.last'] },
      },
      password: pw,
    });
    const session = await fr.startSession(identity.id, 'password');

    // prove the address: a verification flow for this browser with a code already on its way
    const verification = await insertFlow(fr.q, {
      type: 'verification',
      identityId: identity.id,
      state: 'sent_email',
      returnTo: flow.return_to,
      internal: { csrf_cookie_hash: fr.csrfCookieHash, address: identity.traits.email },
    });
    const code = await issueCode(fr.q, {
      flowId: verification.id,
      identityId: identity.id,
      type: 'verification',
      address: identity.traits.email,
    });
    fr.after(() => fr.ctx.mailer.send(verificationMail(identity.traits.email, code)).then(() => {}));

    return {
      status: 200,
      body: {
        identity: identityJson(identity),
        session: await sessionJson(fr.q, session, identity),
        continue_with: [
          {
            action: 'show_verification_ui',
            flow: {
              id: verification.id,
              verifiable_address: identity.traits.email,
              url: uiUrl('verification', verification.id),
            },
          },
          { action: 'redirect_browser_to', redirect_browser_to: flow.return_to ?? '/' },
        ],
      },
    };
  },
};
