import { Link } from 'react-router';
import { Modal } from '#web/components/ui/modal.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { ErrorAlert } from '#web/components/ui/error-alert.tsx';
import { AttachAsEvidenceButton } from '#web/components/link-to-incident/index.ts';
import { formatDateTime } from '#web/lib/format.ts';
import { useInsight } from '../api/insights.ts';
import { SeverityBadge } from './badges.tsx';

/** A config insight's detail: its config, analyzer, type, severity, status, times and full message. */
export function InsightDetailDialog({ id, onClose }: { id: string | undefined; onClose: () => void }) {
  const insight = useInsight(id);
  const a = insight.data;
  return (
    <Modal
      open={!!id}
      onOpenChange={(open) => !open && onClose()}
      title={a ? a.analyzer : 'Insight'}
      size="large"
      footer={
        a && (
          <AttachAsEvidenceButton
            target={{ type: 'config_analysis', config_id: a.config_id, config_analysis_id: a.id }}
            defaultDescription={`${a.config.name}: ${a.analyzer}`}
          />
        )
      }
    >
      <div className="flex flex-col gap-4 p-4">
        {insight.isPending ? (
          <span className="inline-flex items-center gap-2 text-sm text-gray-500" role="status">
            <Spinner /> Loading…
          </span>
        ) : insight.error ? (
          <ErrorAlert error={insight.error} />
        ) : !a ? (
          <p className="text-sm text-gray-500">Details not found</p>
        ) : (
          <>
            <dl className="grid grid-cols-[8rem_1fr] gap-x-4 gap-y-1.5 text-sm">
              <dt className="text-gray-500">Catalog</dt>
              <dd>
                <Link to={`/catalog/${a.config_id}`} className="text-blue-700 hover:underline">
                  {a.config.name}
                </Link>{' '}
                <span className="text-gray-500">{a.config.type}</span>
              </dd>
              <dt className="text-gray-500">Type</dt>
              <dd className="capitalize">{a.analysis_type.replace('_', ' ')}</dd>
              <dt className="text-gray-500">Severity</dt>
              <dd>
                <SeverityBadge severity={a.severity} />
              </dd>
              <dt className="text-gray-500">Status</dt>
              <dd className="capitalize">{a.status}</dd>
              <dt className="text-gray-500">Source</dt>
              <dd>{a.source}</dd>
              <dt className="text-gray-500">First observed</dt>
              <dd>{formatDateTime(a.first_observed)}</dd>
              <dt className="text-gray-500">Last observed</dt>
              <dd>{formatDateTime(a.last_observed)}</dd>
            </dl>
            {a.summary && <p className="text-sm font-medium text-gray-800">{a.summary}</p>}
            {a.message && <p className="text-sm whitespace-pre-wrap text-gray-700">{a.message}</p>}
            {a.analysis != null && (
              <pre className="max-h-60 overflow-auto rounded bg-gray-50 p-2 font-mono text-xs">
                {JSON.stringify(a.analysis, null, 2)}
              </pre>
            )}
          </>
        )}
      </div>
    </Modal>
  );
}
