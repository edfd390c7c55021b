import { Link } from 'react-router';
import { Modal } from '#web/components/ui/modal.tsx';
import { ErrorAlert } from '#web/components/ui/error-alert.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { formatDateTime, formatDuration } from '#web/lib/format.ts';
import { useSend } from '../api/use-send.ts';
import { RESOURCE_TYPE_LABELS } from '../lib/constants.ts';
import { NOTIFICATION_MESSAGES } from '../lib/messages.ts';
import { SendStatusBadge } from './status-badge.tsx';

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium text-gray-500">{label}</dt>
      <dd className="mt-0.5 text-sm break-words text-gray-900">{children}</dd>
    </div>
  );
}

/**
 * One send, opened by the id query parameter (seed 002 section 2.15): status, event, resource,
 * recipient, timing, the body that was sent and the provider's error, and a link to its rule at
 * /notifications/rules?id={id}.
 */
export function SendDetailModal({ id, onClose }: { id: string; onClose: () => void }) {
  const send = useSend(id);
  const row = send.data;
  return (
    <Modal open onOpenChange={(o) => !o && onClose()} title="Notification" size="large">
      {send.isLoading ? (
        <div className="flex justify-center py-8" aria-busy="true">
          <Spinner />
        </div>
      ) : send.error ? (
        <ErrorAlert error={send.error} />
      ) : !row ? (
        <p className="py-6 text-center text-sm text-gray-500">{NOTIFICATION_MESSAGES.noResources}</p>
      ) : (
        <div className="space-y-4">
          <dl className="grid grid-cols-2 gap-x-6 gap-y-3 md:grid-cols-3">
            <Field label="Status">
              <SendStatusBadge status={row.status} />
            </Field>
            <Field label="Event">
              <span className="font-mono text-xs">{row.source_event}</span>
            </Field>
            <Field label="Rule">
              <Link
                to={`/notifications/rules?id=${row.notification_id}`}
                className="text-blue-700 hover:underline focus-visible:outline-2 focus-visible:outline-blue-600"
              >
                {row.notification_name ?? row.notification_id}
              </Link>
            </Field>
            <Field label="Resource">
              {row.resource?.name ?? row.resource_id ?? '—'}
              {row.resource_type && (
                <span className="ml-1 text-gray-500">
                  ({RESOURCE_TYPE_LABELS[row.resource_type] ?? row.resource_type})
                </span>
              )}
            </Field>
            <Field label="Recipient">{row.person?.name ?? row.recipient ?? '—'}</Field>
            <Field label="Duration">{formatDuration(row.duration_millis) || '—'}</Field>
            <Field label="Created">{formatDateTime(row.created_at)}</Field>
            <Field label="First observed">{formatDateTime(row.first_observed)}</Field>
            <Field label="Count">{row.count}</Field>
          </dl>
          {row.error && (
            <section aria-label="Error">
              <h3 className="mb-1 text-xs font-semibold tracking-wide text-gray-500 uppercase">Error</h3>
              <pre className="overflow-auto rounded-md border border-red-200 bg-red-50 p-3 text-xs whitespace-pre-wrap text-red-800">
                {row.error}
              </pre>
            </section>
          )}
          <section aria-label="Body">
            <h3 className="mb-1 text-xs font-semibold tracking-wide text-gray-500 uppercase">Body</h3>
            {row.title && <p className="mb-1 text-sm font-medium text-gray-900">{row.title}</p>}
            {row.body ? (
              <pre className="max-h-96 overflow-auto rounded-md border border-gray-200 bg-gray-50 p-3 text-xs whitespace-pre-wrap text-gray-800">
                {row.body}
              </pre>
            ) : (
              <p className="text-sm text-gray-500">No body: nothing was rendered for this send.</p>
            )}
          </section>
        </div>
      )}
    </Modal>
  );
}
