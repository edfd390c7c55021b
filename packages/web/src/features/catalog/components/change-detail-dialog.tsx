import { Link } from 'react-router';
import { Modal } from '#web/components/ui/modal.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { ErrorAlert } from '#web/components/ui/error-alert.tsx';
import { AttachAsEvidenceButton } from '#web/components/link-to-incident/index.ts';
import { formatDateTime } from '#web/lib/format.ts';
import { useChangeDetail } from '../api/config-changes.ts';
import { SeverityBadge, TagChips } from './badges.tsx';
import { DiffView } from './diff-view.tsx';

/** A change's detail: its config, type, severity, when and by whom, the diff, details and patches. */
export function ChangeDetailDialog({ id, onClose }: { id: string | undefined; onClose: () => void }) {
  const change = useChangeDetail(id);
  const c = change.data;
  return (
    <Modal
      open={!!id}
      onOpenChange={(open) => !open && onClose()}
      title={c ? `${c.change_type}${c.summary ? `: ${c.summary}` : ''}` : 'Change'}
      size="large"
      footer={
        c && (
          <AttachAsEvidenceButton
            target={{ type: 'config_change', config_id: c.config_id, config_change_id: c.id }}
            defaultDescription={`${c.name}: ${c.change_type}${c.summary ? ` (${c.summary})` : ''}`}
          />
        )
      }
    >
      <div className="flex flex-col gap-4 p-4">
        {change.isPending ? (
          <span className="inline-flex items-center gap-2 text-sm text-gray-500" role="status">
            <Spinner /> Loading…
          </span>
        ) : change.error ? (
          <ErrorAlert error={change.error} />
        ) : !c ? (
          <p className="text-sm text-gray-500">Details not found</p>
        ) : (
          <>
            <dl className="grid grid-cols-[8rem_1fr] gap-x-4 gap-y-1.5 text-sm">
              <dt className="text-gray-500">Catalog</dt>
              <dd>
                <Link to={`/catalog/${c.config_id}`} className="text-blue-700 hover:underline">
                  {c.name}
                </Link>{' '}
                <span className="text-gray-500">{c.type}</span>
              </dd>
              <dt className="text-gray-500">Type</dt>
              <dd>{c.change_type}</dd>
              <dt className="text-gray-500">Severity</dt>
              <dd>
                <SeverityBadge severity={c.severity} />
              </dd>
              <dt className="text-gray-500">Source</dt>
              <dd>{c.source}</dd>
              <dt className="text-gray-500">Last seen</dt>
              <dd>
                {formatDateTime(c.created_at)}
                {c.count > 1 && (
                  <span className="text-gray-500">
                    {' '}
                    ({c.count} times since {formatDateTime(c.first_observed)})
                  </span>
                )}
              </dd>
              <dt className="text-gray-500">Created by</dt>
              <dd>{c.external_created_by ?? c.created_by ?? ''}</dd>
              <dt className="text-gray-500">Tags</dt>
              <dd>
                <TagChips tags={c.tags} max={10} />
              </dd>
            </dl>
            <section>
              <h3 className="mb-1 text-xs font-semibold tracking-wide text-gray-500 uppercase">Diff</h3>
              <DiffView diff={c.diff} />
            </section>
            {c.details != null && (
              <section>
                <h3 className="mb-1 text-xs font-semibold tracking-wide text-gray-500 uppercase">Details</h3>
                <pre className="max-h-60 overflow-auto rounded bg-gray-50 p-2 font-mono text-xs">
                  {JSON.stringify(c.details, null, 2)}
                </pre>
              </section>
            )}
            {c.patches != null && (
              <section>
                <h3 className="mb-1 text-xs font-semibold tracking-wide text-gray-500 uppercase">Patches</h3>
                <pre className="max-h-60 overflow-auto rounded bg-gray-50 p-2 font-mono text-xs">
                  {JSON.stringify(c.patches, null, 2)}
                </pre>
              </section>
            )}
          </>
        )}
      </div>
    </Modal>
  );
}
