/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { testDrivers } from '../support/db.ts';
import { startApp } from '../support/app.ts';
import type { Db } from '#server/db/index.ts';
import { DOD_JOB_NAME, incidentJobSource } from '#server/incidents/index.ts';
import { apiAt, createIncident, type Api } from './support.ts';
import { NESTED } from '../cel/expressions.ts';

/**
 * Issue 12 point 5 over HTTP: a definition-of-done script over the CEL limits is refused when it
 * is saved (400, PostgREST's shape, nothing written), and one that is only costly on real data
 * (stored before the limits existed) is stopped by the scheduled job with the reason in job
 * history, well before it could stall the API.
 */
for (const driver of testDrivers()) {
  describe(`costly definition-of-done scripts (${driver.name})`, () => {
    let db: Db & { dispose(): Promise<void> };
    let app: FastifyInstance;
    let api: Api;

    beforeAll(async () => {
      db = await driver.open();
      let url: string;
      ({ app, url } = await startApp(db, { authMode: 'none', secretKey: 'dod-limit-key-0123456789' }));
      api = apiAt(url);
    });
    afterAll(async () => {
      await app?.close();
      await db?.dispose();
    });

    it('refuses a script over the limits on save with a clear 400, and writes nothing', async () => {
      const inc = await createIncident(api);
      const hyp = (await api('POST', '/api/db/hypotheses', { incident_id: inc.id, title: 'root', type: 'root' }))
        .body[0];
      const started = performance.now();
      const bad = await api('POST', '/api/db/evidences', {
        hypothesis_id: hyp.id,
        type: 'check',
        definition_of_done: true,
        script: NESTED,
      });
      expect(performance.now() - started).toBeLessThan(3000);
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ code: '23514', details: `script: ${NESTED}` });
      expect(bad.body.message).toMatch(
        /^The definition of done script is too costly to run: it could take about [\d,]+ steps, more than the limit of 500,000/,
      );
      // nested over a variable: the estimate takes a collection of unknown size as 100 items
      const overData = await api('POST', '/api/db/evidences', {
        hypothesis_id: hyp.id,
        type: 'check',
        script: 'check.labels.all(a, check.labels.all(b, check.labels.all(c, a + b + c != "")))',
      });
      expect(overData.status).toBe(400);
      expect(overData.body.message).toMatch(/too costly to run/);
      // a string that grows with each level: cheap to estimate, stopped on the sample
      const growing = await api('PATCH', `/api/db/evidences?hypothesis_id=eq.${hyp.id}`, {
        script: `[["x"].map(a, [a+a+a+a+a+a+a+a+a+a].map(b, [b+b+b+b+b+b+b+b+b+b].map(c, [c+c+c+c+c+c+c+c+c+c].map(d, [d+d+d+d+d+d+d+d+d+d].map(e, [e+e+e+e+e+e+e+e+e+e].map(f, [f+f+f+f+f+f+f+f+f+f].map(g, [g+g+g+g+g+g+g+g+g+g].map(h, h.size()))))))))].size() == 1`,
      });
      expect(growing.status).toBe(400);
      expect(growing.body.message).toMatch(/too costly to run: it built a value larger than 2,000,000/);
      expect((await api('GET', `/api/db/evidences?hypothesis_id=eq.${hyp.id}`)).body).toEqual([]);
    });

    it('the scheduled job stops a script that is costly on real data and records why', async () => {
      // 60 labels: three nested all() over them is 216,000 iterations of a 6-step body
      const labels = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`k${i}`, `v${i}`]));
      const canary = (
        await db.query<{ id: string }>(`INSERT INTO canaries (name, spec) VALUES ('dod-limit', '{}') RETURNING id`)
      ).rows[0].id;
      const check = (
        await db.query<{ id: string }>(
          `INSERT INTO checks (canary_id, name, type, status, labels) VALUES ($1, 'api', 'http', 'healthy', $2) RETURNING id`,
          [canary, JSON.stringify(labels)],
        )
      ).rows[0].id;
      const inc = await createIncident(api);
      const hyp = (await api('POST', '/api/db/hypotheses', { incident_id: inc.id, title: 'root', type: 'root' }))
        .body[0];
      const script = 'check.labels.all(a, check.labels.all(b, check.labels.all(c, a + b + c != "")))';
      // stored directly, as a script saved before the limits existed would be
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const { rows } = await db.query<{ id: string }>(
          `INSERT INTO evidences (hypothesis_id, type, check_id, definition_of_done, script) VALUES ($1, 'check', $2, true, $3) RETURNING id`,
          [hyp.id, check, script],
        );
        ids.push(rows[0].id);
      }
      const [job] = await incidentJobSource(db).list();
      const started = performance.now();
      await job.run();
      expect(performance.now() - started).toBeLessThan(5000);
      const run = (
        await db.query<any>(
          `SELECT status, details FROM job_history WHERE name = $1 ORDER BY time_start DESC LIMIT 1`,
          [DOD_JOB_NAME],
        )
      ).rows[0];
      const text = JSON.stringify(run.details);
      for (const id of ids) expect(text).toContain(id);
      expect(text).toMatch(/stopped: it (took more than 500,000 steps|ran longer than 1000 ms)/);
    });
  });
}
