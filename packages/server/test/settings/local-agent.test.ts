import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_AGENT_ID } from '@watchdeck/core';
import type { FastifyInstance } from 'fastify';
import { testDrivers } from '../support/db.ts';
import { startApp } from '../support/app.ts';
import type { Db } from '#server/db/index.ts';

/**
 * The local agent (the server's own engines) is online by the 61-second rule for as long as the
 * engines run: seen when they start and every 30 seconds after, not only at start-up.
 */
const LOCAL = LOCAL_AGENT_ID;

for (const driver of testDrivers()) {
  describe(`local agent heartbeat (${driver.name})`, () => {
    let db: Db & { dispose(): Promise<void> };
    let app: FastifyInstance;
    let url: string;
    beforeAll(async () => {
      db = await driver.open();
      ({ app, url } = await startApp(db, { authMode: 'none' }));
    });
    afterAll(async () => {
      await app?.close();
      await db?.dispose();
    });

    /** seconds since the local agent was last seen, as the agents list reads it (null: never) */
    const age = async () => {
      const res = await fetch(`${url}/api/db/agents_summary?id=eq.${LOCAL}&select=last_seen`);
      const [row] = (await res.json()) as { last_seen: string | null }[];
      return row.last_seen === null ? null : (Date.now() - Date.parse(row.last_seen)) / 1000;
    };

    it('is seen when the engines start and keeps being seen while they run', async () => {
      expect(await age()).toBeNull();
      await app.engines.start();
      expect(await age()).toBeLessThan(5);
      // as if the process had been running for minutes without a heartbeat
      await db.query(`UPDATE agents SET last_seen = now() - interval '5 minutes' WHERE id = $1`, [LOCAL]);
      expect(await age()).toBeGreaterThan(61);
      await expect.poll(age, { timeout: 35_000, interval: 500 }).toBeLessThan(61);
    }, 45_000);

    it('is no longer refreshed once the engines stop', async () => {
      await app.engines.stop();
      await db.query(`UPDATE agents SET last_seen = now() - interval '5 minutes' WHERE id = $1`, [LOCAL]);
      await new Promise((r) => setTimeout(r, 31_000));
      expect(await age()).toBeGreaterThan(61);
    }, 40_000);
  });
}
