import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InviteUserInput } from '@watchdeck/core';
import { apiRequest } from '#web/lib/http.ts';
import { usersKeys } from './users.ts';

/** POST /api/auth/invite_user -> {id, link}: the link signs the invitee in to choose a password. */
export function useInviteUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: InviteUserInput) =>
      apiRequest<{ id: string; link: string }>('/auth/invite_user', { method: 'POST', body: input }),
    onSuccess: () => qc.invalidateQueries({ queryKey: usersKeys.all }),
  });
}
