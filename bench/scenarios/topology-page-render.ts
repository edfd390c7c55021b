import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { freshDriverDb, percentile, startServer, settle } from '../support.ts';
import { SESSION_COOKIE } from '#server/auth/http.ts';
import type { Scenario } from './index.ts';

const ROOTS = 500;
/** the first load warms the server; p95 over the 10 after it */
const LOADS = 11;
const TARGET_MS = 1000;

/**
 * BENCH_BASELINE_WEB_DIR (a build of another commit, e.g. main's packages/web/dist copied aside):
 * a second server on the same database serves it, and loads alternate between the two, so old
 * and new are compared in one sitting on a shared, noisy host.
 */
const BASELINE = process.env.BENCH_BASELINE_WEB_DIR;

/**
 * Issue 17's target: /topology with 500 root cards shows its first cards in under 1 s in headless
 * chromium. 500 roots with two headline properties and three children each (so every card has a
 * children summary). Every load is a fresh browser context (cold cache, signed-in cookie):
 * navigation start to the first card, covering the bundle, the session calls, the route chunk,
 * GET /api/topology (its first page) and the first page of cards.
 */
export const topologyPageRender: Scenario = {
  name: `topology: /topology first cards with ${ROOTS} roots (headless chromium, pg)`,
  async run() {
    if (!existsSync('packages/web/dist/index.html')) throw new Error('build the web app first: npm run build');
    const bench = await freshDriverDb('pg');
    const { db } = bench;
    await db.query(
      `INSERT INTO components (name, type, icon, status, path, labels, properties)
       SELECT 'bench-root-' || lpad(g::text, 3, '0'), 'Service', 'server',
         (ARRAY['healthy', 'unhealthy', 'warning', 'unknown'])[1 + g % 4], '',
         jsonb_build_object('env', CASE WHEN g % 2 = 0 THEN 'production' ELSE 'staging' END),
         jsonb_build_array(
           jsonb_build_object('name', 'cost', 'type', 'currency', 'value', g * 3.7, 'headline', true),
           jsonb_build_object('name', 'uptime', 'value', 99 + (g % 100) / 100.0, 'headline', true),
           jsonb_build_object('name', 'owner', 'text', 'team-' || (g % 20)))
       FROM generate_series(1, $1::int) g`,
      [ROOTS],
    );
    await db.query(
      `INSERT INTO components (name, type, status, parent_id, path)
       SELECT r.name || '-child-' || k, 'Pod', (ARRAY['healthy', 'unhealthy', 'warning'])[1 + k % 3], r.id, r.id::text
       FROM components r, generate_series(0, 2) k WHERE r.parent_id IS NULL`,
    );
    await settle(db);
    const server = await startServer(bench);
    const baseline = BASELINE ? await startServer(bench, { WATCHDECK_WEB_DIR: BASELINE }) : undefined;
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
    });
    try {
      const [name, value] = [SESSION_COOKIE, server.cookie.slice(SESSION_COOKIE.length + 1)];
      const timings: number[] = [];
      const baselineTimings: number[] = [];
      let cardsShown = 0;
      for (let i = 0; i < LOADS * (baseline ? 2 : 1); i++) {
        const old = baseline && i % 2 === 1;
        const target = old ? baseline : server;
        const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
        await context.addCookies([{ name, value, url: target.url }]);
        const page = await context.newPage();
        await page.goto(`${target.url}/topology`, { waitUntil: 'commit' });
        // navigation start to the first animation frame with a card, on the page's own clock
        const handle = await page.waitForFunction(
          () => (document.querySelector('[data-testid="topology-card"]') ? performance.now() : false),
          undefined,
          { polling: 'raf', timeout: 30_000 },
        );
        const ms = (await handle.jsonValue()) as number;
        // the first load of each warms its server (plans, caches)
        if (i >= (baseline ? 2 : 1)) (old ? baselineTimings : timings).push(ms);
        if (!old) cardsShown = await page.getByTestId('topology-card').count();
        await context.close();
      }
      const p50 = percentile(timings, 50);
      const p95 = percentile(timings, 95);
      const versus = baseline
        ? `; baseline p50 ${percentile(baselineTimings, 50).toFixed(0)} ms, p95 ${percentile(baselineTimings, 95).toFixed(0)} ms, alternating`
        : '';
      return {
        driver: 'pg',
        result: `first cards p50 ${p50.toFixed(0)} ms, p95 ${p95.toFixed(0)} ms over ${timings.length} cold loads (${cardsShown} of ${ROOTS} cards rendered at first)${versus}`,
        target: `first cards p95 < ${TARGET_MS} ms`,
        met: p95 < TARGET_MS && cardsShown > 0 ? 'yes' : 'no',
      };
    } finally {
      await browser.close();
      await server.stop();
      await baseline?.stop();
      await bench.dispose();
    }
  },
};
