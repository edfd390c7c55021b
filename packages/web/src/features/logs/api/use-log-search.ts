import { useInfiniteQuery } from '@tanstack/react-query';
import { LOG_PAGE_SIZE, type LogSearchRequest, type LogSearchResult } from '@watchdeck/core';
import { apiPost } from '#web/lib/http.ts';

export interface LogSearch {
  id: string;
  name: string;
  query: string;
  start: string;
  /** Kubernetes sources: the previous (terminated, e.g. crashed) instance of each container */
  previous?: boolean;
}

/** POST /api/logs ("Log search: component id, source name, query, start"), page after page, newest first. */
export function useLogSearch(search: LogSearch | undefined) {
  return useInfiniteQuery({
    queryKey: ['logs', 'search', search],
    queryFn: ({ pageParam, signal }) => {
      const body: LogSearchRequest = {
        id: search!.id,
        name: search!.name,
        start: search!.start,
        limit: LOG_PAGE_SIZE,
        ...(search!.query ? { query: search!.query } : {}),
        ...(search!.previous ? { previous: true } : {}),
        ...(pageParam ? { page: pageParam } : {}),
      };
      return apiPost<LogSearchResult>('/logs', body, { signal });
    },
    initialPageParam: '',
    getNextPageParam: (last) => last.next,
    enabled: !!search,
    // a backend's failure is shown as it is; asking again is the refresh button's job
    retry: false,
  });
}
