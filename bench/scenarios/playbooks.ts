import { freshPostgresDb, percentile, startServer, timedGet } from '../support.ts';
import type { Scenario } from './index.ts';

const RUNS = 1000;

const insertPlaybook = async (db: import('#server/db/index.ts').Db, name: string, spec: unknown) =>
  (
    await db.query<{ id: string }>(
      `INSERT INTO playbooks (name, title, spec) VALUES ($1, $1, $2::jsonb) RETURNING id`,
      [name, JSON.stringify(spec)],
    )
  ).rows[0]!.id;

/**
 * Issue 18: 1,000 queued runs of a one-action exec playbook complete in under 60 s on two server
 * processes sharing one PostgreSQL, none lost and none run twice (each run's one action row, and
 * each run claimed once: attempts = 1).
 */
export const playbookDrain: Scenario = {
  name: `${RUNS} queued playbook runs (exec), 2 server processes`,
  async run() {
    const bench = await freshPostgresDb();
    const servers = [];
    try {
      const spec = { actions: [{ name: 'echo', exec: { script: 'echo "run {{.run.id}}"' } }] };
      const id = await insertPlaybook(bench.db, 'bench-exec', spec);
      const env = { WATCHDECK_ROLE: 'all', WATCHDECK_PLAYBOOK_WORKERS: '8' };
      servers.push(await startServer(bench, env), await startServer(bench, env));
      const started = Date.now();
      await bench.db.query(
        `INSERT INTO playbook_runs (playbook_id, spec, status) SELECT $1, $2::jsonb, 'pending' FROM generate_series(1, $3)`,
        [id, JSON.stringify(spec), RUNS],
      );
      let left = RUNS;
      while (left > 0 && Date.now() - started < 180_000) {
        await new Promise((r) => setTimeout(r, 250));
        left = (
          await bench.db.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM playbook_runs WHERE status NOT IN ('completed', 'failed', 'cancelled')`,
          )
        ).rows[0]!.n;
      }
      const seconds = (Date.now() - started) / 1000;
      const { rows } = await bench.db.query<{ completed: number; actions: number; twice: number; processes: number }>(
        `SELECT (SELECT count(*)::int FROM playbook_runs WHERE status = 'completed') AS completed,
                (SELECT count(*)::int FROM playbook_run_actions WHERE status = 'completed') AS actions,
                (SELECT count(*)::int FROM playbook_runs WHERE attempts <> 1) AS twice,
                (SELECT count(DISTINCT claimed_by)::int FROM playbook_runs) AS processes`,
      );
      const r = rows[0]!;
      return {
        driver: 'pg',
        result: `${r.completed}/${RUNS} completed in ${seconds.toFixed(1)} s by ${r.processes} processes; ${r.actions} actions, ${r.twice} claimed twice`,
        target: `${RUNS} in < 60 s, none lost or twice`,
        met: r.completed === RUNS && r.actions === RUNS && r.twice === 0 && seconds < 60 ? 'yes' : 'no',
      };
    } finally {
      for (const s of servers) await s.stop();
      await bench.dispose();
    }
  },
};

const TOTAL = 100_000;
const SAMPLES = 300;

/**
 * Issue 18: the run list over 100,000 runs (/api/db/playbook_runs_summary, as the web's run list
 * reads it), filtered by playbook and status over the last 7 days, newest first, 50 a page:
 * p95 under 50 ms.
 */
export const playbookRunList: Scenario = {
  name: `run list over ${TOTAL / 1000}k runs, filtered page`,
  async run() {
    const bench = await freshPostgresDb();
    let server;
    try {
      const spec = { actions: [{ name: 'x', exec: { script: 'true' } }] };
      const ids: string[] = [];
      for (let i = 0; i < 20; i++) ids.push(await insertPlaybook(bench.db, `list-${i}`, spec));
      await bench.db.query(
        `INSERT INTO playbook_runs (playbook_id, status, spec, created_at, start_time, end_time, trigger_source)
         SELECT ($1::uuid[])[1 + (g % 20)], (ARRAY['completed','failed','cancelled','completed'])[1 + (g % 4)], NULL,
                now() - (g || ' seconds')::interval * 30, now() - (g || ' seconds')::interval * 30,
                now() - (g || ' seconds')::interval * 30 + interval '3 seconds', 'manual'
         FROM generate_series(1, $2) g`,
        [ids, TOTAL],
      );
      await bench.db.query('ANALYZE playbook_runs');
      server = await startServer(bench);
      const since = new Date(Date.now() - 7 * 86_400_000).toISOString();
      const path = (i: number) =>
        `/api/db/playbook_runs_summary?playbook_id=eq.${ids[i % 20]}&status=eq.failed&created_at=gte.${since}` +
        `&order=created_at.desc&limit=50&offset=${(i % 3) * 50}`;
      for (let i = 0; i < 20; i++) await timedGet(server.url + path(i), { cookie: server.cookie });
      const times: number[] = [];
      let errors = 0;
      for (let i = 0; i < SAMPLES; i++) {
        const a = await timedGet(server.url + path(i), { cookie: server.cookie, prefer: 'count=exact' });
        if (a.status !== 200) errors++;
        times.push(a.ms);
      }
      const p95 = percentile(times, 95);
      return {
        driver: 'pg',
        result: `p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, ${errors} errors`,
        target: 'p95 < 50 ms',
        met: p95 < 50 && errors === 0 ? 'yes' : 'no',
      };
    } finally {
      await server?.stop();
      await bench.dispose();
    }
  },
};
