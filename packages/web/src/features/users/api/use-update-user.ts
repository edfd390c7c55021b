import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EditUserInput, UserRecord } from '@watchdeck/core';
import { apiRequest } from '#web/lib/http.ts';
import { usersKeys } from './users.ts';

export function useUpdateUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...patch }: Partial<EditUserInput> & { id: string }) =>
      apiRequest<UserRecord>(`/auth/users/${encodeURIComponent(id)}`, { method: 'PATCH', body: patch }),
    onSuccess: () => qc.invalidateQueries({ queryKey: usersKeys.all }),
  });
}
