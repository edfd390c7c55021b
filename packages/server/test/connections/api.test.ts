/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import mysql from 'mysql2/promise';
import {
  CONNECTION_TYPE_DEFS,
  SECRET_MASK,
  connectionFields,
  connectionToRow,
  connectionTypeDef,
  rowToConnectionValues,
  type ConnectionTypeDef,
  type ConnectionValues,
} from '@watchdeck/core';
import { testDrivers } from '../support/db.ts';
import { Browser, startLoggedApp, type Res, type TestApp } from '../auth/support.ts';
import { SecretBox } from '#server/connections/secret-box.ts';

// Connections through the real API: /api/db writes and reads (encryption at rest, masking,
// validation) and POST /api/connection/test/:id against real peers on this machine: PostgreSQL,
// MariaDB and Redis when they answer, an HTTP listener and an SMTP server started here.

const SECRET_KEY = 'connections-api-test-key-0123456789';
const PG_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

/** Seed 002 section 3: every connection type, notification type and other type; seed 001's responder systems. */
const SEED_TYPES = [
  'postgres',
  'mysql',
  'sql_server',
  'http',
  'prometheus',
  'elasticsearch',
  'mongo',
  'ldap',
  'redis',
  'windows',
  'google_cloud',
  'gcs',
  'sftp',
  'aws',
  's3',
  'kubernetes',
  'azure_devops',
  'azure',
  'github',
  'gitlab',
  'restic',
  'smb',
  'jmeter',
  'dynatrace',
  'discord',
  'email',
  'google_chat',
  'ifttt',
  'mattermost',
  'matrix',
  'ntfy',
  'opsgenie',
  'pushbullet',
  'pushover',
  'rocketchat',
  'slack',
  'teams',
  'telegram',
  'zulip_chat',
  'generic_webhook',
  'folder',
  'git',
  // seed 001: the ticket systems of incident responders (the case systems share case_webhook)
  'jira',
  'service_now',
  'ms_planner',
  'case_webhook',
];

/** A value for every field of a type; secrets are unique, recognisable strings. */
function sampleValues(def: ConnectionTypeDef, tag: string): ConnectionValues {
  const v: ConnectionValues = {};
  for (const f of connectionFields(def)) {
    if (f.key === 'name') v.name = `${def.type}-${tag}`;
    else if (f.key === 'namespace') v.namespace = 'ops';
    else if (f.kind === 'checkbox') v[f.key] = true;
    else if (f.kind === 'number') v[f.key] = 1234;
    else if (f.kind === 'select') v[f.key] = f.options![f.options!.length - 1];
    else if (f.kind === 'secret') v[f.key] = `S3CRET-${def.type}-${f.key}-${tag}`;
    else if (f.column === 'url') v[f.key] = `https://${def.type}.example.test/path`;
    else v[f.key] = `${f.key}-${tag}`;
  }
  return v;
}

const secretsOf = (def: ConnectionTypeDef, v: ConnectionValues) =>
  def.fields.filter((f) => f.kind === 'secret').map((f) => String(v[f.key]));

for (const driver of testDrivers()) {
  describe(`connections API (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    let t: TestApp;
    let api: Browser;
    let http: Server;
    let httpUrl: string;
    let smtp: SMTPServer;
    let smtpPort: number;
    const box = new SecretBox(SECRET_KEY);
    /** every answer of the API in this suite, for the never-leaks check */
    const answers: string[] = [];
    /** every secret stored in this suite */
    const secrets: string[] = [];

    const record = (r: Res) => {
      answers.push(
        `${JSON.stringify([...r.headers])}\n${typeof r.body === 'string' ? r.body : JSON.stringify(r.body)}`,
      );
      return r;
    };
    const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      record(await api.request(method, path, body, headers));
    const create = (row: unknown) => call('POST', '/api/db/connections', row, { prefer: 'return=representation' });
    const stored = async (id: string) =>
      (
        await db.query<any>(`SELECT url, username, password, certificate, properties FROM connections WHERE id = $1`, [
          id,
        ])
      ).rows[0];
    const testConn = (id: string) => call('POST', `/api/connection/test/${id}`);

    beforeAll(async () => {
      db = await driver.open();
      t = await startLoggedApp(db, { authMode: 'none', logLevel: 'trace', secretKey: SECRET_KEY });
      api = new Browser(t.url);
      http = createServer((req, res) => {
        let body = '';
        req.on('data', (d) => (body += d));
        req.on('end', () => {
          if (req.url === '/down') return res.writeHead(503).end('maintenance');
          // A peer that repeats the credentials it got in its error: the API must not pass them on.
          if (req.url === '/echo') {
            const auth = Buffer.from(
              String(req.headers.authorization ?? '').replace(/^Basic /, ''),
              'base64',
            ).toString();
            return res.writeHead(401).end(`rejected credentials ${auth} for body ${body}`);
          }
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
          if (auth.username === 'mailer' && auth.password === 'smtp-right-pass') cb(null, { user: 'mailer' });
          else cb(new Error('Invalid username or password'));
        },
      });
      await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
      smtpPort = (smtp.server.address() as AddressInfo).port;
    });
    afterAll(async () => {
      await t?.app.close();
      await db?.dispose();
      http?.close();
      await new Promise<void>((r) => (smtp ? smtp.close(r) : r()));
    });

    it('knows every connection type of the seeds and no other', () => {
      expect(CONNECTION_TYPE_DEFS.map((d) => d.type).sort()).toEqual([...SEED_TYPES].sort());
      expect(connectionTypeDef('jmeter')?.hidden).toBe(true);
      // secrets only in the encrypted, masked columns
      for (const d of CONNECTION_TYPE_DEFS) {
        for (const f of d.fields.filter((x) => x.kind === 'secret'))
          expect(['password', 'certificate']).toContain(f.column);
      }
    });

    it('stores every type with its fields: secrets encrypted at rest, masked on every read', async () => {
      for (const def of CONNECTION_TYPE_DEFS) {
        const values = sampleValues(def, 'all');
        const row = connectionToRow(def, values);
        secrets.push(...secretsOf(def, values));
        const created = await create(row);
        expect(created.status, `${def.type}: ${JSON.stringify(created.body)}`).toBe(201);
        const back = created.body[0];
        for (const col of ['password', 'certificate'] as const) expect(back[col]).toBe(row[col] ? SECRET_MASK : null);

        const read = await call('GET', `/api/db/connections?id=eq.${back.id}&select=*`);
        expect(read.status).toBe(200);
        const got = read.body[0];
        // the form gets every non-secret value back as it was entered
        const expected = { ...values };
        for (const f of def.fields) if (f.kind === 'secret') expected[f.key] = SECRET_MASK;
        expect(rowToConnectionValues(def, got), def.type).toEqual(expected);
        expect(got.url).toBe(row.url);

        const raw = await stored(back.id);
        for (const col of ['password', 'certificate'] as const) {
          if (!row[col]) continue;
          expect(SecretBox.isEncrypted(raw[col])).toBe(true);
          expect(raw[col]).not.toContain(row[col]);
          expect(box.decrypt(raw[col])).toBe(row[col]);
        }
      }
    });

    it('answers bad input with a 400 naming the field, never a 500', async () => {
      const pg = connectionTypeDef('postgres')!;
      const base = connectionToRow(pg, {
        name: 'bad',
        namespace: 'default',
        url: 'postgres://db:5432/x',
        username: 'u',
        password: 'p',
      });

      const noUrl = await create({ ...base, url: null });
      expect(noUrl.status).toBe(400);
      expect(noUrl.body.message).toBe('url: This field is required (URL)');

      const noName = await create({ ...base, name: '  ' });
      expect(noName.status).toBe(400);
      expect(noName.body.message).toBe('name: This field is required');

      const email = connectionTypeDef('email')!;
      const noHost = await create(
        connectionToRow(email, {
          name: 'mail',
          namespace: 'default',
          port: 587,
          encryptionMethod: 'Auto',
          authMethod: 'Unknown',
          from: 'a@b.c',
        }),
      );
      expect(noHost.status).toBe(400);
      expect(noHost.body.message).toMatch(/^properties\.host: This field is required/);

      expect((await create({ ...base, type: 'carrier_pigeon' })).body.message).toBe(
        "type: unknown connection type 'carrier_pigeon'",
      );
      // the mask read back from the API is no new secret
      expect((await create({ ...base, password: SECRET_MASK })).body.message).toBe(
        'password: This field is required (Password)',
      );
      const embedded = await create({ ...base, url: 'postgres://u:hunter2@db:5432/x' });
      expect(embedded.status).toBe(400);
      expect(embedded.body.message).toMatch(/^url: put the password in the password field/);
      const badRef = await create({ ...base, password: 'secret://only-a-name' });
      expect(badRef.status).toBe(400);
      expect(badRef.body.message).toMatch(/secret:\/\/<name>\/<key>/);
      expect((await create({ ...base, properties: [1, 2] })).status).toBe(400);
      expect((await create({ ...base, insecure_tls: 'yes' })).status).toBe(400);

      // every problem is listed
      const many = await create({ ...base, url: null, password: null, username: null });
      expect(many.status).toBe(400);
      expect(many.body.details).toContain('password: This field is required (Password)');

      const ok = await create(base);
      expect(ok.status).toBe(201);
      const dup = await create(base);
      expect(dup.status).toBe(409);
      const rename = await call('PATCH', `/api/db/connections?id=eq.${ok.body[0].id}`, { name: '' });
      expect(rename.status).toBe(400);
    });

    it('keeps a secret not sent on update, and encrypts a new one', async () => {
      const http = connectionTypeDef('http')!;
      const created = await create(
        connectionToRow(http, {
          name: 'keep',
          namespace: 'default',
          url: httpUrl,
          username: 'ann',
          password: 'first-pass-1',
        }),
      );
      const id = created.body[0].id;
      secrets.push('first-pass-1', 'second-pass-2');
      expect(
        (await call('PATCH', `/api/db/connections?id=eq.${id}`, { name: 'kept', insecure_tls: true })).status,
      ).toBe(204);
      expect(box.decrypt((await stored(id)).password)).toBe('first-pass-1');
      // a form that sends back what it read (the mask) keeps the stored secret as well
      expect(
        (await call('PATCH', `/api/db/connections?id=eq.${id}`, { name: 'kept', password: SECRET_MASK })).status,
      ).toBeLessThan(300);
      expect(box.decrypt((await stored(id)).password)).toBe('first-pass-1');
      const patched = await call(
        'PATCH',
        `/api/db/connections?id=eq.${id}`,
        { password: 'second-pass-2' },
        { prefer: 'return=representation' },
      );
      expect(patched.body[0].password).toBe(SECRET_MASK);
      expect(box.decrypt((await stored(id)).password)).toBe('second-pass-2');
      // soft delete, as the list does it; a deleted connection cannot be tested
      expect(
        (await call('PATCH', `/api/db/connections?id=eq.${id}`, { deleted_at: new Date().toISOString() })).status,
      ).toBe(204);
      expect((await testConn(id)).status).toBe(404);
    });

    it('stores a reference to a Kubernetes secret or config map as given, and does not test with it', async () => {
      const pg = connectionTypeDef('postgres')!;
      const created = await create(
        connectionToRow(pg, {
          name: 'ref',
          namespace: 'default',
          url: PG_URL,
          username: 'configmap://db-config/user',
          password: 'secret://db-creds/password',
        }),
      );
      expect(created.status).toBe(201);
      expect(created.body[0].username).toBe('configmap://db-config/user');
      expect(created.body[0].password).toBe(SECRET_MASK);
      expect(box.decrypt((await stored(created.body[0].id)).password)).toBe('secret://db-creds/password');
      const tested = await testConn(created.body[0].id);
      expect(tested.status).toBe(501);
      expect(tested.body.error).toMatch(/Kubernetes secret, config map or Helm release/);
    });

    it('tests connections against real peers: success, refusal, not implemented', async () => {
      const make = async (type: string, values: ConnectionValues) => {
        const r = await create(connectionToRow(connectionTypeDef(type)!, { namespace: 'default', ...values }));
        expect(r.status, JSON.stringify(r.body)).toBe(201);
        return r.body[0].id as string;
      };
      const pgUser = new URL(PG_URL).username || 'postgres';
      const pgOk = await make('postgres', {
        name: 'pg-ok',
        url: PG_URL.replace(`${pgUser}@`, ''),
        username: pgUser,
        password: 'unused-by-trust',
      });
      expect((await testConn(pgOk)).body).toEqual({ message: 'ok' });
      const missing = new URL(PG_URL);
      missing.pathname = '/no_such_database_here';
      const pgBad = await make('postgres', {
        name: 'pg-bad',
        url: missing.toString(),
        username: pgUser,
        password: 'x',
      });
      const bad = await testConn(pgBad);
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatch(/no_such_database_here/);

      const httpOk = await make('http', { name: 'http-ok', url: httpUrl });
      expect((await testConn(httpOk)).status).toBe(200);
      const httpDown = await make('http', { name: 'http-down', url: `${httpUrl}/down` });
      expect(await testConn(httpDown).then((r) => [r.status, r.body.error])).toEqual([400, 'the server answered 503']);

      const mailOk = await make('email', {
        name: 'mail-ok',
        host: '127.0.0.1',
        port: smtpPort,
        encryptionMethod: 'Auto',
        authMethod: 'Plain',
        username: 'mailer',
        password: 'smtp-right-pass',
        from: 'ops@example.com',
      });
      secrets.push('smtp-right-pass');
      expect((await testConn(mailOk)).body).toEqual({ message: 'ok' });
      const mailBad = await make('email', {
        name: 'mail-bad',
        host: '127.0.0.1',
        port: smtpPort,
        encryptionMethod: 'None',
        authMethod: 'Unknown',
        username: 'mailer',
        password: 'smtp-wrong-pass',
        from: 'ops@example.com',
      });
      secrets.push('smtp-wrong-pass');
      const refusedMail = await testConn(mailBad);
      expect(refusedMail.status).toBe(400);
      expect(refusedMail.body.error).toMatch(/Invalid username or password/);

      const ldap = await make('ldap', {
        name: 'ldap',
        url: 'ldap://127.0.0.1:389',
        username: 'cn=admin',
        password: 'ldap-pass-9',
      });
      secrets.push('ldap-pass-9');
      const notImpl = await testConn(ldap);
      expect(notImpl.status).toBe(501);
      expect(notImpl.body.error).toBe('testing ldap connections is not implemented');

      expect((await testConn('00000000-0000-4000-8000-000000000000')).status).toBe(404);
      expect((await testConn('not-a-uuid')).status).toBe(400);
    });

    it('tests MariaDB and Redis on this machine when they run', async () => {
      const mk = async (type: string, values: ConnectionValues) =>
        (await create(connectionToRow(connectionTypeDef(type)!, { namespace: 'default', ...values }))).body[0]
          .id as string;
      // A user with a password of its own (the field list requires one), dropped afterwards.
      const root = await mysql.createConnection({ uri: 'mysql://root@127.0.0.1:3306/mysql' }).catch(() => null);
      if (root) {
        const user = `wd_${process.pid}_${driver.name}`;
        try {
          await root.query(`CREATE USER IF NOT EXISTS '${user}'@'%' IDENTIFIED BY 'maria-right-pass'`);
          secrets.push('maria-right-pass', 'maria-wrong-pass');
          const ok = await mk('mysql', {
            name: 'maria-ok',
            url: 'mysql://127.0.0.1:3306/',
            username: user,
            password: 'maria-right-pass',
          });
          expect((await testConn(ok)).body).toEqual({ message: 'ok' });
          const wrong = await mk('mysql', {
            name: 'maria-wrong',
            url: 'mysql://127.0.0.1:3306/',
            username: user,
            password: 'maria-wrong-pass',
          });
          const w = await testConn(wrong);
          expect(w.status).toBe(400);
          expect(w.body.error).toMatch(/Access denied/);
        } finally {
          await root.query(`DROP USER IF EXISTS '${user}'@'%'`);
          await root.end();
        }
      }
      const redis = await mk('redis', { name: 'redis', url: 'redis://127.0.0.1:6379', db: 0 });
      const r = await testConn(redis);
      if (!(r.status === 400 && /ECONNREFUSED/.test(r.body.error))) expect(r.body).toEqual({ message: 'ok' });
      const closed = await mk('redis', { name: 'redis-closed', url: 'redis://127.0.0.1:1', db: 0 });
      expect((await testConn(closed)).status).toBe(400);
    });

    it('refuses to filter or sort on a secret, which could reveal it one character at a time', async () => {
      // a row written with SQL (not through the API) holds its password in clear
      const pg = connectionTypeDef('postgres')!;
      const made = await create(
        connectionToRow(pg, {
          name: 'sql-written',
          namespace: 'default',
          url: PG_URL,
          username: 'u',
          password: 'placeholder',
        }),
      );
      await db.query(`UPDATE connections SET password = 'plain-Sekret' WHERE id = $1`, [made.body[0].id]);
      for (const query of [
        'password=like.plain*',
        'password=eq.plain-Sekret',
        'password=not.like.x*',
        'certificate=like.*',
        'or=(name.eq.x,password.like.p*)',
        'and=(name.eq.sql-written,password.not.like.a*)',
        'order=name.asc,password.desc',
        'order=certificate',
      ]) {
        const r = await call('GET', `/api/db/connections?select=id&${query}`);
        expect(r.status, query).toBe(400);
        expect(r.body.message).toMatch(/secret/);
      }
      // whether one is set can be asked
      const set = await call('GET', `/api/db/connections?select=id&id=eq.${made.body[0].id}&password=not.is.null`);
      expect(set.body).toEqual([{ id: made.body[0].id }]);
      // embedded connections too
      const embedded = await call('GET', '/api/db/people?select=id,connections(id)&connections.password=like.p*');
      expect(embedded.status).toBe(400);
      // values that merely contain the word are fine
      const ok = await call(
        'GET',
        `/api/db/connections?select=id,password&or=(name.eq.password,name.eq.sql-written)&order=name`,
      );
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual([{ id: made.body[0].id, password: SECRET_MASK }]);
      await db.query(`DELETE FROM connections WHERE id = $1`, [made.body[0].id]);
    });

    it('a secret never appears in any API response or log line', async () => {
      const hook = connectionTypeDef('generic_webhook')!;
      const echo = await create(
        connectionToRow(hook, {
          name: 'echo',
          namespace: 'default',
          url: `${httpUrl}/echo`,
          requestMethod: 'POST',
          messageKey: 'message',
          titleKey: 'title',
          username: 'svc',
          password: 'echoed-secret-77',
        }),
      );
      secrets.push('echoed-secret-77');
      const echoed = await testConn(echo.body[0].id);
      expect(echoed.status).toBe(400);
      expect(echoed.body.error).toMatch(/rejected credentials svc:\*{8}/);
      const discord = connectionTypeDef('discord')!;
      const dead = await create(
        connectionToRow(discord, {
          name: 'dead-hook',
          namespace: 'default',
          password: 'http://127.0.0.1:1/api/webhooks/9/discord-token-secret',
        }),
      );
      secrets.push('http://127.0.0.1:1/api/webhooks/9/discord-token-secret', 'discord-token-secret');
      expect((await testConn(dead.body[0].id)).status).toBe(400);

      // every way of reading a connection
      for (const path of [
        '/api/db/connections',
        '/api/db/connections?select=*',
        '/api/db/connections?select=password,certificate',
        '/api/db/connections?select=password::text,pw:password,certificate::text',
        '/api/db/connections?select=id,created_by(id,name)&order=name.desc',
      ]) {
        const r = await call('GET', path);
        expect(r.status, path).toBe(200);
      }
      expect(
        (await call('GET', '/api/db/connections?select=name,password', undefined, { accept: 'text/csv' })).status,
      ).toBe(200);
      expect(
        (
          await call('GET', `/api/db/connections?id=eq.${echo.body[0].id}`, undefined, {
            accept: 'application/vnd.pgrst.object+json',
          })
        ).status,
      ).toBe(200);

      expect(secrets.length).toBeGreaterThan(40);
      const logText = t.logs.join('');
      // the log capture works: requests and the failed tests are in it
      expect(logText).toContain('/api/connection/test/');
      expect(logText).toContain('connection test failed');
      for (const s of secrets) {
        for (const a of answers) expect(a.includes(s), `answer leaks ${s}`).toBe(false);
        expect(logText.includes(s), `log leaks ${s}`).toBe(false);
      }
    });
  });
}
