/**
 * Recovery: an emailed code (or an invitation link) signs the person in and sends the browser to a
 * settings flow to choose a new password. The address is thereby proven, so it counts as verified.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { consumeCode } from '../codes.ts';
import { AuthError } from '../errors.ts';
import { getIdentity, type Identity } from '../identities.ts';
import { isUuid } from '../http.ts';
import { revokeSession, type AuthMethod } from '../sessions.ts';
import { recoveryMail } from './emails.ts';
import { codeNodes, submitCode } from './code-flow.ts';
import { locationChange, runDeferred, uiUrl, type FlowKind, type FlowRequest, type Outcome } from './engine.ts';
import { settingsInternal } from './settings.ts';
import { insertFlow, isExpired, loadFlow, updateFlow, type FlowRow } from './store.ts';
import { MSG } from './ui.ts';

async function recover(fr: FlowRequest, flow: FlowRow, identity: Identity, method: AuthMethod): Promise<FlowRow> {
  await fr.q.query(`UPDATE identities SET verified_at = COALESCE(verified_at, now()) WHERE id = $1`, [identity.id]);
  if (fr.current) await revokeSession(fr.q, fr.current.session.id);
  await fr.startSession(identity.id, method);
  await updateFlow(fr.q, flow.id, { state: 'passed_challenge', ui: { messages: [] } });
  return insertFlow(fr.q, {
    type: 'settings',
    identityId: identity.id,
    returnTo: flow.return_to,
    internal: { ...(await settingsInternal(fr, identity)), csrf_cookie_hash: fr.csrfCookieHash },
  });
}

export const recoveryKind: FlowKind = {
  type: 'recovery',

  async prepare(fr, { returnTo }) {
    if (fr.current && !fr.current.needsAal2)
      throw new AuthError('session_already_available', { redirectBrowserTo: returnTo ?? '/' });
    return {};
  },

  async nodes(_fr, flow) {
    return codeNodes(flow, 'Send recovery code');
  },

  async submit(fr, flow, body) {
    return submitCode(fr, flow, body, {
      type: 'recovery',
      sent: MSG.recoverySent,
      invalid: MSG.recoveryInvalid,
      mail: recoveryMail,
      async onSuccess(fr, flow, who): Promise<Outcome> {
        const identity = await getIdentity(fr.q, who.identityId);
        if (!identity || identity.state !== 'active')
          throw new AuthError('not_found', { reason: 'The account no longer exists.' });
        const settings = await recover(fr, flow, identity, 'code_recovery');
        const url = uiUrl('settings', settings.id);
        return locationChange(url, { continue_with: [{ action: 'show_settings_ui', flow: { id: settings.id, url } }] });
      },
    });
  },
};

/**
 * GET /api/auth/self-service/recovery?flow=&token= : the link of an invitation (or any link-based
 * recovery). A browser navigation, so it answers with redirects: to the settings page on
 * success, to the error page otherwise.
 */
export function recoveryLinkRoute(
  app: FastifyInstance,
  make: (req: FastifyRequest, reply: FastifyReply) => Promise<FlowRequest>,
) {
  app.get('/api/auth/self-service/recovery', async (req, reply) => {
    const { flow: id, token } = req.query as { flow?: string; token?: string };
    const fr = await make(req, reply);
    const flow = isUuid(id) ? await loadFlow(fr.q, id, 'recovery') : undefined;
    if (!flow || !token)
      throw new AuthError('not_found', { reason: 'The recovery link is not valid.', redirectBrowserTo: '/recovery' });
    if (isExpired(flow)) throw new AuthError('self_service_flow_expired', { redirectBrowserTo: '/recovery' });

    const db = fr.ctx.db;
    const settings = await db.transaction(async (tx) => {
      fr.q = tx;
      const who = await consumeCode(tx, flow.id, 'recovery', token);
      const identity = who && (await getIdentity(tx, who.identityId));
      if (!identity || identity.state !== 'active') return undefined;
      return recover(fr, flow, identity, 'link_recovery');
    });
    fr.q = db;
    await runDeferred(fr);
    if (!settings)
      throw new AuthError('self_service_flow_expired', {
        reason: 'The recovery link was already used or has expired.',
        redirectBrowserTo: '/recovery',
      });
    return reply.redirect(uiUrl('settings', settings.id), 303);
  });
}
