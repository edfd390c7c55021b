import { Tooltip } from '#web/components/ui/tooltip.tsx';
import { Avatar } from '#web/components/ui/avatar.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { formatDateTime, formatRelative } from '#web/lib/format.ts';
import { mentionsAsText } from '@watchdeck/core';
import { useHistory } from '../api/use-history.ts';
import type { HistoryEntry } from '../api/types.ts';
import { NO_TITLE } from '../lib/display.ts';

/** seed 001 section 8 */
const NO_CHANGELOG = 'No changelog found';

/** What each changelog event says, in words. */
function sentence(e: HistoryEntry): string {
  const d = e.description ? mentionsAsText(e.description) : '';
  switch (e.type) {
    case 'incident.created':
      return `created the incident${d ? ` "${d}"` : ''}`;
    case 'incident.status_updated':
    case 'incident_status.updated':
      return `changed the status: ${d}`;
    case 'incident.severity_updated':
      return `changed the severity: ${d}`;
    case 'incident.type_updated':
      return `changed the type: ${d}`;
    case 'hypothesis.created':
      return `added the hypothesis "${e.hypothesis?.title || d || NO_TITLE}"`;
    case 'hypothesis.status_updated':
      return `marked "${e.hypothesis?.title || NO_TITLE}": ${d}`;
    case 'evidence.created':
      return `added evidence: ${d}`;
    case 'evidence.done_definition_added':
      return `added to the definition of done: ${d}`;
    case 'evidence.done_definition_removed':
      return `removed from the definition of done: ${d}`;
    case 'responder.created':
      return `added the responder ${d}`;
    case 'responder.deleted':
      return `removed the responder ${d}`;
    case 'responder.commented':
      return `commented: ${d}`;
    default:
      return `${e.type}${d ? `: ${d}` : ''}`;
  }
}

/** The Changelog section: incident_histories, newest first. */
export function ChangelogSection({ incidentId }: { incidentId: string }) {
  const history = useHistory(incidentId);
  if (history.isLoading) return <Spinner size={16} />;
  const rows = history.data ?? [];
  if (!rows.length) return <p className="text-sm text-gray-500">{NO_CHANGELOG}</p>;
  return (
    <ol className="space-y-2.5" aria-label="Changelog">
      {rows.map((e) => (
        <li key={e.id} className="flex gap-2 text-sm" data-history-type={e.type}>
          <Avatar person={e.created_by ?? { name: 'System' }} />
          <div className="min-w-0">
            <p className="text-gray-800">
              <span className="font-medium">{e.created_by?.name ?? 'System'}</span> {sentence(e)}
            </p>
            <Tooltip content={formatDateTime(e.created_at)}>
              <span className="text-xs text-gray-400">{formatRelative(e.created_at)}</span>
            </Tooltip>
          </div>
        </li>
      ))}
    </ol>
  );
}
