import http from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { freshDriverDb, percentile, startServer, type BenchDriver } from '../support.ts';
import { openDb } from '#server/db/index.ts';
import { syncPendingCanaries } from '#server/health/sync.ts';
import { slotPhase } from '#server/jobs/schedule.ts';
import type { Scenario } from './index.ts';

export const HTTP_CHECKS = 5000;
const EVERY_S = 30;
const SLOTS = 3;

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime are fields 14 and 15 of the whole line (12 and 13 after "pid (comm) ")
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * Issue 5's target: 5,000 HTTP checks on `@every 30s` against a local target, sustained: every
 * check runs in every slot, scheduling lag (a run's start minus its slot) under 1 s, and the
 * server process using at most one core. One canary per check, the heaviest layout: each run is a
 * scheduler claim, a job-history record and a recorded result of its own. The target is a plain
 * HTTP server in the bench process; the server runs in a child process on PostgreSQL.
 */
const scheduling = (driver: BenchDriver): Scenario => ({
  name: `health: ${HTTP_CHECKS} HTTP checks @every ${EVERY_S}s (one canary each), ${SLOTS} slots (${driver})`,
  async run() {
    const target = http.createServer((_req, res) => res.end('ok'));
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    const port = (target.address() as AddressInfo).port;
    const bench = await freshDriverDb(driver);
    const { db } = bench;
    await db.query(
      `INSERT INTO canaries (name, namespace, schedule, spec)
       SELECT 'bench-' || g, 'bench', '@every ${EVERY_S}s',
         jsonb_build_object('http', jsonb_build_array(jsonb_build_object('name', 'target ' || g, 'url', $1::text || '/ok?c=' || g, 'responseCodes', jsonb_build_array(200))))
       FROM generate_series(1, $2::int) g`,
      [`http://127.0.0.1:${port}`, HTTP_CHECKS],
    );
    await syncPendingCanaries(db, (err) => {
      throw err;
    });
    const server = await startServer(bench, { WATCHDECK_ROLE: 'all' });
    try {
      // A warm-up interval, then SLOTS intervals measured. A canary's slots are k*30s plus its
      // spread offset (jobs/schedule.ts slotPhase), so every canary has exactly one slot in each
      // measured interval; a run's lag is its start time minus its slot.
      const slotMs = EVERY_S * 1000;
      const from = (Math.floor(Date.now() / slotMs) + 2) * slotMs;
      const to = from + SLOTS * slotMs;
      await new Promise((r) => setTimeout(r, from - Date.now()));
      const cpu0 = cpuSeconds(server.pid);
      const t0 = Date.now();
      await new Promise((r) => setTimeout(r, to - Date.now()));
      const cpuUsed = cpuSeconds(server.pid) - cpu0;
      const cores = cpuUsed / ((Date.now() - t0) / 1000);
      await new Promise((r) => setTimeout(r, 5000)); // runs of the last slots finish and commit
      // PGlite is the server's alone while it runs: read the runs once it has stopped
      let read = db;
      if (bench.dataDir) {
        await server.stop();
        read = await openDb({ dataDir: bench.dataDir });
      }
      const { rows } = await read.query<{ canary_id: string; t: string; pass: boolean }>(
        `SELECT c.canary_id, (extract(epoch FROM s.time) * 1000)::bigint::text AS t, s.status AS pass
         FROM check_statuses s JOIN checks c ON c.id = s.check_id WHERE s.time >= $1 AND s.time < $2`,
        [new Date(from).toISOString(), new Date(to + 5000).toISOString()],
      );
      if (read !== db) await read.close();
      const lags: number[] = [];
      const counts = new Array<number>(SLOTS).fill(0);
      let failed = 0;
      const late = new Map<number, number>();
      for (const r of rows) {
        const t = Number(r.t);
        const phase = slotPhase(`canary:${r.canary_id}`, slotMs);
        const lag = (((t - phase) % slotMs) + slotMs) % slotMs;
        const slot = t - lag;
        if (slot < from || slot >= to) continue;
        lags.push(lag);
        counts[Math.floor((slot - from) / slotMs)]++;
        if (!r.pass) failed++;
        if (lag > 1000) late.set(Math.floor(slot / 1000), (late.get(Math.floor(slot / 1000)) ?? 0) + 1);
      }
      if (late.size) {
        // when the late runs were due: tells a periodic stall (a housekeeping job) from steady overload
        const seconds = [...late.entries()].sort((a, b) => a[0] - b[0]);
        process.stderr.write(
          `late runs by due second: ${seconds.map(([t, n]) => `${new Date(t * 1000).toISOString().slice(11, 19)}×${n}`).join(' ')}\n`,
        );
      }
      const p99 = percentile(lags, 99);
      const max = Math.max(...lags);
      const complete = counts.every((n) => n === HTTP_CHECKS);
      return {
        driver,
        result: `runs per slot ${counts.join('/')}, ${failed} failed; lag p50 ${percentile(lags, 50).toFixed(0)} ms, p99 ${p99.toFixed(0)} ms, max ${max.toFixed(0)} ms; server CPU ${cores.toFixed(2)} cores (${((cpuUsed * 1000) / Math.max(1, lags.length)).toFixed(2)} ms per run)`,
        target: `every check each slot, lag < 1 s, <= 1 core`,
        met: complete && failed === 0 && max < 1000 && cores <= 1 ? 'yes' : 'no',
      };
    } finally {
      await server.stop();
      await bench.dispose();
      target.close();
    }
  },
});

export const healthScheduling = scheduling('pg');
export const healthSchedulingPglite = scheduling('pglite');
