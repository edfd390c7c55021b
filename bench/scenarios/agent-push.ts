import autocannon from 'autocannon';
import { randomUUID } from 'node:crypto';
import { catalogFixture } from './catalog-fixture.ts';
import type { Scenario } from './index.ts';

const STATUSES = 100_000;
const ITEMS = 10_000;
/** rows per push: the agent's batches, under the upstream's 20,000-row limit */
const BATCH = 10_000;
const LOOKUP_CONNECTIONS = 10;

/**
 * Issue 20's target: one agent pushing 100,000 check statuses and 10,000 config items is
 * ingested at over 10,000 rows/s on the upstream (PostgreSQL), while the /api/db id lookup keeps
 * more than half its unloaded throughput. Pushes go one after another, as one agent sends them.
 */
export const agentPush: Scenario = {
  name: `agent push: ${STATUSES} check statuses + ${ITEMS} config items, /api/db lookups meanwhile`,
  async run() {
    const { server, ids } = await catalogFixture();
    const headers = { cookie: server.cookie, origin: server.url, 'content-type': 'application/json' };
    const generated = await fetch(`${server.url}/api/agent/generate`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: `bench-${Date.now().toString(36)}` }),
    });
    if (generated.status !== 201) throw new Error(`generate: ${generated.status} ${await generated.text()}`);
    const { access_token: token } = (await generated.json()) as { access_token: string };

    let i = 0;
    const lookups = (duration: number) =>
      autocannon({
        url: server.url,
        connections: LOOKUP_CONNECTIONS,
        duration,
        headers: { cookie: server.cookie },
        requests: [{ setupRequest: (r) => ({ ...r, path: `/api/db/configs?id=eq.${ids[i++ % ids.length]}` }) }],
      });
    await lookups(2); // warm-up
    const unloaded = (await lookups(5)).requests.average;

    const canaryId = randomUUID();
    const checkIds = Array.from({ length: 10 }, () => randomUUID());
    const t0 = Date.parse('2026-01-01T00:00:00Z');
    const batches: unknown[] = [
      {
        canaries: [{ id: canaryId, name: 'bench-remote' }],
        checks: checkIds.map((id, n) => ({ id, canary_id: canaryId, name: `check-${n}`, type: 'http' })),
      },
    ];
    for (let b = 0; b < ITEMS / BATCH; b++)
      batches.push({
        config_items: Array.from({ length: BATCH }, (_, n) => ({
          id: randomUUID(),
          type: 'Bench::Item',
          config_class: 'Bench',
          name: `item-${b}-${n}`,
          config: { n, spec: { replicas: n % 5 } },
          labels: { batch: String(b) },
        })),
      });
    for (let b = 0; b < STATUSES / BATCH; b++)
      batches.push({
        check_statuses: Array.from({ length: BATCH }, (_, n) => {
          const k = b * BATCH + n;
          return {
            check_id: checkIds[k % checkIds.length],
            time: new Date(t0 + Math.floor(k / checkIds.length) * 1000).toISOString(),
            duration: k % 300,
            status: k % 7 !== 0,
            message: 'ok',
          };
        }),
      });

    // autocannon's answer is also its instance (stop()); its types only say Promise
    const loaded = lookups(60) as ReturnType<typeof lookups> & { stop(): void };
    const started = performance.now();
    let rows = 0;
    try {
      for (const body of batches) {
        const res = await fetch(`${server.url}/api/agent/push`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        if (res.status !== 200) throw new Error(`push: ${res.status} ${await res.text()}`);
        const { counts } = (await res.json()) as { counts: Record<string, number> };
        rows += Object.values(counts).reduce((a, n) => a + n, 0);
      }
    } finally {
      // the lookups ran during the pushes; they stop as the pushes end
      loaded.stop();
    }
    const seconds = (performance.now() - started) / 1000;
    const during = (await loaded).requests.average;
    const rate = Math.round(rows / seconds);
    return {
      driver: 'pg',
      result: `${rate} rows/s (${rows} rows in ${seconds.toFixed(1)} s); lookups ${Math.round(during)} req/s vs ${Math.round(unloaded)} unloaded`,
      target: '> 10000 rows/s; lookups > 50% of unloaded',
      met: rate > 10_000 && during > unloaded / 2 ? 'yes' : 'no',
    };
  },
};
