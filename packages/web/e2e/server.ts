// Starts one real Watchdeck server (the built web app included) for browser tests: PGlite in a
// temporary directory, or a fresh PostgreSQL database when TEST_DATABASE_URL is set. `env` adds
// to or overrides the defaults (e.g. AUTH=kratos, SMTP_URL). stop() ends it and cleans up.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import pg from 'pg';

export interface StartedServer {
  baseUrl: string;
  /** the server's PostgreSQL database (only with TEST_DATABASE_URL; PGlite is in the server's process) */
  databaseUrl?: string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export async function startServer(env: NodeJS.ProcessEnv = {}): Promise<StartedServer> {
  // a given PORT is kept: an OpenID Connect provider registers the console's address before it starts
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'watchdeck-e2e-'));
  // The server gets its own copy of the built web app: another `npm run build` in the same
  // checkout (other suites, other people) empties dist/ and would pull pages from under a test.
  const webDir = join(dataDir, 'web');
  if (existsSync('packages/web/dist/index.html'))
    cpSync('packages/web/dist', webDir, { recursive: true, filter: (src) => !src.endsWith('.map') });
  const fullEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    WATCHDECK_DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    // invitation links are built from the request's host only when it is listed (README "Security")
    WATCHDECK_ALLOWED_HOSTS: '127.0.0.1',
    ...(existsSync(webDir) ? { WATCHDECK_WEB_DIR: webDir } : {}),
    ...env,
  };
  delete fullEnv.DATABASE_URL;
  let dbName: string | undefined;
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    dbName = `watchdeck_e2e_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${dbName}`;
    fullEnv.DATABASE_URL = url.toString();
  }

  const cleanup = async () => {
    rmSync(dataDir, { recursive: true, force: true });
    if (adminUrl && dbName) {
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await admin.end();
    }
  };

  const server: ChildProcess = spawn(process.execPath, ['packages/server/bin/watchdeck.mjs', 'serve'], {
    env: fullEnv,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    }
    await cleanup();
  };

  const deadline = Date.now() + 90_000;
  for (;;) {
    if (server.exitCode !== null) {
      await cleanup();
      throw new Error(`server exited with ${server.exitCode} before it was ready`);
    }
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error('server did not become ready within 90 s');
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { baseUrl, databaseUrl: fullEnv.DATABASE_URL, stop };
}

export interface StartedOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  stop(): Promise<void>;
}

/**
 * A real OpenID Connect provider (oidc-provider; users alice, in group wd-admins, and bob) for a
 * console at `publicUrl`, run as its own process from the server tests' support file.
 */
export async function startOidcProvider(publicUrl: string): Promise<StartedOidcProvider> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'packages/server/test/support/oidc-provider.ts', publicUrl],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  };
  const first = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += String(chunk);
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(out.slice(0, nl));
    });
    child.once('exit', (code) => reject(new Error(`the OpenID Connect provider exited with ${code}`)));
  });
  return { ...(JSON.parse(first) as Omit<StartedOidcProvider, 'stop'>), stop };
}
