import type { Db, Queryable } from '../db/index.ts';
import { Rng, DEMO_ID_MIN, DEMO_ID_MAX, type SeedContext } from './util.ts';
import { seedPeople } from './people.ts';
import { seedHealth } from './health.ts';
import { seedCatalog } from './catalog.ts';
import { seedTopology } from './topology.ts';
import { seedIncidents } from './incidents.ts';
import { seedPlaybooks } from './playbooks.ts';
import { seedNotifications } from './notifications.ts';
import { seedSettings } from './settings.ts';

/** The properties row that marks a database as seeded. */
export const DEMO_MARKER = 'demo.seeded';

/**
 * Demo data that makes every screen meaningful: people and teams for every role, agents,
 * canaries with a week of check history, a topology, a few hundred config items with changes,
 * insights and relationships, incidents in every status and severity, playbooks with runs,
 * notifications, connections (placeholder secrets only), job history and properties.
 *
 * Deterministic: ids derive from fixed keys (all in the d3e30000-... range), choices from a
 * seeded PRNG or md5, timestamps are relative to the database's now(). One transaction.
 * force false: nothing happens when the demo.seeded property exists. force true: demo rows are
 * removed and inserted again (people, teams and agents are updated in place so anything users
 * created against them keeps its references).
 */
export async function seedDemo(db: Db, opts: { force: boolean }): Promise<{ seeded: boolean }> {
  return db.transaction(async (tx) => {
    // Two replicas starting with demo data enabled must not both seed.
    await tx.query('SELECT pg_advisory_xact_lock(727276)');
    const marker = await tx.query(`SELECT 1 FROM properties WHERE name = $1`, [DEMO_MARKER]);
    if (marker.rows.length > 0 && !opts.force) return { seeded: false };

    await removeDemo(tx);
    const now = await tx.query<{ ms: number }>(`SELECT (extract(epoch FROM now()) * 1000)::float8 AS ms`);
    const ctx: SeedContext = { tx, nowMs: Number(now.rows[0].ms), rng: new Rng(20240611), counts: {} };

    await seedPeople(ctx);
    await seedHealth(ctx);
    const catalog = await seedCatalog(ctx);
    await seedTopology(ctx);
    await seedIncidents(ctx, catalog);
    await seedPlaybooks(ctx, catalog);
    await seedNotifications(ctx, catalog);
    await seedSettings(ctx);

    await tx.query(
      `INSERT INTO properties (name, value, description) VALUES ($1, 'true', 'Demo data was loaded (watchdeck seed-demo)')
       ON CONFLICT (name) DO UPDATE SET value = 'true'`,
      [DEMO_MARKER],
    );
    return { seeded: true };
  });
}

/** Deletes the demo rows (by their id range); cascades take the dependent rows with them. */
async function removeDemo(tx: Queryable): Promise<void> {
  const range = [DEMO_ID_MIN, DEMO_ID_MAX];
  const byId = [
    'event_queue',
    'job_history',
    'notification_silences',
    'notifications',
    'playbooks',
    'incidents',
    'incident_rules',
    'topologies',
    'canaries',
    'config_items',
    'config_scrapers',
    'connections',
    'logging_backends',
    'saved_searches',
    'access_tokens',
  ];
  for (const table of byId) {
    await tx.query(`DELETE FROM ${table} WHERE id BETWEEN $1::uuid AND $2::uuid`, range);
  }
}
