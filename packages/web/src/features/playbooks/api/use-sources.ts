import { useQuery } from '@tanstack/react-query';
import { apiGet } from '#web/lib/http.ts';

/** A sync's job-history row, as the sources list carries the last one. */
export interface SourceSync {
  id: string;
  status: 'RUNNING' | 'SUCCESS' | 'WARNING' | 'FAILED' | 'STOPPED';
  time_start: string;
  time_end: string | null;
  duration_millis: number | null;
  details: {
    summary?: { added: number; updated: number; unchanged: number; deleted: number; errors: number };
    commit?: string;
    /** by file: 'path: problem' (or one message when the sync failed as a whole) */
    errors?: Record<string, string> | string | string[];
    warnings?: string[];
  } | null;
}

/** A playbook source (GET /api/playbook/sources). */
export interface PlaybookSource {
  id: string;
  name: string;
  url: string | null;
  connection: string | null;
  ref: string | null;
  directory: string | null;
  paths: string[];
  schedule: string | null;
  created_at: string;
  updated_at: string;
  syncing: boolean;
  playbooks: number;
  last_sync: SourceSync | null;
}

/** The playbook sources with their last sync. */
export function usePlaybookSources() {
  return useQuery({
    queryKey: ['playbook_sources'],
    queryFn: ({ signal }) => apiGet<PlaybookSource[]>('/playbook/sources', signal),
  });
}
