import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { openDb, migrate, type Db } from '#server/db/index.ts';

export interface TestDriver {
  name: 'pglite' | 'pg';
  /**
   * A fresh, empty database with migrations applied (unless migrations: false). statementTimeoutMs
   * sets the pool's statement timeout (PostgreSQL; PGlite cannot enforce one).
   */
  open(opts?: { migrations?: boolean; statementTimeoutMs?: number }): Promise<Db & { dispose(): Promise<void> }>;
}

/** Server tests run on PGlite always, and on PostgreSQL too when TEST_DATABASE_URL is set. */
export function testDrivers(): TestDriver[] {
  const drivers: TestDriver[] = [
    {
      name: 'pglite',
      async open(opts = {}) {
        const db = await openDb({ dataDir: 'memory://' });
        if (opts.migrations !== false) await migrate(db);
        return Object.assign(db, { dispose: () => db.close() });
      },
    },
  ];
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    drivers.push({
      name: 'pg',
      async open(opts = {}) {
        const name = `watchdeck_test_${randomBytes(6).toString('hex')}`;
        const admin = new pg.Client({ connectionString: adminUrl });
        await admin.connect();
        await admin.query(`CREATE DATABASE ${name}`);
        await admin.end();
        const url = new URL(adminUrl);
        url.pathname = `/${name}`;
        const db = await openDb({ databaseUrl: url.toString(), statementTimeoutMs: opts.statementTimeoutMs });
        if (opts.migrations !== false) await migrate(db);
        const close = db.close.bind(db);
        return Object.assign(db, {
          close,
          async dispose() {
            await close();
            const a = new pg.Client({ connectionString: adminUrl });
            await a.connect();
            await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
            await a.end();
          },
        });
      },
    });
  }
  return drivers;
}
