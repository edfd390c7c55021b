/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AUTOMATIC_DOD_TYPES, DOD_DEFAULT_SCRIPTS, DOD_SCRIPT_EXAMPLES } from '@watchdeck/core';
import { testDrivers } from '../support/db.ts';
import { startApp } from '../support/app.ts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '#server/db/index.ts';
import { dodScriptProblem, evaluateDod, type DodRow } from '#server/incidents/dod.ts';
import { DOD_JOB_KEY, DOD_JOB_NAME, DOD_WRITTEN_EVENT, incidentJobSource } from '#server/incidents/index.ts';
import { apiAt, createIncident, waitFor, type Api } from './support.ts';

/**
 * The automatic definition of done (seed 001 section 4; incidents/dod.ts): the script examples the
 * web offers mean what they say, bad scripts are refused at write time, and evidences flip done
 * (and back) as their check or component changes, with incident.dod.passed / .regressed events;
 * the scheduled job evaluates time-based conditions and is recorded in job history.
 */
const NOW = new Date('2026-03-01T12:00:00Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();
const MIN = 60_000;

function row(type: DodRow['type'], script: string | null, resource: Record<string, unknown>): DodRow {
  const base = { id: 'e1', created_at: ago(60 * MIN), updated_at: ago(60 * MIN) };
  return {
    id: 'e1',
    type,
    done: false,
    script,
    hypothesis_id: 'h1',
    incident_id: 'i1',
    evidence: { ...base, type },
    incident: { ...base, status: 'open', title: 'x' },
    check_row: type === 'check' ? { ...base, name: 'api', ...resource } : null,
    component: type === 'topology' || type === 'log' ? { ...base, name: 'db', ...resource } : null,
    config:
      type === 'config' || type === 'config_analysis' || type === 'config_change'
        ? { ...base, name: 'pod', health: 'healthy', ...(type === 'config' ? resource : {}) }
        : null,
    analysis: type === 'config_analysis' ? { ...base, ...resource } : null,
    change: type === 'config_change' ? { ...base, change_type: 'diff', ...resource } : null,
  };
}

describe('definition-of-done expressions', () => {
  const [checkAged, analysisResolved, topologyHealthy] = DOD_SCRIPT_EXAMPLES.map((e) => e.script);

  it('evaluates the three examples the web offers', () => {
    expect(DOD_SCRIPT_EXAMPLES.map((e) => e.label)).toEqual([
      'Check healthy for over 5 minutes',
      'Analysis resolved',
      'Topology status healthy',
    ]);
    expect(
      evaluateDod(row('check', checkAged, { status: 'healthy', last_transition_time: ago(6 * MIN) }), NOW),
    ).toEqual({ done: true });
    expect(
      evaluateDod(row('check', checkAged, { status: 'healthy', last_transition_time: ago(4 * MIN) }), NOW),
    ).toEqual({ done: false });
    expect(
      evaluateDod(row('check', checkAged, { status: 'unhealthy', last_transition_time: ago(60 * MIN) }), NOW),
    ).toEqual({ done: false });
    expect(evaluateDod(row('config_analysis', analysisResolved, { status: 'resolved' }), NOW)).toEqual({ done: true });
    expect(evaluateDod(row('config_analysis', analysisResolved, { status: 'open' }), NOW)).toEqual({ done: false });
    expect(evaluateDod(row('topology', topologyHealthy, { status: 'healthy' }), NOW)).toEqual({ done: true });
    expect(evaluateDod(row('topology', topologyHealthy, { status: 'warning' }), NOW)).toEqual({ done: false });
  });

  it('applies the default of each type without a script, and gives timestamps and ages to scripts', () => {
    expect(DOD_DEFAULT_SCRIPTS.check).toBe(checkAged);
    expect(evaluateDod(row('check', null, { status: 'healthy', last_transition_time: ago(10 * MIN) }), NOW)).toEqual({
      done: true,
    });
    expect(evaluateDod(row('check', '  ', { status: 'healthy', last_transition_time: ago(1 * MIN) }), NOW)).toEqual({
      done: false,
    });
    expect(evaluateDod(row('topology', null, { status: 'healthy' }), NOW)).toEqual({ done: true });
    expect(evaluateDod(row('config', null, { health: 'unhealthy' }), NOW)).toEqual({ done: false });
    expect(evaluateDod(row('config_analysis', null, { status: 'resolved' }), NOW)).toEqual({ done: true });
    const times = row(
      'check',
      'now - check.last_transition_time > duration("2m") && check.age < duration("3m") && evidence.age > duration("59m")',
      {
        status: 'healthy',
        last_transition_time: ago(150_000),
      },
    );
    expect(evaluateDod(times, NOW)).toEqual({ done: true });
    expect(evaluateDod(row('check', 'check.name', { status: 'healthy' }), NOW)).toEqual({
      error: 'the script returned "api", not true or false',
    });
    expect(evaluateDod({ ...row('check', null, {}), check_row: null }, NOW)).toEqual({
      error: 'the check of this evidence no longer exists',
    });
  });

  it('judges a config change by the config it changed and a log by its component', () => {
    expect(AUTOMATIC_DOD_TYPES).toEqual(expect.arrayContaining(['config_change', 'log']));
    const change = (
      config: Record<string, unknown>,
      script: string | null = null,
      c: Record<string, unknown> = {},
    ) => ({
      ...row('config_change', script, c),
      config: { id: 'c1', name: 'checkout', health: 'healthy', updated_at: ago(MIN), ...config },
    });
    expect(evaluateDod(change({ health: 'healthy' }), NOW)).toEqual({ done: true });
    expect(evaluateDod(change({ health: 'unhealthy' }), NOW)).toEqual({ done: false });
    const rolledBack =
      'change.change_type == "Deployment" && change.age > duration("10m") && config.health == "healthy"';
    expect(evaluateDod(change({}, rolledBack, { change_type: 'Deployment', created_at: ago(20 * MIN) }), NOW)).toEqual({
      done: true,
    });
    expect(evaluateDod(change({}, rolledBack, { change_type: 'Deployment', created_at: ago(5 * MIN) }), NOW)).toEqual({
      done: false,
    });
    expect(evaluateDod({ ...change({}), change: null }, NOW)).toEqual({
      error: 'the config change of this evidence no longer exists',
    });

    expect(evaluateDod(row('log', null, { status: 'healthy' }), NOW)).toEqual({ done: true });
    expect(evaluateDod(row('log', null, { status: 'unhealthy' }), NOW)).toEqual({ done: false });
    expect(evaluateDod({ ...row('log', null, {}), component: null }, NOW)).toEqual({
      error: 'this log evidence names no component to follow; mark it done by hand',
    });
    expect(dodScriptProblem('change.severity == "high" && change.age > duration("1h")')).toBeUndefined();
  });

  it('judges scripts before they are stored', () => {
    for (const e of DOD_SCRIPT_EXAMPLES) expect(dodScriptProblem(e.script), e.script).toBeUndefined();
    for (const s of Object.values(DOD_DEFAULT_SCRIPTS)) expect(dodScriptProblem(s), s).toBeUndefined();
    expect(dodScriptProblem('config.labels.team == "sre"')).toBeUndefined(); // a field the sample lacks is fine
    expect(dodScriptProblem('check.status ==')).toMatch(/expecting/);
    expect(dodScriptProblem('healthy(check)')).toMatch(/unbound function/);
    expect(dodScriptProblem('check.name')).toBe('it gives "sample"; a definition of done is true or false');
  });
});

for (const driver of testDrivers()) {
  describe(`definition of done over HTTP (${driver.name})`, () => {
    let db: Db & { dispose(): Promise<void> };
    let app: FastifyInstance;
    let api: Api;
    let target: http.Server;
    let targetUrl: string;
    const healthy = new Set<string>();

    beforeAll(async () => {
      db = await driver.open();
      target = http.createServer((req, res) => {
        const name = (req.url ?? '').slice(1);
        res.writeHead(healthy.has(name) ? 200 : 500).end(healthy.has(name) ? 'ok' : 'down');
      });
      await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
      targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
      let url: string;
      ({ app, url } = await startApp(db, { authMode: 'none', secretKey: 'dod-test-key-0123456789' }));
      api = apiAt(url);
      // incident.dod.* are for notifications, which do not exist yet: a consumer of this test's
      // makes them stored (an event nobody consumes is not), so they can be read below
      app.engines.queue.consume('test.dod', ['incident.dod.passed', 'incident.dod.regressed'], async () => {});
      await app.engines.start();
    });
    afterAll(async () => {
      await app?.close();
      await new Promise<void>((r) => (target ? target.close(() => r()) : r()));
      await db?.dispose();
    });

    /** a canary with one HTTP check against the target; returns the check id */
    const check = async (name: string) => {
      const c = await api('POST', '/api/db/canaries', {
        name: `dod-${name}`,
        schedule: '@every 1h',
        spec: { http: [{ name, url: `${targetUrl}/${name}`, responseCodes: [200] }] },
      });
      expect(c.status, JSON.stringify(c.body)).toBe(201);
      const rows = (await db.query<{ id: string }>(`SELECT id FROM checks WHERE canary_id = $1`, [c.body[0].id])).rows;
      return rows[0].id;
    };
    const runNow = async (checkId: string, expected: 'healthy' | 'unhealthy') => {
      const r = await api('POST', `/api/canary/run/check/${checkId}`);
      expect(r.body?.status, JSON.stringify(r.body)).toBe(expected);
    };
    const evidenceFor = async (incidentId: string, o: Record<string, unknown>) => {
      const hyp = (await api('POST', '/api/db/hypotheses', { incident_id: incidentId, title: 'root', type: 'root' }))
        .body[0];
      const e = await api('POST', '/api/db/evidences', { hypothesis_id: hyp.id, definition_of_done: true, ...o });
      expect(e.status, JSON.stringify(e.body)).toBe(201);
      return e.body[0];
    };
    const evidence = async (id: string) => (await api('GET', `/api/db/evidences?id=eq.${id}`)).body[0];
    const dodEvents = async (id: string) =>
      (
        await db.query<{ name: string }>(
          `SELECT name FROM event_queue WHERE name LIKE 'incident.dod.%' AND properties ->> 'evidence_id' = $1 ORDER BY created_at`,
          [id],
        )
      ).rows.map((r) => r.name);

    it('refuses a script that does not compile, with a 400 saying why, and writes nothing', async () => {
      const inc = await createIncident(api);
      const hyp = (await api('POST', '/api/db/hypotheses', { incident_id: inc.id, title: 'root', type: 'root' }))
        .body[0];
      const bad = await api('POST', '/api/db/evidences', {
        hypothesis_id: hyp.id,
        type: 'check',
        definition_of_done: true,
        script: 'check.status == ',
      });
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe('23514');
      expect(bad.body.message).toMatch(/^The definition of done script is not a valid CEL expression: /);
      expect(bad.body.details).toBe('script: check.status == ');
      const unknownFn = await api('POST', '/api/db/evidences', {
        hypothesis_id: hyp.id,
        type: 'check',
        script: 'isHealthy(check)',
      });
      expect(unknownFn.status).toBe(400);
      expect(unknownFn.body.message).toMatch(/unbound function/);
      expect((await api('GET', `/api/db/evidences?hypothesis_id=eq.${hyp.id}`)).body).toEqual([]);
      const ok = await api('POST', '/api/db/evidences', {
        hypothesis_id: hyp.id,
        type: 'check',
        script: DOD_SCRIPT_EXAMPLES[0].script,
      });
      expect(ok.status).toBe(201);
      const patched = await api('PATCH', `/api/db/evidences?id=eq.${ok.body[0].id}`, { script: 'check.age >' });
      expect(patched.status).toBe(400);
    });

    it('turns done when the check turns healthy and regresses when it fails again, with events', async () => {
      const id = await check('orders');
      await runNow(id, 'unhealthy');
      const inc = await createIncident(api);
      const ev = await evidenceFor(inc.id, { type: 'check', check_id: id, script: 'check.status == "healthy"' });
      expect(ev.done).toBe(false);

      healthy.add('orders');
      await runNow(id, 'healthy');
      await waitFor(
        () => evidence(ev.id),
        (e) => e.done === true,
        'done after check.passed',
      );
      expect(await dodEvents(ev.id)).toEqual(['incident.dod.passed']);
      const passed = (
        await db.query<any>(
          `SELECT properties FROM event_queue WHERE name = 'incident.dod.passed' AND properties ->> 'evidence_id' = $1`,
          [ev.id],
        )
      ).rows[0];
      expect(passed.properties).toMatchObject({
        incident_id: inc.id,
        type: 'check',
        done: true,
        script: 'check.status == "healthy"',
      });

      healthy.delete('orders');
      await runNow(id, 'unhealthy');
      await waitFor(
        () => evidence(ev.id),
        (e) => e.done === false,
        'not done after check.failed',
      );
      expect(await dodEvents(ev.id)).toEqual(['incident.dod.passed', 'incident.dod.regressed']);
    });

    it('evaluates time-based definitions on its schedule, recorded in job history, and skips closed incidents', async () => {
      expect(app.engines.scheduler.jobKeys()).toContain(DOD_JOB_KEY);
      const id = await check('ledger');
      healthy.add('ledger');
      await runNow(id, 'healthy');
      const inc = await createIncident(api);
      const aged = await evidenceFor(inc.id, { type: 'check', check_id: id }); // the default: healthy for 5 minutes
      const closedInc = await createIncident(api);
      const closedEv = await evidenceFor(closedInc.id, {
        type: 'check',
        check_id: id,
        script: 'check.status == "healthy"',
      });
      expect((await api('PATCH', `/api/db/incidents?id=eq.${closedInc.id}`, { status: 'closed' })).status).toBe(200);

      const [job] = await incidentJobSource(db).list();
      expect(job).toMatchObject({ key: DOD_JOB_KEY, schedule: '@every 1m' });
      await job.run();
      expect((await evidence(aged.id)).done).toBe(false); // healthy for seconds only
      // five minutes pass
      await db.query(`UPDATE checks SET last_transition_time = now() - interval '6 minutes' WHERE id = $1`, [id]);
      await job.run();
      expect((await evidence(aged.id)).done).toBe(true);
      expect(await dodEvents(aged.id)).toEqual(['incident.dod.passed']);
      expect((await evidence(closedEv.id)).done).toBe(false);

      const runs = (
        await db.query<any>(
          `SELECT status, success_count, details FROM job_history WHERE name = $1 ORDER BY time_start`,
          [DOD_JOB_NAME],
        )
      ).rows;
      expect(runs.length).toBeGreaterThanOrEqual(2);
      // (the scheduler's own run may have been the one that flipped it; the event shows it flipped once)
      expect(runs.some((r: any) => r.details.summary?.passed >= 1)).toBe(true);
      expect(runs.every((r: any) => ['SUCCESS', 'WARNING'].includes(r.status))).toBe(true);
    });

    it('judges a config change by its config, at once when it joins the definition of done', async () => {
      const config = (
        await db.query<{ id: string }>(
          `INSERT INTO config_items (type, config_class, name, health) VALUES ('Kubernetes::Deployment', 'Deployment', 'checkout', 'unhealthy') RETURNING id`,
        )
      ).rows[0].id;
      const change = (
        await db.query<{ id: string }>(
          `INSERT INTO config_changes (config_id, change_type, summary) VALUES ($1, 'Deployment', 'image 1.4.2') RETURNING id`,
          [config],
        )
      ).rows[0].id;
      const jobRuns = async () =>
        Number(
          (await db.query<{ n: string }>(`SELECT count(*) AS n FROM job_history WHERE name = $1`, [DOD_JOB_NAME]))
            .rows[0].n,
        );
      const inc = await createIncident(api);
      // the web names the change only (Add Evidence), not its config
      const ev = await evidenceFor(inc.id, {
        type: 'config_change',
        config_change_id: change,
        definition_of_done: false,
      });
      const [job] = await incidentJobSource(db).list();
      await job.run();
      expect((await evidence(ev.id)).done).toBe(false); // not part of the definition of done yet

      await db.query(`UPDATE config_items SET health = 'healthy' WHERE id = $1`, [config]);
      // no scheduled evaluation meanwhile: what flips it must be the write's own event
      await app.engines.scheduler.stop();
      try {
        const runsBefore = await jobRuns();
        const added = await api('PATCH', `/api/db/evidences?id=eq.${ev.id}`, {
          definition_of_done: true,
          script: null,
        });
        expect(added.status, JSON.stringify(added.body)).toBe(200);
        // judged by the write's event, not by the minute's job
        await waitFor(
          () => evidence(ev.id),
          (e) => e.done === true,
          'done once added, its config being healthy',
        );
        expect(await jobRuns()).toBe(runsBefore);
      } finally {
        await app.engines.scheduler.start();
      }
      expect(await dodEvents(ev.id)).toEqual(['incident.dod.passed']);
      // the write's event was handled and is gone (none left pending or failed)
      await waitFor(
        async () =>
          (
            await db.query(
              `SELECT d.status, d.error FROM event_deliveries d JOIN event_queue e ON e.id = d.event_id
               WHERE e.name = $1 AND e.properties ->> 'evidence_id' = $2 AND d.status <> 'done'`,
              [DOD_WRITTEN_EVENT, ev.id],
            )
          ).rows,
        (rows) => rows.length === 0,
        'the dod_changed event consumed',
      );

      // and the scheduled job follows the config from then on
      await db.query(`UPDATE config_items SET health = 'unhealthy' WHERE id = $1`, [config]);
      await job.run();
      expect((await evidence(ev.id)).done).toBe(false);
      expect(await dodEvents(ev.id)).toEqual(['incident.dod.passed', 'incident.dod.regressed']);
    });

    it('follows a component: its status change is an event and re-evaluates its definitions of done', async () => {
      const comp = (
        await db.query<{ id: string }>(
          `INSERT INTO components (name, type, status) VALUES ('orders-db', 'Database', 'unhealthy') RETURNING id`,
        )
      ).rows[0].id;
      const inc = await createIncident(api);
      const ev = await evidenceFor(inc.id, {
        type: 'topology',
        component_id: comp,
        script: DOD_SCRIPT_EXAMPLES[2].script,
      });
      await db.query(`UPDATE components SET status = 'healthy' WHERE id = $1`, [comp]);
      await waitFor(
        () => evidence(ev.id),
        (e) => e.done === true,
        'done after the component recovered',
      );
      const events = (
        await db.query<any>(
          `SELECT name, properties FROM event_queue WHERE properties ->> 'component_id' = $1 ORDER BY created_at`,
          [comp],
        )
      ).rows;
      expect(events.map((e: any) => e.name)).toEqual(['component.status.unhealthy', 'component.status.healthy']);
      expect(events[1].properties).toMatchObject({ status: 'healthy', previous: 'unhealthy', name: 'orders-db' });
      const stamped = (await db.query<any>(`SELECT last_transition_time FROM components WHERE id = $1`, [comp]))
        .rows[0];
      expect(stamped.last_transition_time).not.toBeNull();
    });
  });
}
