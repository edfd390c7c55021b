import { queryOptions } from '@tanstack/react-query';
import { aboutSchema } from '@watchdeck/core';
import { apiRequest } from './http.ts';

/** GET /api/about: the backend version. */
export const aboutQuery = queryOptions({
  queryKey: ['about'],
  queryFn: async ({ signal }) => aboutSchema.parse(await apiRequest<unknown>('/about', { signal })),
  staleTime: 5 * 60_000,
});
