import { describe, expect, it } from 'vitest';
import { defaultPoolSize, loadConfig } from '#server/config.ts';

/** WATCHDECK_DB_POOL_SIZE unset: sized to the machine and to the engines this process runs. */
describe('default PostgreSQL pool size', () => {
  it('is two connections per core and one more, between 4 and 20', () => {
    expect(defaultPoolSize('api', 2, 1)).toBe(4);
    expect(defaultPoolSize('api', 2, 2)).toBe(5);
    expect(defaultPoolSize('api', 2, 4)).toBe(9);
    expect(defaultPoolSize('api', 2, 64)).toBe(20);
  });

  it('adds one connection per event-queue worker when the process runs the engines', () => {
    expect(defaultPoolSize('all', 2, 2)).toBe(7);
    expect(defaultPoolSize('worker', 8, 2)).toBe(13);
  });

  it('takes WATCHDECK_DB_POOL_SIZE when it is set', () => {
    expect(loadConfig({ WATCHDECK_DB_POOL_SIZE: '30' }).dbPoolSize).toBe(30);
    expect(loadConfig({ WATCHDECK_ROLE: 'api' }).dbPoolSize).toBe(defaultPoolSize('api', 2));
  });
});
