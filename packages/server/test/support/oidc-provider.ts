// A real OpenID Connect provider for the tests (the `oidc-provider` package, certified), on a
// local port: two users with group claims, this console as a confidential client, its own
// login and consent pages (the package's development interactions: any password is accepted,
// the login name picks the user). The server tests import it; the browser test runs it as a
// program (`node --import tsx oidc-provider.ts <console URL>`, packages/web/e2e/server.ts), which
// prints {issuer, clientId, clientSecret} as one JSON line once it listens.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const op = await startOidcProvider(process.argv[2]);
  process.stdout.write(
    `${JSON.stringify({ issuer: op.issuer, clientId: OIDC_CLIENT.id, clientSecret: OIDC_CLIENT.secret })}\n`,
  );
  process.on('SIGTERM', () => void op.close().then(() => process.exit(0)));
}
