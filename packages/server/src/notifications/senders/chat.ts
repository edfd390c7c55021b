/**
 * Chat services: each sender makes the service's documented call with its documented payload
 * (README.md lists the endpoints). Titles and bodies are cut to the service's limits.
 */
import { html, plain, slackMrkdwn } from './markup.ts';
import { send, SendError } from './http.ts';
import { apiBase, basicAuth, cut, hostBase, list, need, prop, setting } from './base.ts';
import type { Sender } from './types.ts';

const RED = 0xd63031;
const GREEN = 0x2e9e5b;
const hex = (n: number) => n.toString(16).padStart(6, '0');

/** Slack Web API chat.postMessage with a bot token; Slack answers 200 {ok:false, error} on errors. */
export const slack: Sender = async (c, m, ctx) => {
  const channel = need(setting(c, ctx, 'channel') || c.username, 'channel');
  const botName = setting(c, ctx, 'botName');
  await send({
    url: `${apiBase(ctx, 'slack', 'https://slack.com')}/api/chat.postMessage`,
    headers: {
      Authorization: `Bearer ${need(c.password, 'bot token')}`,
      'Content-Type': 'application/json; charset=utf-8',
    },
    json: {
      channel,
      text: cut(m.title, 3000),
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: cut(m.title, 150) } },
        { type: 'section', text: { type: 'mrkdwn', text: cut(slackMrkdwn(m.body), 3000) } },
      ],
      ...(botName ? { username: botName } : {}),
    },
    check: (_s, json) => {
      const j = json as { ok?: boolean; error?: string } | undefined;
      return j?.ok ? undefined : `Slack: ${j?.error ?? 'no ok in the answer'}`;
    },
  });
};

/** Discord webhook (the connection's webhook URL): one embed; ?wait=true so errors are answered. */
export const discord: Sender = async (c, m) => {
  const url = new URL(need(c.password, 'webhook URL'));
  url.searchParams.set('wait', 'true');
  await send({
    url: url.toString(),
    json: {
      embeds: [
        {
          title: cut(m.title, 256),
          description: cut(m.body, 4096),
          ...(m.link ? { url: m.link } : {}),
          color: m.good ? GREEN : RED,
        },
      ],
    },
  });
};

/** Microsoft Teams incoming webhook (Office 365 connector): a MessageCard, Markdown text. */
export const teams: Sender = async (c, m) => {
  const group = need(prop(c.properties, 'group'), 'group');
  const tenant = need(prop(c.properties, 'tenant'), 'tenant');
  const owner = need(prop(c.properties, 'groupOwner'), 'group owner');
  const altId = need(c.password, 'AltID');
  const base = hostBase({ ...c, url: null }, 'outlook.office.com');
  await send({
    url: `${base}/webhookb2/${encodeURIComponent(group)}@${encodeURIComponent(tenant)}/IncomingWebhook/${encodeURIComponent(altId)}/${encodeURIComponent(owner)}`,
    json: {
      '@type': 'MessageCard',
      '@context': 'https://schema.org/extensions',
      summary: cut(m.title, 200),
      title: m.title,
      text: m.body.replace(/\n/g, '\n\n'),
      themeColor: hex(m.good ? GREEN : RED),
      ...(m.link
        ? {
            potentialAction: [
              { '@type': 'OpenUri', name: 'Open in Watchdeck', targets: [{ os: 'default', uri: m.link }] },
            ],
          }
        : {}),
    },
  });
};

/** Google Chat incoming webhook of a space: {text}, in Chat's own markup (`*bold*`, `<url|text>`). */
export const googleChat: Sender = async (c, m, ctx) => {
  const space = need(prop(c.properties, 'webhook'), 'space');
  const url = new URL(
    `${apiBase(ctx, 'google_chat', 'https://chat.googleapis.com')}/v1/spaces/${encodeURIComponent(space)}/messages`,
  );
  if (c.username) url.searchParams.set('key', c.username);
  url.searchParams.set('token', need(c.password, 'token'));
  await send({ url: url.toString(), json: { text: cut(slackMrkdwn(`**${m.title}**\n${m.body}`), 4096) } });
};

/** Mattermost incoming webhook: POST /hooks/<token> {text, channel?, username?}; Markdown. */
export const mattermost: Sender = async (c, m, ctx) => {
  const body: Record<string, string> = { text: cut(`#### ${m.title}\n${m.body}`, 16_000) };
  const channel = setting(c, ctx, 'channel');
  if (channel) body.channel = channel;
  if (c.username) body.username = c.username;
  await send({ url: `${hostBase(c)}/hooks/${encodeURIComponent(need(c.password, 'token'))}`, json: body });
};

/** Rocket.Chat incoming webhook: POST /hooks/<token> {text, channel, alias?}; Markdown. */
export const rocketchat: Sender = async (c, m, ctx) => {
  const body: Record<string, string> = {
    text: `*${m.title}*\n${m.body}`,
    channel: need(setting(c, ctx, 'channel'), 'channel'),
  };
  if (c.username) body.alias = c.username;
  const token = need(c.password, 'webhook token').replace(/^\/+/, '');
  await send({ url: `${hostBase(c)}/hooks/${token.split('/').map(encodeURIComponent).join('/')}`, json: body });
};

/** Telegram Bot API sendMessage to each chat, in Telegram's HTML; 200 {ok:false, description} on errors. */
export const telegram: Sender = async (c, m, ctx) => {
  const token = need(c.password, 'token');
  const chats = list(setting(c, ctx, 'chats') || c.username);
  if (!chats.length) throw new SendError('the connection has no chats');
  const text = cut(html(`**${m.title}**\n${m.body}`, '\n'), 4096);
  for (const chat of chats) {
    await send({
      url: `${apiBase(ctx, 'telegram', 'https://api.telegram.org')}/bot${token}/sendMessage`,
      json: { chat_id: chat, text, parse_mode: 'HTML', disable_web_page_preview: true },
      check: (_s, json) => {
        const j = json as { ok?: boolean; description?: string } | undefined;
        return j?.ok ? undefined : `Telegram: ${j?.description ?? 'no ok in the answer'}`;
      },
    });
  }
};

/**
 * Matrix client-server API: signs in first when the connection has a user (else the password is
 * an access token), resolves a room alias, then PUTs an m.room.message with the delivery key as
 * its transaction id, so a repeated send is the same event to the homeserver.
 */
export const matrix: Sender = async (c, m, ctx) => {
  const base = hostBase(c);
  const secret = need(c.password, 'password or access token');
  const tls = { insecureTls: !!c.insecure_tls };
  let token = secret;
  if (c.username) {
    const login = await send({
      ...tls,
      url: `${base}/_matrix/client/v3/login`,
      json: { type: 'm.login.password', identifier: { type: 'm.id.user', user: c.username }, password: secret },
    });
    token = need((login.json as { access_token?: string } | undefined)?.access_token, 'access token from the login');
  }
  const auth = { Authorization: `Bearer ${token}` };
  let room = need(setting(c, ctx, 'room'), 'room');
  if (room.startsWith('#')) {
    const r = await send({
      ...tls,
      url: `${base}/_matrix/client/v3/directory/room/${encodeURIComponent(room)}`,
      headers: auth,
    });
    room = need((r.json as { room_id?: string } | undefined)?.room_id, `room id for ${room}`);
  }
  const md = `**${m.title}**\n${m.body}`;
  await send({
    ...tls,
    method: 'PUT',
    url: `${base}/_matrix/client/v3/rooms/${encodeURIComponent(room)}/send/m.room.message/${encodeURIComponent(m.key)}`,
    headers: auth,
    json: { msgtype: 'm.text', body: plain(md), format: 'org.matrix.custom.html', formatted_body: html(md) },
  });
};

/** Zulip REST API POST /api/v1/messages (bot e-mail and key): a stream message, topic = title. */
export const zulip: Sender = async (c, m, ctx) => {
  const stream = need(setting(c, ctx, 'stream'), 'stream (set properties.stream on the rule or the connection)');
  const form = new URLSearchParams({
    type: 'stream',
    to: stream,
    topic: cut(setting(c, ctx, 'topic') || m.title, 60),
    content: cut(`**${m.title}**\n${m.body}`, 10_000),
  });
  await send({
    url: `${hostBase(c)}/api/v1/messages`,
    headers: {
      ...basicAuth(need(c.username, 'bot e-mail'), need(c.password, 'bot key')),
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: form.toString(),
  });
};
