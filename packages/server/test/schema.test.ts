import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESOURCES } from '@watchdeck/core';
import { testDrivers } from './support/db.ts';
import { migrate } from '../src/db/index.ts';
import { exposedTables } from '../src/db/exposed.ts';

/** Tables every seed entity needs (seed sections 3). */
const CORE_TABLES = [
  'people',
  'teams',
  'team_members',
  'people_roles',
  'identities',
  'agents',
  'canaries',
  'checks',
  'check_statuses',
  'components',
  'component_relationships',
  'topologies',
  'config_items',
  'config_changes',
  'config_analysis',
  'config_relationships',
  'config_scrapers',
  'incidents',
  'hypotheses',
  'evidences',
  'comments',
  'responders',
  'incident_histories',
  'incident_rules',
  'playbooks',
  'playbook_runs',
  'playbook_run_actions',
  'playbook_approvals',
  'notifications',
  'notification_send_history',
  'notification_silences',
  'connections',
  'properties',
  'job_history',
  'event_queue',
  'event_consumers',
  'event_deliveries',
  'logging_backends',
  'access_tokens',
  'saved_searches',
  'team_components',
  'config_component_relationships',
  'check_component_relationships',
  'check_config_relationships',
  'identity_credentials',
  'scheduler_claims',
];

/** Views the seeds (and DESIGN section 2) name. */
const NAMED_VIEWS = [
  'agents_summary',
  'checks_summary',
  'check_summary_for_config',
  'checks_by_component',
  'configs',
  'config_detail',
  'config_summary',
  'catalog_changes',
  'config_changes_summary',
  'config_analysis_items',
  'incident_summary',
  'incidents_by_component',
  'incidents_by_config',
  'config_scrapers_with_status',
  'canaries_with_status',
  'topologies_with_status',
  'teams_with_status',
  'logging_backends_with_status',
  'notifications_summary',
  'notifications_with_status',
  'integrations_with_status',
  'job_histories',
  'job_history_names',
  'event_queue_summary',
  'component_names',
  'configs_by_component',
  'config_changes_by_component',
  'config_analysis_by_component',
  'check_relationships',
  'components_with_logs',
  'component_labels',
  'playbook_names',
];

/** Resources the UI soft-deletes (seed 000 section 4 and the generic settings pages). */
const SOFT_DELETED = [
  'people',
  'agents',
  'canaries',
  'checks',
  'topologies',
  'components',
  'config_scrapers',
  'config_items',
  'teams',
  'playbooks',
  'notifications',
  'notification_silences',
  'connections',
  'logging_backends',
  'incident_rules',
  'responders',
  'access_tokens',
  'config_relationships',
];

const SECRET_TABLES = [
  'identity_credentials',
  'identity_sessions',
  'identity_flows',
  'identity_tokens',
  'identity_errors',
  'access_tokens',
  'event_queue',
  'event_consumers',
  'event_deliveries',
  'scheduler_claims',
  'schema_migrations',
  'schema_sql_files',
];

for (const driver of testDrivers()) {
  describe(`schema (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    beforeAll(async () => {
      db = await driver.open({ migrations: false });
    });
    afterAll(async () => {
      await db?.dispose();
    });

    const relkinds = async () => {
      const r = await db.query<{ relname: string; relkind: string }>(
        `SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = 'public' AND c.relkind IN ('r', 'v', 'm', 'p')`,
      );
      return new Map(r.rows.map((x) => [x.relname, x.relkind]));
    };

    it('applies every migration on a fresh database; a second run is a no-op', async () => {
      const applied = await migrate(db);
      expect(applied.length).toBeGreaterThanOrEqual(9);
      expect(applied.slice(0, 9)).toEqual([
        '0001_people_teams.sql',
        '0002_agents_health.sql',
        '0003_catalog.sql',
        '0004_topology.sql',
        '0005_incidents.sql',
        '0006_playbooks.sql',
        '0007_notifications.sql',
        '0008_settings_jobs_events.sql',
        '0009_views.sql',
      ]);
      expect(await migrate(db)).toEqual([]);
      const n = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations');
      expect(n.rows[0].n).toBe(applied.length);
    });

    it('has a table for every seed entity and every view the seeds name', async () => {
      const kinds = await relkinds();
      const missingTables = CORE_TABLES.filter((t) => kinds.get(t) !== 'r');
      const missingViews = NAMED_VIEWS.filter((v) => kinds.get(v) !== 'v');
      expect({ missingTables, missingViews }).toEqual({ missingTables: [], missingViews: [] });
    });

    it('every exposed name exists, maps to a known RBAC resource, and every view is read-only', async () => {
      const kinds = await relkinds();
      const fns = new Set(
        (
          await db.query<{ proname: string }>(
            `SELECT p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public'`,
          )
        ).rows.map((r) => `rpc/${r.proname}`),
      );
      const missing = Object.keys(exposedTables).filter((name) => !kinds.has(name) && !fns.has(name));
      expect(missing).toEqual([]);
      // exposed functions are read-only but for the incident screens' transactional writes
      // (0130), which need write on incidents; secret columns exist on their table
      expect(
        Object.entries(exposedTables)
          .filter(([n, e]) => n.startsWith('rpc/') && !e.readOnly)
          .map(([n]) => n),
      ).toEqual(['rpc/create_incident', 'rpc/update_incident_status']);
      const cols = await db.query<{ t: string; c: string }>(
        `SELECT table_name AS t, column_name AS c FROM information_schema.columns WHERE table_schema = 'public'`,
      );
      const have = new Set(cols.rows.map((r) => `${r.t}.${r.c}`));
      const badSecrets = Object.entries(exposedTables).flatMap(([n, e]) =>
        (e.secrets ?? []).filter((c) => !have.has(`${n}.${c}`)).map((c) => `${n}.${c}`),
      );
      expect(badSecrets).toEqual([]);
      expect(exposedTables.connections.secrets).toEqual(expect.arrayContaining(['password']));
      const unknownResource = Object.entries(exposedTables)
        .filter(([, e]) => !(RESOURCES as readonly string[]).includes(e.resource))
        .map(([name, e]) => `${name} -> ${e.resource}`);
      expect(unknownResource).toEqual([]);
      const writableViews = Object.entries(exposedTables)
        .filter(([name, e]) => kinds.get(name) === 'v' && !e.readOnly)
        .map(([name]) => name);
      expect(writableViews).toEqual([]);
    });

    it('never exposes secret-holding or internal tables', () => {
      expect(SECRET_TABLES.filter((t) => t in exposedTables)).toEqual([]);
    });

    it('every exposed table and view is selectable', async () => {
      const failures: string[] = [];
      for (const name of Object.keys(exposedTables)) {
        if (name.startsWith('rpc/')) continue;
        try {
          await db.query(`SELECT * FROM "${name}" LIMIT 1`);
        } catch (err) {
          failures.push(`${name}: ${(err as Error).message}`);
        }
      }
      expect(failures).toEqual([]);
    });

    it('every foreign key column has an index whose leading column(s) it is', async () => {
      const r = await db.query<{ tbl: string; cols: string; conname: string }>(`
        SELECT c.conrelid::regclass::text AS tbl, c.conname,
          (SELECT string_agg(a.attname, ',' ORDER BY k.ord) FROM unnest(c.conkey) WITH ORDINALITY k(attnum, ord)
             JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum) AS cols
        FROM pg_constraint c
        JOIN pg_namespace n ON n.oid = c.connamespace
        WHERE c.contype = 'f' AND n.nspname = 'public'
          AND NOT EXISTS (
            SELECT 1 FROM pg_index i
            WHERE i.indrelid = c.conrelid
              AND (i.indkey::int2[])[0:cardinality(c.conkey) - 1] @> c.conkey
              AND (i.indkey::int2[])[0:cardinality(c.conkey) - 1] <@ c.conkey
          )
        ORDER BY 1, 3`);
      expect(r.rows.map((x) => `${x.tbl}(${x.cols}) [${x.conname}]`)).toEqual([]);
    });

    it('every created_by column references people', async () => {
      const r = await db.query<{ tbl: string }>(`
        SELECT c.table_name AS tbl FROM information_schema.columns c
        JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
        WHERE c.table_schema = 'public' AND c.column_name = 'created_by' AND t.table_type = 'BASE TABLE'
          AND NOT EXISTS (
            SELECT 1 FROM pg_constraint k
            JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = ANY (k.conkey)
            WHERE k.contype = 'f' AND k.conrelid = (quote_ident(c.table_name))::regclass
              AND a.attname = 'created_by' AND k.confrelid = 'people'::regclass)
        ORDER BY 1`);
      expect(r.rows.map((x) => x.tbl)).toEqual([]);
    });

    it('every table with updated_at has the shared trigger, and it maintains the column', async () => {
      const r = await db.query<{ tbl: string }>(`
        SELECT c.relname AS tbl FROM pg_class c
        JOIN pg_namespace n ON n.oid = c.relnamespace
        JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'updated_at' AND NOT a.attisdropped
        WHERE n.nspname = 'public' AND c.relkind = 'r'
          AND NOT EXISTS (
            SELECT 1 FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid
            WHERE t.tgrelid = c.oid AND p.proname = 'set_updated_at' AND NOT t.tgisinternal)
        ORDER BY 1`);
      expect(r.rows.map((x) => x.tbl)).toEqual([]);

      const ins = await db.query<{ id: string }>(
        `INSERT INTO teams (name, created_at, updated_at) VALUES ('trigger-test', '2001-01-01', '2001-01-01') RETURNING id`,
      );
      const id = ins.rows[0].id;
      await db.query(`UPDATE teams SET icon = 'bell' WHERE id = $1`, [id]);
      const after = await db.query<{ fresh: boolean; created_kept: boolean }>(
        `SELECT updated_at > now() - interval '1 minute' AS fresh, created_at = '2001-01-01'::timestamptz AS created_kept
         FROM teams WHERE id = $1`,
        [id],
      );
      expect(after.rows[0]).toEqual({ fresh: true, created_kept: true });
      // An explicit new value is kept (engines replaying history).
      await db.query(`UPDATE teams SET updated_at = '2002-02-02' WHERE id = $1`, [id]);
      const explicit = await db.query<{ kept: boolean }>(
        `SELECT updated_at = '2002-02-02'::timestamptz AS kept FROM teams WHERE id = $1`,
        [id],
      );
      expect(explicit.rows[0].kept).toBe(true);
      await db.query(`DELETE FROM teams WHERE id = $1`, [id]);
    });

    it('resources carry soft-delete, timestamps and uuid ids', async () => {
      const r = await db.query<{
        table_name: string;
        column_name: string;
        data_type: string;
        column_default: string | null;
      }>(
        `SELECT table_name, column_name, data_type, column_default FROM information_schema.columns
         WHERE table_schema = 'public' AND table_name = ANY($1::text[])`,
        [SOFT_DELETED],
      );
      const cols = new Map<string, Map<string, { type: string; def: string | null }>>();
      for (const row of r.rows) {
        if (!cols.has(row.table_name)) cols.set(row.table_name, new Map());
        cols.get(row.table_name)!.set(row.column_name, { type: row.data_type, def: row.column_default });
      }
      const problems: string[] = [];
      for (const t of SOFT_DELETED) {
        const c = cols.get(t);
        if (!c) {
          problems.push(`${t}: missing`);
          continue;
        }
        if (c.get('deleted_at')?.type !== 'timestamp with time zone') problems.push(`${t}: deleted_at`);
        if (c.get('created_at')?.type !== 'timestamp with time zone') problems.push(`${t}: created_at`);
        if (c.has('id') && c.get('id')!.type !== 'uuid') problems.push(`${t}: id not uuid`);
      }
      expect(problems).toEqual([]);
      // every uuid primary key called id defaults to gen_random_uuid() (agent_parked_rows.id is
      // the id the agent gave its parked row, never made upstream)
      const ids = await db.query<{ table_name: string }>(`
        SELECT c.table_name FROM information_schema.columns c
        JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
        WHERE c.table_schema = 'public' AND c.column_name = 'id' AND t.table_type = 'BASE TABLE'
          AND c.data_type = 'uuid' AND coalesce(c.column_default, '') NOT LIKE '%gen_random_uuid()%'
          AND c.table_name NOT IN ('people_roles', 'identities', 'agent_parked_rows')`);
      expect(ids.rows.map((x) => x.table_name)).toEqual([]);
    });

    it("enforces the seeds' enums with CHECK constraints", async () => {
      const bad = [
        `INSERT INTO incidents (title, severity) VALUES ('x', 'catastrophic')`,
        `INSERT INTO incidents (title, status) VALUES ('x', 'pondering')`,
        `INSERT INTO incidents (title, type) VALUES ('x', 'vibes')`,
        `WITH p AS (INSERT INTO people (name) VALUES ('role-test') RETURNING id) INSERT INTO people_roles (id, roles) SELECT id, ARRAY['superuser'] FROM p`,
        `INSERT INTO job_history (name, status) VALUES ('x', 'DONE')`,
        `WITH c AS (INSERT INTO event_consumers (name, events) VALUES ('c', '{x}')), e AS (INSERT INTO event_queue (name, event_id) VALUES ('x', 'y') RETURNING id)
         INSERT INTO event_deliveries (event_id, consumer, status) SELECT id, 'c', 'lost' FROM e`,
      ];
      for (const sql of bad) {
        await expect(db.query(sql), sql).rejects.toThrow();
      }
      const ok = await db.query<{ incident_id: string; status: string; severity: string; type: string }>(
        `INSERT INTO incidents (title) VALUES ('defaults') RETURNING incident_id, status, severity, type`,
      );
      expect(ok.rows[0]).toMatchObject({ status: 'open', severity: 'low', type: 'availability' });
      expect(ok.rows[0].incident_id).toMatch(/^INC\d{7}$/);
      await db.query(`DELETE FROM incidents WHERE title = 'defaults'`);
    });

    it('has the local agent under the nil uuid', async () => {
      const r = await db.query<{ name: string }>(
        `SELECT name FROM agents WHERE id = '00000000-0000-0000-0000-000000000000'`,
      );
      expect(r.rows).toEqual([{ name: 'local' }]);
    });

    it('indexes the columns lists filter and sort on', async () => {
      const wanted: [string, string][] = [
        ['incidents', 'status'],
        ['incidents', 'severity'],
        ['incidents', 'type'],
        ['incidents', 'created_at'],
        ['checks', 'status'],
        ['checks', 'name'],
        ['checks', 'type'],
        ['checks', 'labels'],
        ['config_items', 'type'],
        ['config_items', 'name'],
        ['config_items', 'health'],
        ['config_items', 'status'],
        ['config_items', 'labels'],
        ['config_items', 'tags'],
        ['config_items', 'created_at'],
        ['config_changes', 'created_at'],
        ['config_changes', 'change_type'],
        ['config_changes', 'severity'],
        ['config_analysis', 'analysis_type'],
        ['config_analysis', 'severity'],
        ['config_analysis', 'status'],
        ['components', 'status'],
        ['components', 'name'],
        ['components', 'type'],
        ['components', 'labels'],
        ['job_history', 'name'],
        ['job_history', 'status'],
        ['job_history', 'created_at'],
        ['job_history', 'resource_type'],
        ['playbook_runs', 'status'],
        ['playbook_runs', 'created_at'],
        ['notification_send_history', 'status'],
        ['notification_send_history', 'created_at'],
        ['check_statuses', 'time'],
        ['agents', 'name'],
        ['teams', 'name'],
      ];
      const r = await db.query<{ tbl: string; col: string }>(`
        SELECT c.relname AS tbl, a.attname AS col FROM pg_index i
        JOIN pg_class c ON c.oid = i.indrelid
        JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]`);
      const have = new Set(r.rows.map((x) => `${x.tbl}.${x.col}`));
      expect(wanted.map(([t, c]) => `${t}.${c}`).filter((k) => !have.has(k))).toEqual([]);
    });
  });
}
