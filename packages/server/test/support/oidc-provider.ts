// A real OpenID Connect provider for the tests (the `oidc-provider` package, certified), on a
// local port: two users with group claims, this console as a confidential client, its own
// login and consent pages (the package's development interactions: any password is accepted,
// the login name picks the user). The server tests import it; the browser test runs it as a
// program (`node --import tsx oidc-provider.ts <console URL>`, packages/web/e2e/server.ts), which
// prints {issuer, clientId, clientSecret} as one JSON line once it listens.
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import Provider from 'oidc-provider';

interface TestUser {
  email: string;
  email_verified: boolean;
  given_name: string;
  family_name: string;
  groups: string[];
}

const OIDC_USERS: Record<string, TestUser> = {
  alice: {
    email: 'alice@example.com',
    email_verified: true,
    given_name: 'Alice',
    family_name: 'Admin',
    groups: ['wd-admins', 'staff'],
  },
  bob: { email: 'bob@example.com', email_verified: true, given_name: 'Bob', family_name: 'Builder', groups: ['staff'] },
};

export const OIDC_CLIENT = { id: 'watchdeck', secret: randomBytes(24).toString('hex') };

export interface StartedProvider {
  issuer: string;
  provider: Provider;
  close(): Promise<void>;
}

/**
 * Starts the provider on a free port of 127.0.0.1. `publicUrl` is the console's address: its
 * callback and post-logout addresses are the registered ones.
 */
export async function startOidcProvider(publicUrl: string): Promise<StartedProvider> {
  // the port first: the issuer URL names it
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: 'jwk' }), use: 'sig', alg: 'RS256', kid: 'test' };

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: OIDC_CLIENT.id,
        client_secret: OIDC_CLIENT.secret,
        redirect_uris: [`${publicUrl}/api/auth/oidc/callback`],
        post_logout_redirect_uris: [`${publicUrl}/login`],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
      },
    ],
    jwks: { keys: [jwk as never] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    // groups travel with the profile scope, so the console's default scopes see them
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name', 'groups'],
    },
    async findAccount(_ctx, id) {
      const user = OIDC_USERS[id];
      if (!user) return undefined;
      return {
        accountId: id,
        async claims() {
          return { sub: id, name: `${user.given_name} ${user.family_name}`, ...user };
        },
      };
    },
    features: {
      devInteractions: { enabled: true },
      rpInitiatedLogout: { enabled: true },
      revocation: { enabled: true },
    },
    pkce: { required: () => true },
    // like most hosted providers: a refresh token without asking for offline_access, rotated on use
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    ttl: { AccessToken: 3600, IdToken: 3600, RefreshToken: 86400, Grant: 86400, Session: 86400, Interaction: 600 },
  });
  // the package warns about development-only settings on every start; the tests know
  provider.on('server_error', (_ctx, err) => console.error('oidc-provider:', err));
  server.on('request', provider.callback());
  return {
    issuer,
    provider,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// ---- a browser for the server tests: one cookie jar following redirects through both servers ----

/** A free port of 127.0.0.1 (the console's address must be known before the provider starts). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createNetServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/**
 * One browser: cookies by name and path (both servers are 127.0.0.1, and cookies do not tell
 * ports apart, so like a real browser it shows each server every cookie whose path fits).
 */
export class Jar {
  private cookies = new Map<string, { value: string; path: string }>();

  cookie(name: string) {
    return this.cookies.get(name)?.value;
  }

  async fetch(url: string, init: { method?: string; body?: URLSearchParams; headers?: Record<string, string> } = {}) {
    const u = new URL(url);
    const cookie = [...this.cookies]
      .filter(([, c]) => u.pathname.startsWith(c.path))
      .map(([k, c]) => `${k}=${c.value}`)
      .join('; ');
    const res = await fetch(url, {
      method: init.method ?? 'GET',
      body: init.body,
      headers: { accept: 'text/html', ...(cookie ? { cookie } : {}), ...init.headers },
      redirect: 'manual',
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const path = attrs.map((a) => /^\s*path=(.*)$/i.exec(a)?.[1]).find(Boolean) ?? '/';
      const expired = attrs.some(
        (a) =>
          /^\s*max-age=0/i.test(a) || (/^\s*expires=/i.test(a) && new Date(a.split('=')[1]).getTime() < Date.now()),
      );
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, { value, path });
    }
    return { status: res.status, location: res.headers.get('location'), text: await res.text(), url };
  }
}

interface Hooks {
  /** may rewrite the authorization request on its way to the provider */
  authorize?: (url: URL) => URL;
  /** may rewrite the provider's answer on its way back to the console */
  callback?: (url: URL) => URL;
}

/**
 * Signs in as `login` from the console's /login, following redirects and filling the
 * provider's login and consent forms. Answers the last response (the console's redirect target
 * or a refusal) with the path it ended at.
 */
export async function signIn(jar: Jar, base: string, issuer: string, login: string, hooks: Hooks = {}) {
  let res = await jar.fetch(`${base}/api/auth/self-service/login/browser?return_to=%2Fhealth`);
  for (let hop = 0; hop < 20; hop++) {
    if (res.status >= 300 && res.status < 400 && res.location) {
      let next = new URL(res.location, res.url);
      if (next.origin === base && !next.pathname.startsWith('/api/')) return { ...res, path: next.pathname };
      if (next.origin === issuer && next.searchParams.has('client_id') && hooks.authorize) next = hooks.authorize(next);
      if (next.pathname === '/api/auth/oidc/callback' && hooks.callback) next = hooks.callback(next);
      res = await jar.fetch(next.toString());
      continue;
    }
    if (res.status === 200 && res.url.startsWith(issuer)) {
      const action = /<form[^>]*action="([^"]+)"/.exec(res.text)?.[1];
      const prompt = /name="prompt" value="(\w+)"/.exec(res.text)?.[1];
      if (!action || !prompt) throw new Error(`unexpected provider page: ${res.text.slice(0, 300)}`);
      const body = new URLSearchParams({ prompt });
      if (prompt === 'login') {
        body.set('login', login);
        body.set('password', 'any password');
      }
      res = await jar.fetch(new URL(action, res.url).toString(), {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      continue;
    }
    return { ...res, path: new URL(res.url).pathname };
  }
  throw new Error('too many redirects');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const op = await startOidcProvider(process.argv[2]);
  process.stdout.write(
    `${JSON.stringify({ issuer: op.issuer, clientId: OIDC_CLIENT.id, clientSecret: OIDC_CLIENT.secret })}\n`,
  );
  process.on('SIGTERM', () => void op.close().then(() => process.exit(0)));
}
