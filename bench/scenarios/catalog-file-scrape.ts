import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshDb } from '../support.ts';
import { ScraperEngine } from '#server/catalog/engine.ts';
import { runJob } from '#server/jobs/job-history.ts';
import type { Scenario } from './index.ts';

const ITEMS = 10_000;
const CHANGED = ITEMS / 100;

/** A Kubernetes-like manifest: the body a file scraper typically reads. */
function manifest(i: number, replicas: number): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: app-${i}
  namespace: ns-${i % 50}
  uid: uid-${i}
  labels:
    app: app-${i}
    team: team-${i % 7}
spec:
  replicas: ${replicas}
  selector:
    matchLabels:
      app: app-${i}
  template:
    spec:
      containers:
        - name: app-${i}
          image: registry.example/app-${i}:1.${i % 10}.0
          resources:
            limits: {cpu: 500m, memory: 256Mi}
`;
}

/**
 * Issue 16's target: a file scrape of 10,000 items with 1% changed completes in under 10 s and
 * writes exactly the 100 changes. 10,000 YAML files are scraped once (all added), 100 of them are
 * edited, and the second run is timed: reading every file, comparing every body, and writing the
 * 100 diffs in one transaction. The count of changes is read back from the database.
 */
export const catalogFileScrape: Scenario = {
  name: `catalog: file scrape of ${ITEMS} items with ${CHANGED} changed`,
  async run() {
    const bench = await freshDb();
    const { db } = bench;
    const dir = mkdtempSync(join(tmpdir(), 'bench-catalog-'));
    try {
      mkdirSync(join(dir, 'manifests'));
      for (let i = 0; i < ITEMS; i++) writeFileSync(join(dir, 'manifests', `app-${i}.yaml`), manifest(i, 2));
      const { rows } = await db.query<{ id: string }>(
        `INSERT INTO config_scrapers (name, spec) VALUES ('bench', $1::jsonb) RETURNING id`,
        [
          JSON.stringify({
            file: [
              {
                paths: [`${dir}/manifests/*.yaml`],
                format: 'yaml',
                icon: 'kubernetes',
                type: '$.kind',
                id: '$.metadata.uid',
                name: '$.metadata.name',
              },
            ],
          }),
        ],
      );
      const scraper = { id: rows[0].id, name: 'bench', agent_id: '00000000-0000-0000-0000-000000000000', spec: {} };
      const engine = new ScraperEngine(db, { dataDir: join(dir, 'data'), fileRoots: [dir] });
      const run = async () => {
        const { rows: s } = await db.query<{ spec: Record<string, unknown> }>(
          `SELECT spec FROM config_scrapers WHERE id = $1`,
          [scraper.id],
        );
        const started = performance.now();
        const job = await runJob(
          db,
          { name: 'ConfigScraper', resourceType: 'config_scraper', resourceId: scraper.id },
          (ctx) => engine.run({ ...scraper, spec: s[0].spec }, ctx),
        );
        return { ms: performance.now() - started, status: job.status };
      };
      const first = await run();
      for (let i = 0; i < ITEMS; i += 100) writeFileSync(join(dir, 'manifests', `app-${i}.yaml`), manifest(i, 3));
      const second = await run();
      const { rows: counts } = await db.query<{ items: number; changes: number }>(
        `SELECT (SELECT count(*)::int FROM config_items WHERE deleted_at IS NULL) AS items,
           (SELECT count(*)::int FROM config_changes WHERE change_type = 'diff') AS changes`,
      );
      const { items, changes } = counts[0];
      const ok = second.ms < 10_000 && changes === CHANGED && items === ITEMS && second.status === 'SUCCESS';
      return {
        driver: db.driver,
        result: `first run (${ITEMS} added) ${(first.ms / 1000).toFixed(2)} s; run with ${CHANGED} changed ${(second.ms / 1000).toFixed(2)} s, ${changes} changes written, ${items} items`,
        target: `under 10 s, exactly ${CHANGED} changes`,
        met: ok ? 'yes' : 'no',
      };
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await bench.dispose();
    }
  },
};
