import { DETAIL_SELECT, LIST_SELECT } from '#web/features/incidents/api/selects.ts';
import { percentile, timedGet } from '../support.ts';
import { BIG_EVIDENCES, BIG_HYPOTHESES, INCIDENTS, incidentsFixture } from './incidents-fixture.ts';
import type { Scenario } from './index.ts';

const REQUESTS = 400;
const CONCURRENCY = 4;
const STATUSES = ['open', 'new', 'investigating', 'mitigated', 'resolved', 'closed'];
const SEVERITIES = ['', 'critical', 'high', 'medium', 'low', 'info'];

/** Runs `REQUESTS` GETs, `concurrency` at a time, after a warm-up; latency in ms per request. */
async function measure(
  url: (n: number) => string,
  headers: Record<string, string>,
  check: (status: number, body: unknown) => boolean,
  concurrency = CONCURRENCY,
) {
  const latencies: number[] = [];
  let errors = 0;
  const worker = async (start: number, count: number, warm: boolean) => {
    for (let n = start; n < count; n += concurrency) {
      const { ms, status, body } = await timedGet(url(n), headers);
      if (warm) continue;
      latencies.push(ms);
      if (!check(status, body)) errors++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, k) => worker(k, 40, true)));
  await Promise.all(Array.from({ length: concurrency }, (_, k) => worker(k, REQUESTS, false)));
  return { latencies, errors };
}

/**
 * Issue 6: /incidents with 50,000 incidents (the list page's own request: incident_summary with
 * its filters, count=exact, a page of 50), p95 under 50 ms. Filters rotate over status,
 * severity, owner and component (the topology inbound link), as people click through them.
 */
export const incidentsList: Scenario = {
  name: `/incidents list over ${INCIDENTS / 1000}k incidents`,
  async run() {
    const { server, bench, componentIds } = await incidentsFixture();
    const owners = (
      await bench.db.query<{ id: string }>(
        `SELECT id FROM people WHERE email LIKE '%@bench.test' ORDER BY name LIMIT 10`,
      )
    ).rows.map((r) => r.id);
    const url = (n: number) => {
      // later pages of the broad filters (hundreds of matches and more); the first page of the
      // narrow ones (an owner or a component matches a few dozen)
      const narrow = n % 4 === 1 || n % 10 === 3;
      const q = new URLSearchParams({
        order: 'created_at.desc',
        limit: '50',
        offset: narrow ? '0' : String((n % 5) * 50),
      });
      q.set('status', `eq.${STATUSES[n % STATUSES.length]}`);
      const sev = SEVERITIES[n % SEVERITIES.length];
      if (sev) q.set('severity', `eq.${sev}`);
      if (n % 4 === 1) q.set('created_by', `eq.${owners[n % owners.length]}`);
      if (n % 10 === 3) {
        q.set('select', `${LIST_SELECT},hypotheses!inner(evidences!inner(component_id))`);
        q.set('hypotheses.evidences.component_id', `eq.${componentIds[n % componentIds.length]}`);
        q.delete('status');
      } else q.set('select', LIST_SELECT);
      return `${server.url}/api/db/incident_summary?${q}`;
    };
    const { latencies, errors } = await measure(
      url,
      { cookie: server.cookie, Prefer: 'count=exact' },
      (s, b) => (s === 200 || s === 206) && Array.isArray(b),
    );
    const p95 = percentile(latencies, 95);
    return {
      driver: 'pg',
      result: `p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms over ${latencies.length} pages (${CONCURRENCY} at a time), ${errors} errors`,
      target: 'p95 < 50 ms',
      met: p95 < 50 && errors === 0 ? 'yes' : 'no',
    };
  },
};

/**
 * Issue 6: an incident detail with 200 hypotheses and 1,000 evidence rows loads in one request
 * under 100 ms: one person opening the page, so requests go one at a time.
 */
export const incidentDetail: Scenario = {
  name: `incident detail: ${BIG_HYPOTHESES} hypotheses, ${BIG_EVIDENCES} evidences, one request`,
  async run() {
    const { server, bigId } = await incidentsFixture();
    const q = new URLSearchParams({
      select: DETAIL_SELECT,
      id: `eq.${bigId}`,
      'hypotheses.order': 'created_at.asc',
      'hypotheses.evidences.order': 'created_at.asc',
    });
    const url = () => `${server.url}/api/db/incidents?${q}`;
    let shape = '';
    const { latencies, errors } = await measure(
      url,
      { cookie: server.cookie },
      (s, b) => {
        const rows = b as { hypotheses: { evidences: unknown[] }[] }[];
        if (s !== 200 || rows.length !== 1) return false;
        const evidences = rows[0].hypotheses.reduce((n, h) => n + h.evidences.length, 0);
        shape = `${rows[0].hypotheses.length} hypotheses, ${evidences} evidences`;
        return rows[0].hypotheses.length === BIG_HYPOTHESES && evidences === BIG_EVIDENCES;
      },
      1,
    );
    const p95 = percentile(latencies, 95);
    return {
      driver: 'pg',
      result: `p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms over ${latencies.length} requests one at a time (${shape}), ${errors} errors`,
      target: '< 100 ms',
      met: p95 < 100 && errors === 0 ? 'yes' : 'no',
    };
  },
};
