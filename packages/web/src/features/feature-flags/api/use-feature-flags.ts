import { useQuery, type QueryClient } from '@tanstack/react-query';
import { propertiesSchema } from '@watchdeck/core';
import { db, unwrap } from '#web/lib/api.ts';
import { apiGet } from '#web/lib/http.ts';
import { propertiesQuery } from '#web/lib/session.tsx';

/** A feature flag as the page shows it (seed 002 section 3 "Feature flag"). */
export interface FeatureFlag {
  name: string;
  value: string;
  description: string | null;
  /** 'local': from the server's environment (WATCHDECK_PROPERTIES), read-only */
  source: 'local' | 'db';
  created_by: { id: string; name: string; avatar?: string | null } | null;
  created_at: string | null;
  updated_at: string | null;
}

const featureFlagsKey = ['feature-flags', 'list'] as const;

/**
 * After a write: the list and the session's flags are reloaded, so a feature switched off
 * disappears from the app at once (not awaited: the write is done).
 */
export function refreshFeatureFlags(qc: QueryClient): void {
  void qc.invalidateQueries({ queryKey: featureFlagsKey });
  void qc.invalidateQueries({ queryKey: propertiesQuery.queryKey });
}

/** Most flags one list shows; a console has a handful to a few hundred. */
const LIMIT = 1000;

/**
 * The database flags with their details (GET /api/db/properties) and the local ones
 * (GET /api/properties, source 'local'). A local flag overrides a database one of the same name
 * on the server, so that database row is shown as well: it can still be removed.
 */
export function useFeatureFlags() {
  return useQuery({
    queryKey: featureFlagsKey,
    queryFn: async ({ signal }) => {
      const [rows, merged] = await Promise.all([
        db
          .from('properties')
          .select('name,value,description,created_at,updated_at,created_by(id,name,avatar)')
          .order('name', { ascending: true })
          .limit(LIMIT)
          .abortSignal(signal),
        apiGet<unknown>('/properties', signal),
      ]);
      const stored = (unwrap(rows) as unknown as Omit<FeatureFlag, 'source'>[]).map((r) => ({
        ...r,
        source: 'db' as const,
      }));
      const local: FeatureFlag[] = propertiesSchema
        .parse(merged)
        .filter((p) => p.source === 'local')
        .map((p) => ({
          name: p.name,
          value: p.value,
          description: null,
          source: 'local',
          created_by: null,
          created_at: null,
          updated_at: null,
        }));
      return [...local, ...stored].sort((a, b) => a.name.localeCompare(b.name) || (a.source === 'local' ? -1 : 1));
    },
  });
}
