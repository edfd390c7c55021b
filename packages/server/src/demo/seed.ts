import type { Db, Queryable } from '../db/index.ts';
import { Rng, DEMO_ID_MIN, DEMO_ID_MAX, type SeedContext } from './util.ts';
import { seedPeople } from './people.ts';
import { demoTargets, seedHealth, type DemoTargets } from './health.ts';
import { seedCatalog } from './catalog.ts';
import { seedTopology } from './topology.ts';
import { seedIncidents } from './incidents.ts';
import { seedPlaybooks } from './playbooks.ts';
import { seedNotifications } from './notifications.ts';
import { seedSettings } from './settings.ts';

/** The properties row that marks a database as seeded. */
const DEMO_MARKER = 'demo.seeded';
/** Where the demo's checks point (JSON of DemoTargets), so a restart on another port follows. */
const DEMO_TARGETS = 'demo.targets';

export { demoTargets, type DemoTargets } from './health.ts';

/**
 * Demo data: what people could have created, nothing an engine would have produced. People and
 * teams for every role, two registered remote agents, canaries and their checks, a catalog
 * (scrapers, which are run once, and manual links), topologies (run once through the engine, demo/topology.ts), incidents in every status
 * and severity with hypotheses, evidence and comments, incident rules, playbooks, notification
 * rules and silences, connections (placeholder secrets only) and properties.
 *
 * Demo data never pretends: no check results, job history, sends, playbook runs, event-queue
 * rows, config changes or insights are seeded, and no status a scraper or the topology engine
 * would compute. The catalog's items are scraped: the demo's scrapers run once through the real
 * engine on exports shipped in demo/catalog-sources/ (catalog.ts), so their runs are in job history
 * and their analyzers' insights in config_analysis. Those come from the engines running on the demo's own targets: the health
 * checks watch this console itself (`targets`: its port, its database, its files) and a few fail
 * on purpose (health.ts).
 *
 * Deterministic: ids derive from fixed keys (all in the d3e30000-... range), choices from a
 * seeded PRNG, timestamps are relative to the database's now(). One transaction.
 * force false: nothing is inserted when the demo.seeded property exists; the demo's checks are
 * pointed at `targets` if they moved (another PORT). A demo of an older version (no
 * demo.targets property) is replaced as with force. force true: demo rows are removed and
 * inserted again (people, teams and agents are updated in place so anything users created
 * against them keeps its references).
 */
export async function seedDemo(db: Db, opts: { force: boolean; targets?: DemoTargets }): Promise<{ seeded: boolean }> {
  const targets = opts.targets ?? demoTargets({ port: 8080 });
  return db.transaction(async (tx) => {
    // Two replicas starting with demo data enabled must not both seed.
    await tx.query('SELECT pg_advisory_xact_lock(727276)');
    const marker = await tx.query(`SELECT 1 FROM properties WHERE name = $1`, [DEMO_MARKER]);
    // A demo loaded before demo.targets existed is the old one, whose seeded history pretended
    // (check results, job runs, sends nobody made): it is replaced.
    const current = await tx.query(`SELECT 1 FROM properties WHERE name = $1`, [DEMO_TARGETS]);
    if (marker.rows.length > 0 && !opts.force && current.rows.length > 0) {
      await retarget(tx, targets);
      return { seeded: false };
    }

    await removeDemo(tx);
    const now = await tx.query<{ ms: number }>(`SELECT (extract(epoch FROM now()) * 1000)::float8 AS ms`);
    const ctx: SeedContext = { tx, nowMs: Number(now.rows[0].ms), rng: new Rng(20240611), counts: {} };

    await seedPeople(ctx);
    await seedHealth(ctx, targets);
    const catalog = await seedCatalog(ctx, targets);
    const topology = await seedTopology(ctx, catalog);
    await seedIncidents(ctx, catalog, topology);
    await seedPlaybooks(ctx);
    await seedNotifications(ctx, catalog, topology);
    await seedSettings(ctx);
    await topology.rollup();

    await tx.query(
      `INSERT INTO properties (name, value, description) VALUES ($1, 'true', 'Demo data was loaded (watchdeck seed-demo)')
       ON CONFLICT (name) DO UPDATE SET value = 'true'`,
      [DEMO_MARKER],
    );
    await saveTargets(tx, targets);
    return { seeded: true };
  });
}

async function saveTargets(tx: Queryable, targets: DemoTargets): Promise<void> {
  await tx.query(
    `INSERT INTO properties (name, value, description) VALUES ($1, $2, 'Where the demo health checks point (the console, its database, its files)')
     ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value`,
    [DEMO_TARGETS, JSON.stringify(targets)],
  );
}

/**
 * The server started on another port (or from another directory) than the demo was loaded for:
 * the demo canaries' specs follow, so their checks keep watching this console. Only the demo's
 * own canaries, and only the old target strings in them, are rewritten; the engine re-syncs the
 * checks from the specs before their next run.
 */
async function retarget(tx: Queryable, targets: DemoTargets): Promise<void> {
  const { rows } = await tx.query<{ value: string }>(`SELECT value FROM properties WHERE name = $1`, [DEMO_TARGETS]);
  let old: Partial<DemoTargets>;
  try {
    old = rows[0] ? (JSON.parse(rows[0].value) as Partial<DemoTargets>) : {};
  } catch {
    old = {};
  }
  // the console's host:port covers its URLs too (http://<host:port>/api/...)
  const hostOf = (url?: string) => (url ? new URL(url).host : undefined);
  const moves = (
    [
      [hostOf(old.consoleUrl), hostOf(targets.consoleUrl)],
      [old.migrationsDir, targets.migrationsDir],
      [old.databaseHostPort, targets.databaseHostPort],
    ] as const
  ).filter(([from, to]) => from && to && from !== to) as unknown as [string, string][];
  if (!moves.length) return;
  let spec = 'spec::text';
  const params: unknown[] = [DEMO_ID_MIN, DEMO_ID_MAX];
  for (const [from, to] of moves) {
    // as text inside JSON strings, and not the start of a longer port (127.0.0.1:80 in :8080)
    const escaped = JSON.stringify(from)
      .slice(1, -1)
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    params.push(`${escaped}(?![0-9])`, JSON.stringify(to).slice(1, -1).replace(/\\/g, '\\\\'));
    spec = `regexp_replace(${spec}, $${params.length - 1}, $${params.length}, 'g')`;
  }
  await tx.query(
    `UPDATE canaries SET spec = (${spec})::jsonb WHERE id BETWEEN $1::uuid AND $2::uuid AND deleted_at IS NULL`,
    params,
  );
  await saveTargets(tx, targets);
}

/** Deletes the demo rows (by their id range); cascades take the dependent rows with them. */
async function removeDemo(tx: Queryable): Promise<void> {
  const range = [DEMO_ID_MIN, DEMO_ID_MAX];
  const byId = [
    // engine results an older demo seeded: gone with the demo (the current one seeds none)
    'event_queue',
    'job_history',
    'notification_send_history',
    'playbook_runs',
    'config_changes',
    'config_analysis',
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
  // what the demo's scrapers and topologies found and their runs (ids are the engine's): gone with
  // the scrapers and topologies, which the new seed runs again
  await tx.query(`DELETE FROM config_items WHERE scraper_id BETWEEN $1::uuid AND $2::uuid`, range);
  await tx.query(
    `DELETE FROM job_history WHERE resource_type IN ('config_scraper', 'topology') AND resource_id BETWEEN $1 AND $2`,
    range,
  );
  for (const table of byId) {
    await tx.query(`DELETE FROM ${table} WHERE id BETWEEN $1::uuid AND $2::uuid`, range);
  }
}
