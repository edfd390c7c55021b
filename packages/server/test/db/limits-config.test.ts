import { describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config.ts';
import { testDrivers } from '../support/db.ts';
import { startApp } from '../support/app.ts';

/** The database limits' settings (README "Settings", "Limits") and their way into /api/db. */
describe('database limit settings', () => {
  it('have documented defaults and accept durations, sizes and 0 for no statement timeout', () => {
    expect(loadConfig({})).toMatchObject({
      dbStatementTimeoutMs: 30_000,
      dbMaxEmbeds: 20,
      dbMaxEmbedDepth: 5,
      dbMaxResponseBytes: 16 * 1024 * 1024,
    });
    const c = loadConfig({
      WATCHDECK_DB_STATEMENT_TIMEOUT: '2m',
      WATCHDECK_DB_MAX_EMBEDS: '3',
      WATCHDECK_DB_MAX_EMBED_DEPTH: '2',
      WATCHDECK_DB_MAX_RESPONSE_BYTES: '1048576',
    });
    expect(c).toMatchObject({
      dbStatementTimeoutMs: 120_000,
      dbMaxEmbeds: 3,
      dbMaxEmbedDepth: 2,
      dbMaxResponseBytes: 1_048_576,
    });
    expect(loadConfig({ WATCHDECK_DB_STATEMENT_TIMEOUT: '0' }).dbStatementTimeoutMs).toBe(0);
    expect(() => loadConfig({ WATCHDECK_DB_STATEMENT_TIMEOUT: 'soon' })).toThrow(/WATCHDECK_DB_STATEMENT_TIMEOUT/);
    expect(() => loadConfig({ WATCHDECK_DB_MAX_RESPONSE_BYTES: '10' })).toThrow(/WATCHDECK_DB_MAX_RESPONSE_BYTES/);
  });

  it('reach the /api/db engine of the app', async () => {
    const db = await testDrivers()[0].open();
    const { app, url } = await startApp(db, {
      authMode: 'none',
      dbMaxEmbeds: 1,
      dbMaxEmbedDepth: 1,
      dbMaxResponseBytes: 2048,
    });
    try {
      const get = async (path: string) => {
        const r = await fetch(url + path);
        return { status: r.status, body: (await r.json()) as Record<string, unknown> };
      };
      expect(await get('/api/db/incidents?select=id,a:created_by(id),b:commander_id(id)')).toMatchObject({
        status: 400,
        body: { code: '54000', message: 'The select has 2 embedded resources; at most 1 are allowed' },
      });
      expect(await get('/api/db/incidents?select=id,hypotheses(id,evidences(id))')).toMatchObject({
        status: 400,
        body: { code: '54000' },
      });
      expect((await get('/api/db/incidents?select=id,a:created_by(id)')).status).toBe(200);
      for (let i = 0; i < 40; i++)
        await db.query(`INSERT INTO incidents (title) VALUES ($1)`, [`incident number ${i}`]);
      expect(await get('/api/db/incidents?select=*')).toMatchObject({ status: 400, body: { code: '54000' } });
    } finally {
      await app.close();
      await db.dispose();
    }
  });
});
