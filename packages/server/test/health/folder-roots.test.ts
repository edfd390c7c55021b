/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { HealthEngine } from '#server/health/engine.ts';
import type { ConnectionResolver } from '#server/health/connections.ts';
import type { CheckDef } from '#server/health/spec.ts';
import type { Db } from '#server/db/index.ts';
import { testDrivers } from '../support/db.ts';
import { startApp } from '../support/app.ts';

/**
 * Folder checks read only under the check roots (<data dir>/checks and WATCHDECK_CHECK_ROOTS):
 * a path outside is refused when the canary is saved (400 naming the field) and when it runs,
 * and a symbolic link planted after saving does not lead out.
 */
const noConnections: ConnectionResolver = {
  get: async (ref) => Promise.reject(new Error(`connection ${ref} not found`)),
};
const engine = new HealthEngine(undefined as never, noConnections, { defaultTimeoutMs: 5000 });
const run = async (spec: Record<string, unknown>) =>
  (await engine.execute({ type: 'folder', name: 'folder test', spec } as CheckDef)).outcome;

let base: string;
let root: string;
let outside: string;
beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'watchdeck-check-roots-'));
  root = join(base, 'allowed');
  outside = join(base, 'secret');
  mkdirSync(join(root, 'backups'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, 'id_rsa'), 'private');
  writeFileSync(join(root, 'backups', 'b1.tar'), 'x');
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

for (const driver of testDrivers()) {
  describe(`folder check roots (${driver.name})`, () => {
    let db: Db & { dispose(): Promise<void> };
    let app: FastifyInstance;
    let url: string;
    beforeAll(async () => {
      db = await driver.open();
      ({ app, url } = await startApp(db, { authMode: 'none', checkRoots: [root] }));
    }, 120_000);
    afterAll(async () => {
      await app?.close();
      await db?.dispose();
    });

    const save = async (path: string) => {
      const res = await fetch(`${url}/api/db/canaries`, {
        method: 'POST',
        headers: { accept: 'application/json', origin: url, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `folder ${path}`, spec: { folder: [{ name: 'f', path }] } }),
      });
      return { status: res.status, body: (await res.json().catch(() => undefined)) as any };
    };

    it('refuses a folder outside the roots, a relative path and .. at save time with a 400 naming the field', async () => {
      const etc = await save('/etc');
      expect(etc.status).toBe(400);
      expect(etc.body.message).toMatch(
        /^spec\.folder\[0\]\.path: \/etc is outside the directories checks may read \(.*; WATCHDECK_CHECK_ROOTS\)$/,
      );
      expect((await save(`${root}/../secret`)).body.message).toBe(
        `spec.folder[0].path: ${root}/../secret: parent directory segments (..) are not allowed`,
      );
      expect((await save('backups')).body.message).toBe('spec.folder[0].path: backups: use an absolute path');
      const ok = await save(join(root, 'backups'));
      expect(ok.status).toBe(201);
    });

    it('refuses at run time, including through a symbolic link planted after saving', async () => {
      expect(await run({ path: join(root, 'backups'), minCount: 1 })).toMatchObject({ pass: true });
      const etc = await run({ path: '/etc' });
      expect(etc.pass).toBe(false);
      expect(etc.error).toMatch(/^\/etc is outside the directories checks may read/);
      const link = join(root, `planted-${driver.name}`);
      symlinkSync(outside, link);
      const planted = await run({ path: link });
      expect(planted).toMatchObject({ pass: false });
      expect(planted.error).toMatch(new RegExp(`^${link} leads outside the directories checks may read`));
      expect(JSON.stringify(planted)).not.toContain('id_rsa');
    });

    it('does not count a symbolic link to a file outside the folder', async () => {
      const dir = join(root, `links-${driver.name}`);
      mkdirSync(dir);
      writeFileSync(join(dir, 'own.tar'), 'yy');
      symlinkSync(join(outside, 'id_rsa'), join(dir, 'key'));
      const out = await run({ path: dir });
      expect(out).toMatchObject({ pass: true, vars: { count: 1, size: 2 } });
      expect(JSON.stringify(out)).not.toContain('key');
    });
  });
}
