import { ApiError } from '#web/lib/http.ts';
import { routed } from '#web/lib/backend.ts';

/** The file name the snapshot comes as, or `{name}-snapshot.zip` when the server does not say. */
function fileNameOf(res: Response, componentName: string): string {
  const header = res.headers.get('content-disposition') ?? '';
  const m = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(header);
  return m ? decodeURIComponent(m[1]) : `${componentName}-snapshot.zip`;
}

/**
 * GET /api/snapshot/topology/{id}?start=&related= (seed 002 section 7.2): a blob, saved as
 * '{name}-snapshot.zip' through a temporary link.
 */
export async function downloadSnapshot(
  id: string,
  componentName: string,
  opts: { start: string; related: boolean },
): Promise<void> {
  const q = new URLSearchParams({ start: opts.start, related: String(opts.related) });
  // hosted mode: the organisation's backend with its bearer token (lib/backend.ts)
  const target = routed(`/api/snapshot/topology/${encodeURIComponent(id)}?${q}`);
  const res = await fetch(target.url, { credentials: 'same-origin', headers: target.headers });
  if (!res.ok) throw new ApiError('http', 'Error downloading file', res.status);
  const blob = await res.blob();
  const url = URL.createObjectURL(blob);
  try {
    const a = document.createElement('a');
    a.href = url;
    a.download = fileNameOf(res, componentName);
    document.body.appendChild(a);
    a.click();
    a.remove();
  } finally {
    // the click has handed the blob to the download; free it a moment later
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
}
