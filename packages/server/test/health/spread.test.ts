import { describe, expect, it } from 'vitest';
import { testDrivers } from '../support/db.ts';
import { Scheduler } from '#server/jobs/scheduler.ts';
import { slotPhase } from '#server/jobs/schedule.ts';
import { nextRuntimeOf } from '#server/health/spec.ts';

/**
 * Canary jobs are spread over their interval (ScheduledJob.spread): each fires at its key's stable
 * offset instead of all at the interval's start, and checks.next_runtime says the same instant.
 */
describe('spread @every slots', () => {
  it('gives every key a stable offset inside the interval, spread across it', () => {
    const phases = Array.from({ length: 1000 }, (_, i) => slotPhase(`canary:${i}`, 30_000));
    expect(phases.every((p) => p >= 0 && p < 30_000 && Number.isInteger(p))).toBe(true);
    expect(slotPhase('canary:1', 30_000)).toBe(phases[1]);
    // roughly uniform: each tenth of the interval holds 5-15% of the keys
    const tenths = new Array(10).fill(0);
    for (const p of phases) tenths[Math.floor(p / 3000)]++;
    expect(Math.min(...tenths)).toBeGreaterThan(50);
    expect(Math.max(...tenths)).toBeLessThan(150);
  });

  it('next_runtime of a canary is its shifted slot', () => {
    const id = '6f1c2a9e-1111-4222-8333-944455556666';
    const after = new Date('2026-11-23T10:00:00.000Z');
    const next = nextRuntimeOf({ id, schedule: '@every 30s', spec: {} }, after)!;
    expect(next.getTime()).toBe(after.getTime() + slotPhase(`canary:${id}`, 30_000));
    expect(nextRuntimeOf({ id, schedule: null, spec: { schedule: '@every 1m' } }, after)).not.toBeNull();
    expect(nextRuntimeOf({ id, schedule: null, spec: {} }, after)).toBeNull();
  });

  const [driver] = testDrivers();
  it(`a spread job fires at its offset within each interval (${driver.name})`, async () => {
    const db = await driver.open();
    const fired: number[] = [];
    const key = 'canary:spread-test';
    const s = new Scheduler(db);
    s.addSource({
      name: 't',
      list: async () => [{ key, schedule: '@every 2s', spread: true, run: async () => void fired.push(Date.now()) }],
    });
    await s.start();
    await expect.poll(() => fired.length, { timeout: 6000 }).toBeGreaterThanOrEqual(2);
    await s.stop();
    const phase = slotPhase(key, 2000);
    for (const t of fired) expect((t - phase + 2000) % 2000).toBeLessThan(300);
    await db.dispose();
  });
});
