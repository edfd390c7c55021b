import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '#web/lib/http.ts';
import { usersKeys } from './users.ts';

export function useDeleteUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest<void>(`/auth/users/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => qc.invalidateQueries({ queryKey: usersKeys.all }),
  });
}
