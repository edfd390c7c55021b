import { Client as SshClient } from 'ssh2';
import { verifySmtp } from '#server/mail/index.ts';
import {
  TIMEOUT_MS,
  TEST_TEXT,
  requireUrl,
  requirePassword,
  prop,
  join,
  call,
  refused,
  basicAuth,
  type PlainConnection,
} from './common.ts';

/**
 * Notification services (mail, file drop, chat, push, webhooks): a token check where the service
 * has one, else a visible test message, as the services' own "test" buttons do.
 */
export async function testSmtp(c: PlainConnection) {
  await verifySmtp(c, TIMEOUT_MS);
}

export async function testSftp(c: PlainConnection) {
  const u = new URL(requireUrl(c));
  const path = decodeURIComponent(u.pathname) || '.';
  await new Promise<void>((resolve, reject) => {
    const ssh = new SshClient();
    ssh
      .on('ready', () => {
        ssh.sftp((err, sftp) => {
          if (err) {
            ssh.end();
            return reject(err);
          }
          sftp.readdir(path, (e) => {
            ssh.end();
            if (e) reject(new Error(`connected, but listing ${path} failed: ${e.message}`));
            else resolve();
          });
        });
      })
      .on('error', reject)
      .connect({
        host: u.hostname,
        port: Number(u.port || 22),
        username: c.username || decodeURIComponent(u.username),
        password: c.password || decodeURIComponent(u.password) || undefined,
        readyTimeout: TIMEOUT_MS,
      });
  });
}

/** Posts a visible test message, as the services' own "test" buttons do. */
async function postJson(
  c: PlainConnection,
  what: string,
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const a = await call(c, url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  if (a.status >= 400) throw refused(what, a);
  return a;
}

export async function testSlack(c: PlainConnection) {
  // auth.test checks the token without posting anything; Slack answers 200 with ok:false on errors.
  const a = await call(c, join(c.url || 'https://slack.com', '/api/auth.test'), {
    method: 'POST',
    headers: { Authorization: `Bearer ${requirePassword(c, 'bot token')}` },
  });
  const body = a.json as { ok?: boolean; error?: string } | undefined;
  if (a.status >= 400 || !body?.ok) throw new Error(`Slack refused the token: ${body?.error ?? `status ${a.status}`}`);
}

export async function testDiscord(c: PlainConnection) {
  await postJson(c, 'the Discord webhook', requirePassword(c, 'webhook URL'), { content: TEST_TEXT });
}

export async function testTeams(c: PlainConnection) {
  const groupOwner = prop(c, 'groupOwner');
  await postJson(
    c,
    'the Teams webhook',
    join(requireUrl(c), `/${encodeURIComponent(requirePassword(c, 'AltID'))}/${encodeURIComponent(groupOwner)}`),
    { text: TEST_TEXT },
  );
}

export async function testMattermost(c: PlainConnection) {
  const body: Record<string, string> = { text: TEST_TEXT };
  if (prop(c, 'channel')) body.channel = prop(c, 'channel');
  if (c.username) body.username = c.username;
  await postJson(
    c,
    'Mattermost',
    join(requireUrl(c), `/hooks/${encodeURIComponent(requirePassword(c, 'token'))}`),
    body,
  );
}

export async function testRocketchat(c: PlainConnection) {
  const body: Record<string, string> = { text: TEST_TEXT, channel: prop(c, 'channel') };
  if (c.username) body.alias = c.username;
  await postJson(c, 'Rocket.Chat', join(requireUrl(c), `/hooks/${requirePassword(c, 'webhook token')}`), body);
}

export async function testGoogleChat(c: PlainConnection) {
  const u = new URL(requireUrl(c));
  if (c.username) u.searchParams.set('key', c.username);
  u.searchParams.set('token', requirePassword(c, 'token'));
  await postJson(c, 'Google Chat', u.toString(), { text: TEST_TEXT });
}

export async function testGenericWebhook(c: PlainConnection) {
  const method = (prop(c, 'requestMethod') || 'POST').toUpperCase();
  const headers = basicAuth(c.username, c.password);
  if (method === 'GET') {
    const a = await call(c, requireUrl(c), { headers });
    if (a.status >= 400) throw refused('the webhook', a);
    return;
  }
  const payload = { [prop(c, 'messageKey') || 'message']: TEST_TEXT, [prop(c, 'titleKey') || 'title']: 'Watchdeck' };
  const contentType = prop(c, 'contentType') || 'application/json';
  const body = contentType.includes('json') ? JSON.stringify(payload) : new URLSearchParams(payload).toString();
  const a = await call(c, requireUrl(c), { method, headers: { ...headers, 'Content-Type': contentType }, body });
  if (a.status >= 400) throw refused('the webhook', a);
}

export async function testTelegram(c: PlainConnection) {
  const a = await call(c, join(c.url || 'https://api.telegram.org', `/bot${requirePassword(c, 'token')}/getMe`));
  const body = a.json as { ok?: boolean; description?: string } | undefined;
  if (a.status >= 400 || !body?.ok)
    throw new Error(`Telegram refused the token: ${body?.description ?? `status ${a.status}`}`);
}

export async function testPushover(c: PlainConnection) {
  const form = new URLSearchParams({ token: requirePassword(c, 'token'), user: c.username ?? '' });
  const a = await call(c, join(c.url || 'https://api.pushover.net', '/1/users/validate.json'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
  });
  const body = a.json as { status?: number; errors?: string[] } | undefined;
  if (body?.status !== 1) throw new Error(`Pushover refused: ${body?.errors?.join(', ') ?? `status ${a.status}`}`);
}

export async function testPushbullet(c: PlainConnection) {
  const a = await call(c, join(c.url || 'https://api.pushbullet.com', '/v2/users/me'), {
    headers: { 'Access-Token': requirePassword(c, 'token') },
  });
  if (a.status >= 400) throw refused('Pushbullet', a);
}

export async function testNtfy(c: PlainConnection) {
  const a = await call(c, requireUrl(c), {
    method: 'POST',
    headers: { ...basicAuth(c.username, c.password), Title: 'Watchdeck' },
    body: TEST_TEXT,
  });
  if (a.status >= 400) throw refused('ntfy', a);
}

export async function testOpsgenie(c: PlainConnection) {
  const a = await call(c, join(requireUrl(c), '/v2/heartbeats'), {
    headers: { Authorization: `GenieKey ${requirePassword(c, 'API key')}` },
  });
  if (a.status >= 400) throw refused('OpsGenie', a, (a.json as { message?: string } | undefined)?.message);
}

export async function testMatrix(c: PlainConnection) {
  const base = requireUrl(c);
  const secret = requirePassword(c, 'password or access token');
  const a = c.username
    ? await call(c, join(base, '/_matrix/client/v3/login'), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          type: 'm.login.password',
          identifier: { type: 'm.id.user', user: c.username },
          password: secret,
        }),
      })
    : await call(c, join(base, '/_matrix/client/v3/account/whoami'), {
        headers: { Authorization: `Bearer ${secret}` },
      });
  if (a.status >= 400) throw refused('Matrix', a, (a.json as { error?: string } | undefined)?.error);
}

export async function testZulip(c: PlainConnection) {
  const a = await call(c, join(requireUrl(c), '/api/v1/users/me'), { headers: basicAuth(c.username, c.password) });
  if (a.status >= 400) throw refused('Zulip', a, (a.json as { msg?: string } | undefined)?.msg);
}
