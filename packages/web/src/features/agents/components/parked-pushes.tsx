/**
 * An agent's parked pushes, on its page: rows this console refused for good when the agent pushed
 * them, which the agent set aside (and reported) so the rows behind them went on. For each, what
 * it is, why it was refused, when, and how often it was tried; an editor may ask the agent to
 * retry it (sent again as it is on the agent now) or to discard it. The agent carries a request
 * out on its next push, so the list looks again every few seconds.
 */
import { useState } from 'react';
import { AGENT_PARKED_PAGE_SIZES, type AgentParkedAction, type AgentParkedRow } from '@watchdeck/core';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog.tsx';
import { ErrorAlert } from '#web/components/ui/error-alert.tsx';
import { RelativeTime } from '#web/components/ui/relative-time.tsx';
import { toastError, toastSuccess } from '#web/lib/toast.ts';
import { useParkedRequest, useParkedRows } from '../api/agents.ts';

const PAGE = AGENT_PARKED_PAGE_SIZES[0];

/** What the row is, in a few words: its name when it has one, else its key. */
function describe(p: AgentParkedRow): string {
  const name = p.row.name;
  return typeof name === 'string' && name ? name : p.key;
}

/** The upstream's answer without the status code prefix the agent records ('400 {...}'). */
function reason(error: string): string {
  const m = /^(\d{3}) (.*)$/s.exec(error);
  if (!m) return error;
  try {
    const body = JSON.parse(m[2]) as { message?: unknown };
    if (typeof body.message === 'string') return `${m[1]}: ${body.message}`;
  } catch {
    // not JSON: shown as it came
  }
  return error;
}

export function ParkedPushes({ agentId, canWrite }: { agentId: string; canWrite: boolean }) {
  const [offset, setOffset] = useState(0);
  const parked = useParkedRows(agentId, offset, PAGE);
  const request = useParkedRequest(agentId);
  const [discarding, setDiscarding] = useState<AgentParkedRow[] | null>(null);

  const ask = async (action: AgentParkedAction, rows: AgentParkedRow[]) => {
    try {
      const r = await request.mutateAsync({ action, ids: rows.map((p) => p.id) });
      toastSuccess(r.message);
    } catch (err) {
      toastError(err);
      throw err;
    }
  };

  const total = parked.data?.total ?? 0;
  const rows = parked.data?.rows ?? [];
  const open = rows.filter((p) => !p.request);
  return (
    <section aria-labelledby={`parked-${agentId}`} className="mt-6 border-t border-gray-200 pt-4">
      <div className="mb-2 flex flex-wrap items-center gap-2">
        <h3 id={`parked-${agentId}`} className="text-sm font-semibold text-gray-900">
          Parked pushes
        </h3>
        {total > 0 && <span className="rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-800">{total}</span>}
        {canWrite && open.length > 1 && (
          <span className="ml-auto flex gap-2">
            <Button size="sm" onClick={() => void ask('retry', open).catch(() => {})} disabled={request.isPending}>
              Retry all on this page
            </Button>
            <Button size="sm" variant="danger" onClick={() => setDiscarding(open)} disabled={request.isPending}>
              Discard all on this page
            </Button>
          </span>
        )}
      </div>
      {parked.error && !parked.data ? (
        <ErrorAlert error={parked.error} />
      ) : parked.isPending ? (
        <p className="text-sm text-gray-500">Loading…</p>
      ) : total === 0 ? (
        <p className="text-sm text-gray-500">Nothing parked: this console stored every row the agent pushed.</p>
      ) : (
        <>
          <p className="mb-2 text-xs text-gray-500">
            Rows this console refused for good. The agent set them aside and pushed the rest; a retry sends the row
            again as it is on the agent now.
          </p>
          <div className="max-h-80 overflow-auto rounded border border-gray-200">
            <table aria-label="Parked pushes" className="w-full table-fixed text-left text-sm">
              <thead className="sticky top-0 bg-gray-50 text-xs text-gray-600">
                <tr>
                  <th className="w-32 px-2 py-1.5 font-medium">Table</th>
                  <th className="px-2 py-1.5 font-medium">Row</th>
                  <th className="px-2 py-1.5 font-medium">Refused because</th>
                  <th className="w-28 px-2 py-1.5 font-medium">Parked</th>
                  <th className="w-20 px-2 py-1.5 text-right font-medium">Attempts</th>
                  {canWrite && <th className="w-40 px-2 py-1.5 font-medium">Actions</th>}
                </tr>
              </thead>
              <tbody>
                {rows.map((p) => (
                  <tr key={p.id} className="border-t border-gray-100 align-top">
                    <td className="px-2 py-1.5 font-mono text-xs text-gray-700">{p.table}</td>
                    <td className="truncate px-2 py-1.5" title={p.key}>
                      {describe(p)}
                    </td>
                    <td className="px-2 py-1.5 text-xs break-words text-red-700">{reason(p.error)}</td>
                    <td className="px-2 py-1.5 text-xs text-gray-600">
                      <RelativeTime at={p.parked_at} />
                      {p.last_attempt_at && p.attempts > 1 && (
                        <span className="block text-gray-400">
                          last tried <RelativeTime at={p.last_attempt_at} />
                        </span>
                      )}
                    </td>
                    <td className="px-2 py-1.5 text-right tabular-nums">{p.attempts}</td>
                    {canWrite && (
                      <td className="px-2 py-1.5">
                        {p.request ? (
                          <span className="text-xs text-amber-700" title={p.requested_by?.name}>
                            {p.request === 'retry' ? 'Retry requested' : 'Discard requested'}
                          </span>
                        ) : (
                          <span className="flex gap-1.5">
                            <Button
                              size="sm"
                              aria-label={`Retry ${describe(p)}`}
                              disabled={request.isPending}
                              onClick={() => void ask('retry', [p]).catch(() => {})}
                            >
                              Retry
                            </Button>
                            <Button
                              size="sm"
                              variant="ghost"
                              aria-label={`Discard ${describe(p)}`}
                              disabled={request.isPending}
                              onClick={() => setDiscarding([p])}
                            >
                              Discard
                            </Button>
                          </span>
                        )}
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {total > PAGE && (
            <div className="mt-2 flex items-center justify-end gap-2 text-xs text-gray-600">
              <span>
                {offset + 1}–{Math.min(offset + PAGE, total)} of {total}
              </span>
              <Button size="sm" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
                Previous
              </Button>
              <Button size="sm" disabled={offset + PAGE >= total} onClick={() => setOffset(offset + PAGE)}>
                Next
              </Button>
            </div>
          )}
        </>
      )}
      {discarding && (
        <ConfirmDialog
          open
          onOpenChange={(o) => !o && setDiscarding(null)}
          title="Discard parked rows"
          message={
            discarding.length === 1
              ? `The agent forgets ${describe(discarding[0])}: it is never sent here again unless it changes.`
              : `The agent forgets these ${discarding.length} rows: they are never sent here again unless they change.`
          }
          confirmLabel="Discard"
          onConfirm={() => ask('discard', discarding)}
        />
      )}
    </section>
  );
}
