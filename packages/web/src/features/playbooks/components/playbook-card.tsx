import { Link } from 'react-router';
import { Eye, FolderGit2, History, Pencil, Play, Trash2, Workflow } from 'lucide-react';
import { AccessGuard } from '#web/components/auth/index.ts';
import { Button, buttonClass } from '#web/components/ui/button.tsx';
import { isSynced, type Playbook } from '../api/types.ts';

/**
 * One playbook on /playbooks: title, description, source, and edit, delete, History and Run. A
 * synced playbook (source other than UI) reads as such: View instead of Edit, no Delete.
 */
export function PlaybookCard({
  playbook: p,
  onEdit,
  onDelete,
  onRun,
}: {
  playbook: Playbook;
  onEdit: () => void;
  onDelete: () => void;
  onRun: () => void;
}) {
  const title = p.title || p.name;
  const synced = isSynced(p);
  return (
    <article
      aria-label={title}
      className="flex min-w-0 flex-col gap-2 rounded-lg border border-gray-200 bg-white p-3 shadow-sm"
    >
      <div className="flex items-start gap-2">
        <Workflow size={18} className="mt-0.5 shrink-0 text-gray-500" aria-hidden />
        <div className="min-w-0 flex-1">
          <h3 className="truncate font-medium text-gray-900" title={title}>
            {title}
          </h3>
          {p.description && <p className="line-clamp-2 text-sm text-gray-600">{p.description}</p>}
        </div>
      </div>
      <div className="mt-auto flex items-center gap-2">
        {synced && (
          <span
            className="inline-flex shrink-0 items-center gap-1 rounded bg-indigo-50 px-1.5 py-0.5 text-xs text-indigo-800"
            title={`Synced from ${p.source}${p.source_path ? `: ${p.source_path}` : ''}; change it there`}
            aria-label={`Synced from ${p.source}`}
          >
            <FolderGit2 size={12} aria-hidden />
            Synced
          </span>
        )}
        {synced ? (
          <Button variant="ghost" size="icon" aria-label={`View ${title}`} onClick={onEdit}>
            <Eye size={14} aria-hidden />
          </Button>
        ) : (
          <AccessGuard resource="playbooks" action="write">
            <Button variant="ghost" size="icon" aria-label={`Edit ${title}`} onClick={onEdit}>
              <Pencil size={14} aria-hidden />
            </Button>
            <Button variant="ghost" size="icon" aria-label={`Delete ${title}`} onClick={onDelete}>
              <Trash2 size={14} aria-hidden />
            </Button>
          </AccessGuard>
        )}
        <Link
          to={`/playbooks/runs?playbook=${p.id}`}
          className={buttonClass('ghost', 'sm', 'ml-auto')}
          aria-label={`History of ${title}`}
        >
          <History size={14} aria-hidden /> History
        </Link>
        <AccessGuard resource="playbook_runs" action="write">
          <Button variant="secondary" size="sm" onClick={onRun} aria-label={`Run ${title}`}>
            <Play size={14} aria-hidden /> Run
          </Button>
        </AccessGuard>
      </div>
    </article>
  );
}
