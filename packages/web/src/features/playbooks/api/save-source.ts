import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PlaybookSourceInput } from '@watchdeck/core';
import { apiRequest } from '#web/lib/http.ts';

/** POST /api/playbook/sources (new) or PUT /api/playbook/sources/{id}: admins only. */
export function useSavePlaybookSource() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...input }: PlaybookSourceInput & { id?: string }) =>
      apiRequest<{ id: string }>(id ? `/playbook/sources/${id}` : '/playbook/sources', {
        method: id ? 'PUT' : 'POST',
        body: input,
      }),
    onSettled: () => qc.invalidateQueries({ queryKey: ['playbook_sources'] }),
  });
}
