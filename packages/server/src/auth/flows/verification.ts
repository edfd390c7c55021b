import { verificationMail } from './emails.ts';
import { codeNodes, submitCode } from './code-flow.ts';
import type { FlowKind } from './engine.ts';
import { updateFlow } from './store.ts';
import { MSG } from './ui.ts';

/** Verification: proves an email address by a code sent to it. Works signed in or not. */
export const verificationKind: FlowKind = {
  type: 'verification',

  async prepare() {
    return {};
  },

  async nodes(_fr, flow) {
    return codeNodes(flow, 'Send verification code');
  },

  async submit(fr, flow, body) {
    return submitCode(fr, flow, body, {
      type: 'verification',
      sent: MSG.verificationSent,
      invalid: MSG.verificationInvalid,
      mail: verificationMail,
      async onSuccess(fr, flow, who) {
        // only if the address is still the identity's: a changed email needs its own proof
        await fr.q.query(
          `UPDATE identities SET verified_at = now() WHERE id = $1 AND lower(traits->>'email') = lower($2)`,
          [who.identityId, who.address ?? ''],
        );
        return {
          flow: await updateFlow(fr.q, flow.id, { state: 'passed_challenge', ui: { messages: [MSG.verified] } }),
        };
      },
    });
  },
};
