import { apiRequest } from '#web/lib/http.ts';

/** POST /api/auth/logout: ends this browser's session (also the way out of a second-factor prompt). */
export function logout(): Promise<void> {
  return apiRequest<void>('/auth/logout', { method: 'POST', skipAuthRedirect: true });
}
