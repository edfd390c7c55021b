import { consumeCode, issueCode, MAX_CODE_ATTEMPTS, voidCodes, type CodeType } from '../codes.ts';
import { findIdentityByEmail } from '../identities.ts';
import type { Mail } from '#server/mail/index.ts';
import { FormError, type FlowRequest, type Outcome } from './engine.ts';
import { EMAIL_RE } from './registration.ts';
import { updateFlow, type FlowRow } from './store.ts';
import { input, MSG, submit, type UiNode, type UiText } from './ui.ts';

/**
 * The two-step "email me a code, then type it" mechanics shared by recovery and verification.
 * Step one always answers the same, whether or not the address has an account, so the form
 * cannot be used to find out who has one.
 */
export interface CodeFlowSpec {
  type: CodeType;
  sent: UiText;
  invalid: UiText;
  mail(to: string, code: string): Mail;
  onSuccess(fr: FlowRequest, flow: FlowRow, who: { identityId: string; address: string | null }): Promise<Outcome>;
}

export function codeNodes(flow: FlowRow, submitLabel: string): UiNode[] {
  if (flow.state === 'sent_email') {
    const nodes = [
      input('code', 'code', 'text', { required: true, label: 'Code', autocomplete: 'one-time-code' }),
      submit('code', 'Continue'),
    ];
    if (flow.internal_context.address)
      nodes.push(input('code', 'email', 'submit', { value: flow.internal_context.address, label: 'Resend code' }));
    return nodes;
  }
  if (flow.state === 'passed_challenge') return [];
  return [
    input('code', 'email', 'email', { required: true, label: 'Email', autocomplete: 'email' }),
    submit('code', submitLabel),
  ];
}

export async function submitCode(
  fr: FlowRequest,
  flow: FlowRow,
  body: Record<string, string>,
  spec: CodeFlowSpec,
): Promise<Outcome> {
  if (body.method !== undefined && body.method !== 'code') throw new FormError([MSG.noStrategy]);
  if (flow.state === 'passed_challenge') return { flow };

  // typed a code
  if (body.code !== undefined && body.code !== '' && flow.state === 'sent_email') {
    const who = await consumeCode(fr.q, flow.id, spec.type, body.code);
    if (who) return spec.onSuccess(fr, flow, who);
    const attempts = (flow.internal_context.code_attempts ?? 0) + 1;
    if (attempts >= MAX_CODE_ATTEMPTS) await voidCodes(fr.q, flow.id); // enough guessing: a new code must be requested
    await updateFlow(fr.q, flow.id, { internal: { ...flow.internal_context, code_attempts: attempts } });
    throw new FormError([], { code: [spec.invalid] });
  }

  // asked for a code (first time or resend)
  const email = (body.email ?? '').trim();
  if (!email)
    throw new FormError([], {
      [flow.state === 'sent_email' ? 'code' : 'email']: [MSG.required(flow.state === 'sent_email' ? 'code' : 'email')],
    });
  if (!EMAIL_RE.test(email)) throw new FormError([], { email: [MSG.invalidEmail] });

  // a verification flow begun for a known identity (after registration) only serves that address
  const identity = await findIdentityByEmail(fr.q, email);
  const allowed = identity && identity.state === 'active' && (!flow.identity_id || flow.identity_id === identity.id);
  if (allowed) {
    const code = await issueCode(fr.q, {
      flowId: flow.id,
      identityId: identity.id,
      type: spec.type,
      address: identity.traits.email,
    });
    fr.after(() => fr.ctx.mailer.send(spec.mail(identity.traits.email, code)).then(() => {}));
  } else {
    await voidCodes(fr.q, flow.id);
    fr.ctx.log.info({ flow: flow.id, type: spec.type }, 'auth: code requested for an unknown address; nothing sent');
  }
  return {
    flow: await updateFlow(fr.q, flow.id, {
      state: 'sent_email',
      internal: { ...flow.internal_context, address: email, code_attempts: 0 },
      ui: { messages: [spec.sent], fields: { email: { value: email } } },
    }),
  };
}
