/** react-query keys of the catalog, so writes can drop what they change. */
export const catalogKeys = {
  all: ['catalog'] as const,
  list: (params: unknown) => ['catalog', 'list', params] as const,
  summary: (params: unknown) => ['catalog', 'summary', params] as const,
  detail: (id: string) => ['catalog', 'detail', id] as const,
  changes: (params: unknown) => ['catalog', 'changes', params] as const,
  change: (id: string) => ['catalog', 'change', id] as const,
  insights: (params: unknown) => ['catalog', 'insights', params] as const,
  relationships: (params: unknown) => ['catalog', 'relationships', params] as const,
  values: (what: string) => ['catalog', 'values', what] as const,
};
