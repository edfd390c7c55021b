import http from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { freshDriverDb, percentile, startServer, timedGet, type BenchDriver } from '../support.ts';
import { SESSION_COOKIE } from '#server/auth/http.ts';
import { loadHealthHistory } from './health-history.ts';
import type { Scenario } from './index.ts';

const CHECKS = 5000;
const EVERY_S = 30;
const HISTORY_MIN = 30;
const SUMMARY_EVERY_MS = 15_000;
const LOOKUP_EVERY_MS = 1000;
const PAGE_LOADS = 10;
/** minutes the soak runs: BENCH_SOAK_MINUTES (default 30; 5 for a quick run) */
const soakMinutes = () => Number(process.env.BENCH_SOAK_MINUTES || 30);

/** Resident memory of a process, MB (VmRSS of /proc/<pid>/status). */
function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}

/**
 * Issue 24: the default install at 5,000 checks. 5,000 HTTP checks `@every 30s` against a local
 * target, after 30 minutes of their history (written with generate_series: health-history.ts),
 * run by the server's own engine for BENCH_SOAK_MINUTES while the dashboard's summary
 * (`start=1h`) is requested every 15 s and a one-row /api/db read every second (is anything
 * else served while a summary is computed?). Then 10 cold loads of /health in headless chromium
 * (first rows, as health-page-render measures them) with the engine still running. Server RSS
 * is read every second. Targets: no summary over 3 s, first rows p95 under 1.5 s.
 */
const soak = (driver: BenchDriver): Scenario => ({
  name: `health soak (${driver}): ${CHECKS} HTTP checks @every ${EVERY_S}s, summary every 15 s, ${soakMinutes()} min`,
  async run() {
    const target = http.createServer((_req, res) => res.end('ok'));
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    const targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
    const bench = await freshDriverDb(driver);
    const loadStarted = Date.now();
    await loadHealthHistory(bench.db, { checks: CHECKS, everySec: EVERY_S, minutes: HISTORY_MIN, targetUrl });
    const one = (await bench.db.query<{ id: string }>(`SELECT id FROM checks LIMIT 1`)).rows[0].id;
    process.stderr.write(`soak (${driver}): history loaded in ${Math.round((Date.now() - loadStarted) / 1000)} s\n`);
    const server = await startServer(bench, { WATCHDECK_ROLE: 'all' });
    const headers = { cookie: server.cookie };
    try {
      const summaries: number[] = [];
      const lookups: { ms: number; during: boolean }[] = [];
      let errors = 0;
      let inFlight = false;
      let rssMax = 0;
      let runsAtStart = -1;
      let runsAtEnd = -1;
      const runsIn = (body: unknown) =>
        ((body as { checks_summary?: { uptime: { passed: number; failed: number } }[] }).checks_summary ?? []).reduce(
          (n, c) => n + c.uptime.passed + c.uptime.failed,
          0,
        );
      const end = Date.now() + soakMinutes() * 60_000;
      const startedAt = Date.now();
      const summaryLoop = (async () => {
        while (Date.now() < end) {
          const next = Date.now() + SUMMARY_EVERY_MS;
          inFlight = true;
          const a = await timedGet(`${server.url}/api/canary/api/summary?start=1h`, headers).catch(() => undefined);
          inFlight = false;
          if (!a || a.status !== 200) errors++;
          else {
            summaries.push(a.ms);
            const runs = runsIn(a.body);
            if (runsAtStart < 0) runsAtStart = runs;
            runsAtEnd = runs;
          }
          await new Promise((r) => setTimeout(r, Math.max(0, next - Date.now())));
        }
      })();
      const lookupLoop = (async () => {
        while (Date.now() < end) {
          const during = inFlight;
          const a = await timedGet(`${server.url}/api/db/checks?id=eq.${one}&select=id,status`, headers).catch(
            () => undefined,
          );
          if (!a || a.status !== 200) errors++;
          else lookups.push({ ms: a.ms, during });
          rssMax = Math.max(rssMax, rssMb(server.pid));
          await new Promise((r) => setTimeout(r, LOOKUP_EVERY_MS));
        }
      })();
      await Promise.all([summaryLoop, lookupLoop]);
      const soakS = (Date.now() - startedAt) / 1000;
      const page = await firstRows(server.url, server.cookie);
      const rssEnd = rssMb(server.pid);
      const during = lookups.filter((l) => l.during).map((l) => l.ms);
      const all = lookups.map((l) => l.ms);
      const f = (n: number | undefined) => (n === undefined ? '-' : n.toFixed(0));
      // runs in the 1-hour window grow by what the engine recorded (and lose what left the window)
      const runsPerS = runsAtEnd >= 0 ? (runsAtEnd - runsAtStart) / soakS : 0;
      const summaryMax = Math.max(...summaries);
      return {
        driver,
        result:
          `summary p50 ${f(percentile(summaries, 50))} ms, p95 ${f(percentile(summaries, 95))} ms, max ${f(summaryMax)} ms over ${summaries.length}; ` +
          `id lookup p50 ${f(percentile(all, 50))} ms, p95 ${f(percentile(all, 95))} ms, max ${f(Math.max(...all))} ms (while a summary ran: p95 ${f(during.length ? percentile(during, 95) : undefined)} ms, max ${f(during.length ? Math.max(...during) : undefined)} ms, n ${during.length}); ` +
          `server RSS max ${rssMax.toFixed(0)} MB, at the end ${rssEnd.toFixed(0)} MB; ` +
          `1h window grew by ${runsPerS.toFixed(0)} runs/s (${(CHECKS / EVERY_S).toFixed(0)}/s due, until the window is full); ` +
          `first rows p50 ${f(page.p50)} ms, p95 ${f(page.p95)} ms over ${page.n} cold loads; ${errors} errors`,
        target: 'summary < 3 s, first rows p95 < 1.5 s',
        met: summaryMax < 3000 && page.p95 < 1500 && errors === 0 ? 'yes' : 'no',
      };
    } finally {
      await server.stop();
      await bench.dispose();
      target.close();
    }
  },
});

/** Cold loads of /health in headless chromium: navigation start to the first check row. */
async function firstRows(url: string, cookie: string): Promise<{ p50: number; p95: number; n: number }> {
  if (!existsSync('packages/web/dist/index.html')) throw new Error('build the web app first: npm run build');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  try {
    const timings: number[] = [];
    for (let i = 0; i < PAGE_LOADS; i++) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      await context.addCookies([{ name: SESSION_COOKIE, value: cookie.slice(SESSION_COOKIE.length + 1), url }]);
      const page = await context.newPage();
      // every check passes: show them all, as the counter's "show passing" would
      await page.goto(`${url}/health?hidePassing=false`, { waitUntil: 'commit' });
      const handle = await page.waitForFunction(
        () => (document.querySelector('[data-testid="check-row-name"]') ? performance.now() : false),
        undefined,
        { polling: 'raf', timeout: 120_000 },
      );
      timings.push((await handle.jsonValue()) as number);
      await context.close();
    }
    return { p50: percentile(timings, 50), p95: percentile(timings, 95), n: timings.length };
  } finally {
    await browser.close();
  }
}

export const healthSoakPg = soak('pg');
export const healthSoakPglite = soak('pglite');
