/**
 * What the kube tests share: a TLS front for the app (kubectl sends a bearer token only over
 * HTTPS, as it would to a console behind its TLS proxy), a signed-in person's kubeconfig as the
 * download gives it, and kubectl run against it.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import YAML from 'yaml';
import type { Db } from '#server/db/index.ts';
import { createIdentity } from '#server/auth/identities.ts';
import { Browser } from '../auth/support.ts';

const run = promisify(execFile);

/** A self-signed certificate for 127.0.0.1 (openssl), written under `dir`. */
export async function selfSignedCert(dir: string): Promise<{ cert: string; key: string; certPath: string }> {
  const certPath = join(dir, 'cert.pem');
  const keyPath = join(dir, 'key.pem');
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    keyPath,
    '-out',
    certPath,
    '-days',
    '1',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
  ]);
  return { cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8'), certPath };
}

/** HTTPS on an ephemeral port, passing every request to `target()` (the app) as it came. */
export async function tlsFront(
  tls: { cert: string; key: string },
  target: () => string,
): Promise<{ url: string; server: Server }> {
  const server = createServer(tls, (req, res) => {
    const to = new URL(req.url ?? '/', target());
    const up = httpRequest(to, { method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return { url: `https://127.0.0.1:${port}`, server };
}

/** A person with `role`, signed in through the app's own login. */
export async function signedIn(
  db: Db,
  appUrl: string,
  role: string,
  password = 'kube test passphrase',
): Promise<Browser> {
  const email = `${role}-${Math.random().toString(36).slice(2, 8)}@kube.test`;
  await createIdentity(db, { traits: { email, name: { first: role, last: 'Kube' } }, roles: [role], password });
  const b = new Browser(appUrl);
  const r = await b.login(email, password);
  if (r.status !== 200) throw new Error(`sign in as ${role}: ${r.status}`);
  return b;
}

export interface Kubectl {
  (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  dir: string;
  kubeconfig: string;
}

/** kubectl with its own HOME (discovery cache) and the kubeconfig text given, trusting `certPath`. */
export function kubectlWith(kubeconfigText: string, certPath: string): Kubectl {
  const dir = mkdtempSync(join(tmpdir(), 'watchdeck-kubectl-'));
  const doc = YAML.parse(kubeconfigText) as { clusters: { cluster: Record<string, unknown> }[] };
  doc.clusters[0].cluster['certificate-authority'] = certPath;
  const kubeconfig = join(dir, 'kubeconfig.yaml');
  writeFileSync(kubeconfig, YAML.stringify(doc));
  const fn = (async (...args: string[]) => {
    try {
      const r = await run('kubectl', args, {
        env: { ...process.env, KUBECONFIG: kubeconfig, HOME: dir },
        cwd: dir,
        maxBuffer: 64 * 1024 * 1024,
        timeout: 120_000,
      });
      return { code: 0, stdout: r.stdout, stderr: r.stderr };
    } catch (err) {
      const e = err as { code?: number; stdout?: string; stderr?: string };
      return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
    }
  }) as Kubectl;
  fn.dir = dir;
  fn.kubeconfig = kubeconfig;
  return fn;
}
