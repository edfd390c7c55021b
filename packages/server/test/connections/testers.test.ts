import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import {
  testConnection,
  NotImplementedError,
  redactSecrets,
  type PlainConnection,
} from '#server/connections/testers/index.ts';
import { SecretBox } from '#server/connections/secret-box.ts';

// Real peers on this machine: PostgreSQL (TEST_DATABASE_URL), MariaDB and Redis when they answer,
// plus an HTTP listener and an SMTP server started here.
const conn = (c: Partial<PlainConnection> & { type: string }): PlainConnection => ({
  url: null,
  username: null,
  password: null,
  ...c,
});

describe('secret box', () => {
  it('encrypts with a fresh IV each time and decrypts back; a wrong key fails', () => {
    const box = new SecretBox('k1');
    const a = box.encrypt('hunter2');
    const b = box.encrypt('hunter2');
    expect(a).not.toBe(b);
    expect(a).not.toContain('hunter2');
    expect(SecretBox.isEncrypted(a)).toBe(true);
    expect(box.decrypt(a)).toBe('hunter2');
    expect(() => new SecretBox('k2').decrypt(a)).toThrow();
  });
});

describe('connection testers against real peers', () => {
  let http: Server;
  let httpUrl: string;
  let smtp: SMTPServer;
  let smtpPort: number;
  const received: unknown[] = [];

  beforeAll(async () => {
    http = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        if (req.url?.startsWith('/down')) return res.writeHead(503).end('maintenance');
        const json = (status: number, value: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(value));
        };
        if (req.url?.startsWith('/api/v1/query')) {
          return json(200, { status: 'success', data: { resultType: 'scalar', result: [0, '1'] } });
        }
        // Slack's auth.test and Telegram's getMe answer 200 with ok:false for a bad token.
        if (req.url === '/api/auth.test') {
          return json(
            200,
            req.headers.authorization === 'Bearer xoxb-good' ? { ok: true } : { ok: false, error: 'invalid_auth' },
          );
        }
        if (req.url?.startsWith('/botgood-token/getMe')) return json(200, { ok: true, result: { id: 1 } });
        if (req.url?.startsWith('/bot')) return json(401, { ok: false, description: 'Unauthorized' });
        if (req.method === 'POST')
          received.push({
            url: req.url,
            headers: req.headers,
            body: /json/.test(String(req.headers['content-type'])) ? JSON.parse(body) : body,
          });
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    httpUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    smtp = new SMTPServer({
      authOptional: false,
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      onAuth(auth, _s, cb) {
        if (auth.username === 'mailer' && auth.password === 'right') cb(null, { user: 'mailer' });
        else cb(new Error('Invalid username or password'));
      },
    });
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
    smtpPort = (smtp.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    http?.close();
    await new Promise<void>((r) => smtp?.close(r));
  });

  it('http: success, and the status in the message on failure', async () => {
    await expect(testConnection(conn({ type: 'http', url: httpUrl }))).resolves.toBeUndefined();
    await expect(testConnection(conn({ type: 'http', url: `${httpUrl}/down` }))).rejects.toThrow(/503/);
    await expect(testConnection(conn({ type: 'http', url: 'http://127.0.0.1:1' }))).rejects.toThrow();
  });

  it('prometheus: runs a query', async () => {
    await expect(testConnection(conn({ type: 'prometheus', url: httpUrl }))).resolves.toBeUndefined();
    await expect(testConnection(conn({ type: 'prometheus', url: `${httpUrl}/down` }))).rejects.toThrow(
      /answered 503|Prometheus/,
    );
  });

  it('slack checks the bot token with auth.test; telegram with getMe', async () => {
    await expect(
      testConnection(conn({ type: 'slack', url: httpUrl, username: 'C123', password: 'xoxb-good' })),
    ).resolves.toBeUndefined();
    await expect(
      testConnection(conn({ type: 'slack', url: httpUrl, username: 'C123', password: 'xoxb-bad' })),
    ).rejects.toThrow(/invalid_auth/);
    await expect(
      testConnection(conn({ type: 'telegram', url: httpUrl, username: '@ops', password: 'good-token' })),
    ).resolves.toBeUndefined();
    await expect(
      testConnection(conn({ type: 'telegram', url: httpUrl, username: '@ops', password: 'bad-token' })),
    ).rejects.toThrow(/Unauthorized/);
  });

  it('webhook services post a test message where the field list puts the secret', async () => {
    // Discord: the webhook URL is the secret (password column).
    await testConnection(conn({ type: 'discord', password: `${httpUrl}/api/webhooks/1/tok` }));
    expect(received).toContainEqual(
      expect.objectContaining({ url: '/api/webhooks/1/tok', body: { content: 'Watchdeck connection test' } }),
    );
    // Mattermost: url from the host, the hook token in password.
    await testConnection(
      conn({ type: 'mattermost', url: httpUrl, password: 'hooktoken', properties: { channel: 'ops' } }),
    );
    expect(received).toContainEqual(
      expect.objectContaining({ url: '/hooks/hooktoken', body: { text: 'Watchdeck connection test', channel: 'ops' } }),
    );
    // Generic webhook: message and title keys from the properties.
    await testConnection(
      conn({
        type: 'generic_webhook',
        url: `${httpUrl}/generic`,
        properties: { messageKey: 'msg', titleKey: 'subject' },
      }),
    );
    expect(received).toContainEqual(
      expect.objectContaining({ url: '/generic', body: { msg: 'Watchdeck connection test', subject: 'Watchdeck' } }),
    );
    await expect(testConnection(conn({ type: 'generic_webhook', url: `${httpUrl}/down` }))).rejects.toThrow(
      /503: maintenance/,
    );
    await expect(
      testConnection(conn({ type: 'teams', url: `${httpUrl}/down`, password: 'alt', properties: { groupOwner: 'o' } })),
    ).rejects.toThrow(/503/);
  });

  it('never tests with a value that lives in a Kubernetes secret or config map', async () => {
    const err = await testConnection(
      conn({
        type: 'postgres',
        url: 'postgres://127.0.0.1:5432/postgres',
        username: 'postgres',
        password: 'secret://db-creds/password',
      }),
    ).catch((e) => e);
    expect(err).toBeInstanceOf(NotImplementedError);
    expect(String(err.message)).toMatch(/Kubernetes secret/);
    await expect(
      testConnection(conn({ type: 'http', url: httpUrl, username: 'configmap://cfg/user' })),
    ).rejects.toBeInstanceOf(NotImplementedError);
  });

  it('redacts every secret of the connection from a message', () => {
    const c = conn({
      type: 'discord',
      password: 'https://discord.example/api/webhooks/1/s3cr3t-t0ken',
      certificate: '-----BEGIN KEY-----abc',
    });
    expect(redactSecrets(`POST ${c.password} failed; key -----BEGIN KEY-----abc`, c)).toBe(
      'POST ******** failed; key ********',
    );
    const u = conn({ type: 'postgres', url: 'postgres://u:p%40ss-w0rd@h/db' });
    expect(redactSecrets('auth failed for p@ss-w0rd', u)).toBe('auth failed for ********');
  });

  it('smtp: authenticates against a real SMTP server', async () => {
    const url = `smtp://127.0.0.1:${smtpPort}`;
    await expect(
      testConnection(conn({ type: 'email', url, username: 'mailer', password: 'right' })),
    ).resolves.toBeUndefined();
    await expect(testConnection(conn({ type: 'email', url, username: 'mailer', password: 'wrong' }))).rejects.toThrow(
      /Invalid username or password/,
    );
  });

  it.runIf(!!process.env.TEST_DATABASE_URL)(
    'postgres: connects and runs SELECT 1; a bad database is named',
    async () => {
      await expect(
        testConnection(conn({ type: 'postgres', url: process.env.TEST_DATABASE_URL! })),
      ).resolves.toBeUndefined();
      const bad = new URL(process.env.TEST_DATABASE_URL!);
      bad.pathname = '/no_such_database_here';
      await expect(testConnection(conn({ type: 'postgres', url: bad.toString() }))).rejects.toThrow(
        /no_such_database_here/,
      );
    },
  );

  it('redis: PING on the local server; a closed port fails', async () => {
    const up = await testConnection(conn({ type: 'redis', url: 'redis://127.0.0.1:6379' })).then(
      () => true,
      (e) => e,
    );
    if (up !== true && /ECONNREFUSED/.test(String(up))) return; // no local Redis on this machine
    expect(up).toBe(true);
    await expect(testConnection(conn({ type: 'redis', url: 'redis://127.0.0.1:1' }))).rejects.toThrow();
  });

  it('mysql: SELECT 1 on the local MariaDB; a wrong password is refused', async () => {
    const up = await testConnection(conn({ type: 'mysql', url: 'mysql://root@127.0.0.1:3306/mysql' })).then(
      () => true,
      (e) => e,
    );
    if (up !== true && /ECONNREFUSED/.test(String(up))) return; // no local MariaDB on this machine
    expect(up).toBe(true);
    await expect(
      testConnection(conn({ type: 'mysql', url: 'mysql://nobody:wrong@127.0.0.1:3306/mysql' })),
    ).rejects.toThrow(/Access denied/);
  });

  it('sftp: an unreachable server fails with a message', async () => {
    await expect(
      testConnection(conn({ type: 'sftp', url: 'sftp://127.0.0.1:1/', username: 'u', password: 'p' })),
    ).rejects.toThrow(/ECONNREFUSED/);
  });

  it('types without a tester are not implemented', async () => {
    await expect(testConnection(conn({ type: 'ldap', url: 'ldap://x' }))).rejects.toBeInstanceOf(NotImplementedError);
  });
});
