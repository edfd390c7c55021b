/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { Writable } from 'node:stream';
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '#server/app.ts';
import { loadConfig, type Config } from '#server/config.ts';
import type { Db } from '#server/db/index.ts';

/** Helpers for the auth tests: a browser-like client, a real SMTP peer, captured logs, a key. */

// ---- app with captured logs -----------------------------------------------------------------

export interface TestApp {
  app: FastifyInstance;
  url: string;
  /** every JSON log line written so far */
  logs: string[];
}

export async function startLoggedApp(db: Db, overrides: Partial<Config> = {}): Promise<TestApp> {
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _enc, cb) {
      logs.push(String(chunk));
      cb();
    },
  });
  const config = { ...loadConfig({ LOG_LEVEL: 'info' }), ...overrides };
  const app = await buildApp({ config, db, logStream });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url, logs };
}

// ---- a browser: cookie jar + JSON fetch ------------------------------------------------------

export interface Res<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export class Browser {
  readonly cookies = new Map<string, string>();
  readonly setCookieLines: string[] = [];
  constructor(readonly base: string) {}

  async request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Res<T>> {
    // Browsers send their Origin with every POST/PUT/PATCH/DELETE (the server's CSRF check reads it).
    const origin: Record<string, string> =
      method === 'GET' || method === 'HEAD' ? {} : { origin: new URL(this.base).origin };
    const h: Record<string, string> = { accept: 'application/json', ...origin, ...headers };
    if (this.cookies.size) h.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (body !== undefined) h['content-type'] = 'application/json';
    const res = await fetch(this.base + path, {
      method,
      headers: h,
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
    });
    for (const line of res.headers.getSetCookie()) {
      this.setCookieLines.push(line);
      const [pair, ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some(
        (a) =>
          /^\s*max-age=0/i.test(a) || (/^\s*expires=/i.test(a) && new Date(a.split('=')[1]).getTime() < Date.now()),
      );
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  }
  get<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>('GET', path, undefined, headers);
  }
  post<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('POST', path, body ?? {}, headers);
  }
  patch<T = any>(path: string, body?: unknown) {
    return this.request<T>('PATCH', path, body ?? {});
  }
  delete<T = any>(path: string) {
    return this.request<T>('DELETE', path);
  }

  /** Creates a flow and returns it (asserting 200). */
  async flow(type: string, query = ''): Promise<any> {
    const r = await this.get(`/api/auth/self-service/${type}/browser${query}`);
    if (r.status !== 200) throw new Error(`creating ${type} flow: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  }

  /** Submits a flow with its own CSRF token plus the given values. */
  submit(type: string, flow: any, values: Record<string, unknown>) {
    return this.post(`/api/auth/self-service/${type}?flow=${flow.id}`, { csrf_token: csrfOf(flow), ...values });
  }

  async login(email: string, password: string): Promise<Res> {
    const f = await this.flow('login');
    return this.submit('login', f, { method: 'password', identifier: email, password });
  }
}

export function csrfOf(flow: any): string {
  return flow.ui.nodes.find((n: any) => n.attributes.name === 'csrf_token').attributes.value;
}

export function node(flow: any, name: string): any {
  return flow.ui.nodes.find((n: any) => n.attributes.name === name || n.attributes.id === name);
}

// ---- a real SMTP peer -------------------------------------------------------------------------

export interface Mailbox {
  url: string;
  mails: { to: string[]; raw: string }[];
  /** waits for the next mail to `to` that arrived after `since` mails */
  next(to: string, since: number): Promise<string>;
  close(): Promise<void>;
}

export async function startMailbox(): Promise<Mailbox> {
  const mails: { to: string[]; raw: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, cb) {
      let raw = '';
      stream.on('data', (d) => (raw += d));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async next(to, since) {
      const deadline = Date.now() + 5000;
      while (Date.now() < deadline) {
        const m = mails.slice(since).find((x) => x.to.includes(to));
        if (m) return m.raw;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error(`no mail for ${to}`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The six-digit code on a line of its own in our account emails. */
export function codeFrom(raw: string): string {
  const m = /^\s*(\d{6})\s*$/m.exec(raw);
  if (!m) throw new Error(`no code in mail:\n${raw}`);
  return m[1];
}

// ---- a software WebAuthn authenticator (ES256, "none" attestation) ----------------------------

function cborHead(major: number, len: number): Buffer {
  if (len < 24) return Buffer.from([(major << 5) | len]);
  if (len < 256) return Buffer.from([(major << 5) | 24, len]);
  if (len < 65536) return Buffer.from([(major << 5) | 25, len >> 8, len & 0xff]);
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(len, 1);
  return b;
}

/** Just enough CBOR for attestation objects and COSE keys: ints, text, bytes, maps. */
function cbor(v: unknown): Buffer {
  if (typeof v === 'number') return v >= 0 ? cborHead(0, v) : cborHead(1, -1 - v);
  if (typeof v === 'string') {
    const b = Buffer.from(v, 'utf8');
    return Buffer.concat([cborHead(3, b.length), b]);
  }
  if (v instanceof Uint8Array) return Buffer.concat([cborHead(2, v.length), Buffer.from(v)]);
  if (v instanceof Map) {
    const parts = [cborHead(5, v.size)];
    for (const [k, val] of v) parts.push(cbor(k), cbor(val));
    return Buffer.concat(parts);
  }
  throw new Error(`cbor: unsupported ${typeof v}`);
}

const b64u = (b: Uint8Array) => Buffer.from(b).toString('base64url');
const sha = (b: Uint8Array | string) => createHash('sha256').update(b).digest();

export class SoftKey {
  readonly credentialId = randomBytes(32);
  private readonly privateKey: KeyObject;
  private readonly publicJwk: { x: string; y: string };
  private counter = 0;

  constructor() {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = privateKey;
    this.publicJwk = publicKey.export({ format: 'jwk' }) as { x: string; y: string };
  }

  get id() {
    return b64u(this.credentialId);
  }

  private cose(): Buffer {
    return cbor(
      new Map<number, unknown>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(this.publicJwk.x, 'base64url')],
        [-3, Buffer.from(this.publicJwk.y, 'base64url')],
      ]),
    );
  }

  /** navigator.credentials.create() as a browser would answer it, in RegistrationResponseJSON. */
  register(options: { challenge: string; rp: { id: string } }, origin: string) {
    const idLen = Buffer.alloc(2);
    idLen.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([
      sha(options.rp.id),
      Buffer.from([0x45]), // UP | UV | AT
      Buffer.alloc(4), // sign count 0
      Buffer.alloc(16), // aaguid
      idLen,
      this.credentialId,
      this.cose(),
    ]);
    const clientData = Buffer.from(
      JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin, crossOrigin: false }),
    );
    const attestationObject = cbor(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: { clientDataJSON: b64u(clientData), attestationObject: b64u(attestationObject), transports: ['usb'] },
      clientExtensionResults: {},
    };
  }

  /** navigator.credentials.get(): an assertion signed with the key, in AuthenticationResponseJSON. */
  assert(options: { challenge: string; rpId: string }, origin: string) {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(++this.counter);
    const authData = Buffer.concat([sha(options.rpId), Buffer.from([0x05]), count]);
    const clientData = Buffer.from(
      JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin, crossOrigin: false }),
    );
    const signature = sign('sha256', Buffer.concat([authData, sha(clientData)]), this.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: { clientDataJSON: b64u(clientData), authenticatorData: b64u(authData), signature: b64u(signature) },
      clientExtensionResults: {},
    };
  }
}
