/** Push, alerting and automation services, and the generic webhook (README.md lists the calls). */
import { html, plain } from './markup.ts';
import { send, SendError } from './http.ts';
import { apiBase, basicAuth, cut, hostBase, list, need, prop, setting } from './base.ts';
import type { Sender } from './types.ts';

/** ntfy JSON publishing: POST to the server's root {topic, title, message, markdown, click, tags}. */
export const ntfy: Sender = async (c, m, ctx) => {
  await send({
    url: `${hostBase(c, 'ntfy.sh')}/`,
    insecureTls: !!c.insecure_tls,
    headers: basicAuth(c.username, c.password),
    json: {
      topic: need(setting(c, ctx, 'topic'), 'topic'),
      title: cut(m.title, 250),
      message: cut(m.body, 4096),
      markdown: true,
      tags: [m.good ? 'white_check_mark' : 'warning'],
      ...(m.link ? { click: m.link } : {}),
    },
  });
};

/** Pushover Message API: form POST /1/messages.json; {status: 1} on success, {errors} otherwise. */
export const pushover: Sender = async (c, m, ctx) => {
  const form = new URLSearchParams({
    token: need(c.password, 'token'),
    user: need(c.username, 'user key'),
    title: cut(m.title, 250),
    message: cut(html(m.body, '\n'), 1024),
    html: '1',
  });
  if (m.link) {
    form.set('url', m.link);
    form.set('url_title', 'Open in Watchdeck');
  }
  const device = setting(c, ctx, 'devices');
  if (device) form.set('device', device);
  await send({
    url: `${apiBase(ctx, 'pushover', 'https://api.pushover.net')}/1/messages.json`,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    check: (_s, json) => {
      const j = json as { status?: number; errors?: string[] } | undefined;
      return j?.status === 1 ? undefined : `Pushover: ${j?.errors?.join(', ') ?? 'status is not 1'}`;
    },
  });
};

/**
 * Pushbullet POST /v2/pushes, a note per target: `#tag` a channel, an address with @ an email,
 * anything else a device iden; no targets: every device of the account.
 */
export const pushbullet: Sender = async (c, m, ctx) => {
  const token = need(c.password, 'token');
  const targets = list(setting(c, ctx, 'targets'));
  const note = { type: 'note', title: m.title, body: plain(m.body) };
  for (const t of targets.length ? targets : ['']) {
    const target = !t
      ? {}
      : t.startsWith('#')
        ? { channel_tag: t.slice(1) }
        : t.includes('@')
          ? { email: t }
          : { device_iden: t };
    await send({
      url: `${apiBase(ctx, 'pushbullet', 'https://api.pushbullet.com')}/v2/pushes`,
      headers: { 'Access-Token': token },
      json: { ...note, ...target },
    });
  }
};

/** IFTTT Webhooks (Maker): POST /trigger/<event>/with/key/<key> {value1: title, value2: body, value3: link}, per event. */
export const ifttt: Sender = async (c, m, ctx) => {
  const key = need(c.password, 'webhook key');
  const events = list(setting(c, ctx, 'events'));
  if (!events.length) throw new SendError('the connection has no events');
  for (const event of events) {
    await send({
      url: `${apiBase(ctx, 'ifttt', 'https://maker.ifttt.com')}/trigger/${encodeURIComponent(event)}/with/key/${encodeURIComponent(key)}`,
      json: { value1: m.title, value2: plain(m.body), value3: m.link ?? '' },
    });
  }
};

/**
 * OpsGenie Alert API: POST /v2/alerts with a GenieKey; the alias groups repeats of one rule and
 * resource into one alert (OpsGenie de-duplicates by alias).
 */
export const opsgenie: Sender = async (c, m, ctx) => {
  const alias = setting(c, ctx, 'alias');
  await send({
    url: `${hostBase(c, 'api.opsgenie.com')}/v2/alerts`,
    headers: { Authorization: `GenieKey ${need(c.password, 'API key')}` },
    json: {
      message: cut(m.title, 130),
      description: cut(plain(m.body), 15_000),
      ...(alias ? { alias: cut(alias, 512) } : {}),
      source: 'Watchdeck',
      tags: [m.event],
      details: { event: m.event, ...(m.link ? { link: m.link } : {}) },
      priority: setting(c, ctx, 'priority') || (m.good ? 'P5' : 'P3'),
    },
  });
};

function headersOf(v: unknown): Record<string, string> {
  if (!v) return {};
  if (typeof v === 'object' && !Array.isArray(v))
    return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, String(x)]));
  if (typeof v === 'string') {
    const t = v.trim();
    if (t.startsWith('{')) {
      try {
        return headersOf(JSON.parse(t));
      } catch {
        throw new SendError('the webhook headers are not valid JSON');
      }
    }
    // one "Name: value" per line
    return Object.fromEntries(
      t
        .split('\n')
        .map((l) => l.split(/:(.*)/s).map((x) => x.trim()))
        .filter(([k, x]) => k && x !== undefined),
    );
  }
  return {};
}

/**
 * A generic webhook: the connection's URL, method (POST or GET), content type and headers; the
 * payload is {<title key>: title, <message key>: body} (GET: as query parameters). The
 * Idempotency-Key header carries the delivery key, so a receiver can drop a repeat.
 */
export const genericWebhook: Sender = async (c, m, ctx) => {
  const url = new URL(need(c.url, 'URL'));
  const method = (setting(c, ctx, 'requestMethod') || 'POST').toUpperCase();
  if (method !== 'POST' && method !== 'GET') throw new SendError(`request method ${method} is not POST or GET`);
  const payload: Record<string, string> = {
    [setting(c, ctx, 'titleKey') || 'title']: m.title,
    [setting(c, ctx, 'messageKey') || 'message']: m.body,
  };
  const headers: Record<string, string> = {
    ...headersOf(c.properties?.headers),
    ...headersOf(ctx.properties.headers),
    ...basicAuth(c.username, c.password),
    'Idempotency-Key': m.key,
  };
  if (method === 'GET') {
    for (const [k, v] of Object.entries(payload)) url.searchParams.set(k, v);
    await send({ url: url.toString(), headers, insecureTls: !!c.insecure_tls });
    return;
  }
  const contentType = setting(c, ctx, 'contentType') || 'application/json';
  const body = /json/i.test(contentType)
    ? JSON.stringify(payload)
    : /x-www-form-urlencoded/i.test(contentType)
      ? new URLSearchParams(payload).toString()
      : `${m.title}\n\n${m.body}`;
  await send({
    method: 'POST',
    url: url.toString(),
    headers: { ...headers, 'Content-Type': contentType },
    body,
    insecureTls: !!c.insecure_tls,
  });
};

/** An `email` connection: nodemailer through mail/ with the connection's SMTP server; To from properties.to. */
export const email: Sender = async (c, m, ctx) => {
  const to = need(prop(ctx.properties, 'to') || prop(c.properties, 'to'), 'recipient (properties.to)');
  await ctx.mailer.send(
    {
      to,
      subject: m.title,
      text: `${plain(m.body)}${m.link && !m.body.includes(m.link) ? `\n\n${m.link}` : ''}`,
      key: m.key,
    },
    c,
  );
};
