import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isFeatureDisabled, type Property } from '@watchdeck/core';
import type { Db } from '../db/index.ts';
import { noReadInput, typed } from '../http/validation.ts';

export { TABLE_FEATURES } from './features.ts';

/**
 * Properties (feature flags and other settings): rows of the `properties` table, overlaid by the
 * read-only local flags of WATCHDECK_PROPERTIES. Read on every guarded request, so the merged map
 * is cached briefly; writers call invalidate() (a replica that did not write catches up within
 * the cache lifetime).
 */
export interface PropertiesService {
  /** name -> value, local flags winning over database rows */
  values(): Promise<Record<string, string>>;
  list(): Promise<Property[]>;
  isDisabled(feature: string): Promise<boolean>;
  invalidate(): void;
}

const PROPERTIES_CACHE_MS = 5000;

export function createPropertiesService(
  db: Db,
  local: Record<string, string>,
  cacheMs = PROPERTIES_CACHE_MS,
): PropertiesService {
  // the list and the name -> value map built from it: every /api/db request asks isDisabled
  let cached: { at: number; list: Promise<Property[]>; values: Promise<Record<string, string>> } | undefined;

  const load = async (): Promise<Property[]> => {
    const r = await db.query<{ name: string; value: string }>(
      `SELECT name, value FROM properties ORDER BY name LIMIT 10000`,
    );
    const merged = new Map<string, Property>();
    for (const row of r.rows) merged.set(row.name, { name: row.name, value: row.value, source: 'db' });
    for (const [name, value] of Object.entries(local)) merged.set(name, { name, value, source: 'local' });
    return [...merged.values()].sort((a, b) => a.name.localeCompare(b.name));
  };

  const current = () => {
    if (!cached || Date.now() - cached.at > cacheMs) {
      const p = load();
      const v = p.then((l) => Object.fromEntries(l.map((x) => [x.name, x.value])));
      cached = { at: Date.now(), list: p, values: v };
      v.catch(() => (cached = undefined)); // never cache a failure
    }
    return cached;
  };
  const list = () => current().list;
  const values = () => current().values;

  return {
    list,
    values,
    async isDisabled(feature) {
      return isFeatureDisabled(feature, await values());
    },
    invalidate() {
      cached = undefined;
    },
  };
}

/**
 * GET /api/properties answers propertiesSchema. The web app needs the feature flags before anyone
 * signs in (routes render after flags load), so anonymous callers get the '*.disable' flags only;
 * other settings need a caller.
 */
export function propertiesRoutes(
  app: FastifyInstance,
  svc: PropertiesService,
  hasCaller: (req: FastifyRequest) => Promise<boolean>,
) {
  typed(app).get('/api/properties', { config: { public: true }, schema: noReadInput }, async (req) => {
    const all = await svc.list();
    if (await hasCaller(req)) return all;
    return all.filter((p) => p.name.endsWith('.disable'));
  });
}
