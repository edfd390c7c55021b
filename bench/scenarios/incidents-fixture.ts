import { freshPostgresDb, sharedFixture, startServer, type BenchDb, type BenchServer, settle } from '../support.ts';

export const INCIDENTS = 50_000;
export const BIG_HYPOTHESES = 200;
export const BIG_EVIDENCES = 1_000;

export interface IncidentsFixture {
  bench: BenchDb;
  server: BenchServer;
  /** the incident with 200 hypotheses and 1,000 evidence rows */
  bigId: string;
  componentIds: string[];
}

/**
 * 50,000 incidents over three years across every status, severity and type, each with a root
 * hypothesis, two evidences (a check and a component) and one or two person responders; plus one
 * incident with 200 hypotheses and 1,000 evidence rows. Plain SQL in one transaction with the
 * changelog triggers off (as the demo loader does), then VACUUM ANALYZE.
 */
export function incidentsFixture(): Promise<IncidentsFixture> {
  return sharedFixture(
    'incidents',
    async () => {
      const bench = await freshPostgresDb();
      const { db } = bench;
      await db.transaction(async (tx) => {
        await tx.query(`SELECT set_config('watchdeck.incident_history', 'off', true)`);
        await tx.query(
          `INSERT INTO people (name, email) SELECT 'Responder ' || g, 'r' || g || '@bench.test' FROM generate_series(1, 40) g`,
        );
        await tx.query(`INSERT INTO canaries (name, spec) VALUES ('bench', '{}')`);
        await tx.query(
          `INSERT INTO checks (canary_id, name, type, status) SELECT (SELECT id FROM canaries), 'check-' || g, 'http', 'unhealthy' FROM generate_series(1, 500) g`,
        );
        await tx.query(
          `INSERT INTO components (name, type, status) SELECT 'component-' || g, 'Service', 'unhealthy' FROM generate_series(1, 500) g`,
        );
        await tx.query(
          `WITH p AS (SELECT array_agg(id ORDER BY name) a FROM people WHERE email LIKE '%@bench.test')
           INSERT INTO incidents (title, description, type, status, severity, created_by, commander_id, created_at)
           SELECT 'Incident ' || g, 'What happened in incident ' || g,
             (ARRAY['cost','availability','performance','security','integration','compliance','technicalDebt','reliability'])[1 + g % 8],
             (ARRAY['closed','closed','closed','resolved','resolved','mitigated','investigating','open','open','new'])[1 + g % 10],
             (ARRAY['info','warning','low','medium','high','blocker','critical'])[1 + g % 7],
             p.a[1 + g % 40], p.a[1 + (g * 7) % 40],
             now() - (g * interval '30 minutes')
           FROM generate_series(1, $1::int) g, p`,
          [INCIDENTS],
        );
        await tx.query(
          `INSERT INTO hypotheses (incident_id, type, status, title) SELECT id, 'root', 'possible', title FROM incidents`,
        );
        await tx.query(
          `WITH c AS (SELECT array_agg(id) a FROM checks), k AS (SELECT array_agg(id) a FROM components)
           INSERT INTO evidences (hypothesis_id, type, check_id, component_id, description)
           SELECT h.id, t.type, CASE WHEN t.type = 'check' THEN c.a[1 + n % 500] END, CASE WHEN t.type = 'topology' THEN k.a[1 + n % 500] END, t.type
           FROM (SELECT id, row_number() OVER () n FROM hypotheses) h, c, k, (VALUES ('check'), ('topology')) t(type)`,
        );
        await tx.query(
          `WITH p AS (SELECT array_agg(id) a FROM people WHERE email LIKE '%@bench.test')
           INSERT INTO responders (incident_id, type, person_id, properties)
           SELECT i.id, 'person', p.a[1 + (n + k * 7) % 40], jsonb_build_object('responderType', 'person', 'person', p.a[1 + (n + k * 7) % 40])
           FROM (SELECT id, row_number() OVER () n FROM incidents) i, p, generate_series(0, 1) k
           WHERE k = 0 OR n % 2 = 0`,
        );
        // the big one: 200 hypotheses (a root, 49 factors, 150 solutions), 5 evidences each
        const big = (
          await tx.query<{ id: string }>(
            `INSERT INTO incidents (title, severity, status) VALUES ('Big incident', 'critical', 'investigating') RETURNING id`,
          )
        ).rows[0].id;
        await tx.query(`INSERT INTO hypotheses (incident_id, type, title) VALUES ($1, 'root', 'Root')`, [big]);
        await tx.query(
          `INSERT INTO hypotheses (incident_id, parent_id, type, title)
           SELECT $1, (SELECT id FROM hypotheses WHERE incident_id = $1 AND type = 'root'), 'factor', 'Factor ' || g FROM generate_series(1, 49) g`,
          [big],
        );
        await tx.query(
          `INSERT INTO hypotheses (incident_id, parent_id, type, title)
           SELECT $1, f.id, 'solution', f.title || ' solution ' || g FROM hypotheses f, generate_series(1, 4) g WHERE f.incident_id = $1 AND f.type = 'factor' ORDER BY f.title, g LIMIT $2`,
          [big, BIG_HYPOTHESES - 50],
        );
        await tx.query(
          `WITH c AS (SELECT array_agg(id) a FROM checks), k AS (SELECT array_agg(id) a FROM components)
           INSERT INTO evidences (hypothesis_id, type, check_id, component_id, description, definition_of_done)
           SELECT h.id, CASE WHEN g % 2 = 0 THEN 'check' ELSE 'topology' END,
             CASE WHEN g % 2 = 0 THEN c.a[1 + (n * 5 + g) % 500] END, CASE WHEN g % 2 = 1 THEN k.a[1 + (n * 5 + g) % 500] END,
             'evidence ' || n || '/' || g, g = 0
           FROM (SELECT id, row_number() OVER () n FROM hypotheses WHERE incident_id = $1) h, c, k, generate_series(0, 4) g`,
          [big],
        );
      });
      await settle(db);
      const server = await startServer(bench);
      const bigId = (await db.query<{ id: string }>(`SELECT id FROM incidents WHERE title = 'Big incident'`)).rows[0]
        .id;
      const componentIds = (
        await db.query<{ id: string }>(`SELECT id FROM components ORDER BY name LIMIT 20`)
      ).rows.map((r) => r.id);
      return { bench, server, bigId, componentIds };
    },
    async ({ bench, server }) => {
      await server.stop();
      await bench.dispose();
    },
  );
}
