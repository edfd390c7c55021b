import { fetchWithAuth } from '#web/lib/http.ts';

/**
 * GET /api/playbook/run/{run}/actions/{action}/logs: the action's output as a file, saved by the
 * browser under the name the server gives (Content-Disposition) or `<action>.log`.
 */
export async function downloadActionLogs(runId: string, action: { id: string; name: string }): Promise<void> {
  const res = await fetchWithAuth(`/api/playbook/run/${runId}/actions/${action.id}/logs`);
  if (!res.ok) throw new Error(`logs: ${res.status}`);
  const blob = await res.blob();
  const disposition = res.headers.get('content-disposition') ?? '';
  const name = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? `${action.name.replace(/[^\w.-]+/g, '_')}.log`;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
