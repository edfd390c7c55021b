import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { MessageSquare, MoreHorizontal, Plus } from 'lucide-react';
import { HYPOTHESIS_STATUSES, type HypothesisStatus, type HypothesisType } from '@watchdeck/core';
import { Button } from '#web/components/ui/button.tsx';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '#web/components/ui/dropdown-menu.tsx';
import { cn } from '#web/lib/cn.ts';
import { toastError } from '#web/lib/toast.ts';
import { useDebouncedCallback } from '#web/lib/use-debounced.ts';
import { updateHypothesis } from '../api/update-hypothesis.ts';
import type { Comment, Hypothesis } from '../api/types.ts';
import {
  CHILD_TYPE,
  HYPOTHESIS_STATUS_CLASSES,
  HYPOTHESIS_STATUS_LABELS,
  HYPOTHESIS_TYPE_LABELS,
  NO_TITLE,
} from '../lib/display.ts';
import { AddEvidenceWizard } from './add-evidence-wizard.tsx';
import { CommentItem } from './comment-text.tsx';
import { EvidenceItem } from './evidence-item.tsx';
import { CreateHypothesisModal, DeleteHypothesisDialog } from './hypothesis-dialogs.tsx';

/** Debounces of seed 001 section 9. */
const STATUS_SAVE_MS = 200;
const TITLE_SAVE_MS = 1000;
/** The inline status selector shows Likely while a hypothesis has none. */
const DEFAULT_SHOWN_STATUS: HypothesisStatus = 'likely';

interface TreeProps {
  incidentId: string;
  hypotheses: Hypothesis[];
  comments: Comment[];
  expandComments: boolean;
  canWrite: boolean;
  canWriteEvidence: boolean;
  onChanged: () => void;
}

type Dialog =
  | { kind: 'create'; parent: Hypothesis | null; type: HypothesisType }
  | { kind: 'delete'; hypothesis: Hypothesis }
  | { kind: 'evidence'; hypothesis: Hypothesis };

/**
 * The Action Plan (seed 001 section 4): root causes, their contributing factors and the
 * solutions to them, each with its evidence and comments. Titles save 1 s after the last key,
 * statuses 200 ms after the last choice.
 */
export function HypothesisTree(props: TreeProps) {
  const { hypotheses, incidentId, canWrite, onChanged } = props;
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const children = useMemo(() => {
    const ids = new Set(hypotheses.map((h) => h.id));
    const map = new Map<string | null, Hypothesis[]>();
    for (const h of hypotheses) {
      const parent = h.parent_id && ids.has(h.parent_id) ? h.parent_id : null;
      map.set(parent, [...(map.get(parent) ?? []), h]);
    }
    return map;
  }, [hypotheses]);
  const commentsBy = useMemo(() => {
    const map = new Map<string, Comment[]>();
    for (const c of props.comments)
      if (c.hypothesis_id) map.set(c.hypothesis_id, [...(map.get(c.hypothesis_id) ?? []), c]);
    return map;
  }, [props.comments]);

  const roots = children.get(null) ?? [];
  return (
    <div className="space-y-3">
      {roots.length === 0 ? (
        <div className="rounded-md border border-dashed border-gray-300 p-6 text-center text-sm text-gray-500">
          No hypotheses yet.
          {canWrite && (
            <div className="mt-3">
              <Button
                size="sm"
                variant="primary"
                onClick={() => setDialog({ kind: 'create', parent: null, type: 'root' })}
              >
                <Plus size={14} aria-hidden /> Create hypothesis
              </Button>
            </div>
          )}
        </div>
      ) : (
        <ul className="space-y-3" aria-label="Hypotheses">
          {roots.map((h) => (
            <HypothesisNode
              key={h.id}
              hypothesis={h}
              childrenOf={children}
              commentsBy={commentsBy}
              depth={0}
              open={setDialog}
              {...props}
            />
          ))}
        </ul>
      )}
      {canWrite && roots.length > 0 && (
        <Button size="sm" onClick={() => setDialog({ kind: 'create', parent: null, type: 'root' })}>
          <Plus size={14} aria-hidden /> Add root cause
        </Button>
      )}
      {dialog?.kind === 'create' && (
        <CreateHypothesisModal
          incidentId={incidentId}
          parent={dialog.parent}
          type={dialog.type}
          onClose={() => setDialog(null)}
          onCreated={onChanged}
        />
      )}
      {dialog?.kind === 'delete' && (
        <DeleteHypothesisDialog hypothesis={dialog.hypothesis} onClose={() => setDialog(null)} onChanged={onChanged} />
      )}
      {dialog?.kind === 'evidence' && (
        <AddEvidenceWizard
          incidentId={incidentId}
          hypotheses={hypotheses}
          hypothesisId={dialog.hypothesis.id}
          onClose={() => setDialog(null)}
          onAdded={onChanged}
        />
      )}
    </div>
  );
}

/**
 * The hypothesis title, edited in place. A one-row text area that grows with its text, so a long
 * title wraps in a narrow card instead of being cut to a few characters; it stays one line of
 * text (Enter and pasted line breaks do not split it).
 */
function TitleField({
  value,
  disproven,
  onChange,
}: {
  value: string;
  disproven: boolean;
  onChange: (v: string) => void;
}) {
  const ref = useRef<HTMLTextAreaElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const fit = () => {
      el.style.height = 'auto';
      el.style.height = `${el.scrollHeight + el.offsetHeight - el.clientHeight}px`;
    };
    fit();
    if (typeof ResizeObserver === 'undefined') return;
    // a new width rewraps the text; the height this sets does not call it again
    let width = el.clientWidth;
    const observer = new ResizeObserver(() => {
      if (el.clientWidth === width) return;
      width = el.clientWidth;
      fit();
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [value]);
  return (
    <textarea
      ref={ref}
      rows={1}
      aria-label="Hypothesis title"
      value={value}
      placeholder={NO_TITLE}
      onKeyDown={(e) => {
        if (e.key === 'Enter') e.preventDefault();
      }}
      onChange={(e) => onChange(e.target.value.replace(/\r?\n/g, ' '))}
      className={cn(
        'min-w-0 flex-[1_1_12rem] resize-none overflow-hidden rounded border border-transparent px-1.5 py-0.5 text-sm font-medium break-words text-gray-900 hover:border-gray-200 focus:border-blue-500 focus:outline-none',
        disproven && 'text-gray-400 line-through',
      )}
    />
  );
}

type NodeProps = Omit<TreeProps, 'hypotheses' | 'comments'> & {
  hypothesis: Hypothesis;
  childrenOf: Map<string | null, Hypothesis[]>;
  commentsBy: Map<string, Comment[]>;
  depth: number;
  open: (d: Dialog) => void;
};

function HypothesisNode({
  hypothesis: h,
  childrenOf,
  commentsBy,
  depth,
  open,
  expandComments,
  canWrite,
  canWriteEvidence,
  onChanged,
}: NodeProps) {
  // edits show at once and stay until their save has come back; then the server's value rules
  const [titleDraft, setTitle] = useState<string | null>(null);
  const [statusDraft, setStatus] = useState<HypothesisStatus | null>(null);
  const title = titleDraft ?? h.title ?? '';
  const status = statusDraft ?? h.status ?? DEFAULT_SHOWN_STATUS;
  const [showComments, setShowComments] = useState(false);

  const save = async (patch: { title?: string; status?: HypothesisStatus }) => {
    try {
      await updateHypothesis(h.id, patch);
    } catch (err) {
      toastError(err);
    }
    onChanged();
  };
  const saveTitle = useDebouncedCallback(async (t: string) => {
    await save({ title: t.trim() });
    setTitle((d) => (d === t ? null : d));
  }, TITLE_SAVE_MS);
  const saveStatus = useDebouncedCallback(async (s: HypothesisStatus) => {
    await save({ status: s });
    setStatus((d) => (d === s ? null : d));
  }, STATUS_SAVE_MS);

  const kids = childrenOf.get(h.id) ?? [];
  const comments = commentsBy.get(h.id) ?? [];
  const childType = CHILD_TYPE[h.type];
  const commentsOpen = expandComments || showComments;

  return (
    <li data-hypothesis-id={h.id} data-hypothesis-type={h.type}>
      <div className={cn('rounded-lg border bg-white', depth === 0 ? 'border-gray-300 shadow-sm' : 'border-gray-200')}>
        {/* the title asks for 12rem before it shares its line with the controls, which wrap below it */}
        <div className="flex flex-wrap items-start gap-x-2 gap-y-1 border-b border-gray-100 px-3 py-2">
          <span
            className={cn(
              'mt-1 shrink-0 rounded px-1.5 py-0.5 text-[11px] font-semibold tracking-wide uppercase',
              h.type === 'root'
                ? 'bg-purple-50 text-purple-700'
                : h.type === 'factor'
                  ? 'bg-sky-50 text-sky-700'
                  : 'bg-emerald-50 text-emerald-700',
            )}
          >
            {HYPOTHESIS_TYPE_LABELS[h.type]}
          </span>
          {canWrite ? (
            <TitleField
              value={title}
              disproven={status === 'disproven'}
              onChange={(t) => {
                setTitle(t);
                saveTitle(t);
              }}
            />
          ) : (
            <span
              className={cn(
                'mt-0.5 min-w-0 flex-[1_1_12rem] text-sm font-medium break-words text-gray-900',
                status === 'disproven' && 'text-gray-400 line-through',
              )}
            >
              {h.title || NO_TITLE}
            </span>
          )}
          <div className="ml-auto flex shrink-0 items-center gap-2">
            <select
              aria-label="Hypothesis status"
              value={status}
              disabled={!canWrite}
              onChange={(e) => {
                const next = e.target.value as HypothesisStatus;
                setStatus(next);
                saveStatus(next);
              }}
              className={cn(
                'rounded border border-gray-200 bg-white px-1.5 py-0.5 text-xs font-medium',
                HYPOTHESIS_STATUS_CLASSES[status],
              )}
            >
              {HYPOTHESIS_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {HYPOTHESIS_STATUS_LABELS[s]}
                </option>
              ))}
            </select>
            <button
              type="button"
              onClick={() => setShowComments((v) => !v)}
              aria-expanded={commentsOpen}
              className="inline-flex shrink-0 items-center gap-1 rounded px-1.5 py-0.5 text-xs text-gray-500 hover:bg-gray-100"
            >
              <MessageSquare size={13} aria-hidden /> {comments.length}
            </button>
            {(canWrite || canWriteEvidence) && (
              <DropdownMenu>
                <DropdownMenuTrigger asChild>
                  <Button
                    variant="ghost"
                    size="icon"
                    className="h-7 w-7"
                    aria-label={`Actions for ${h.title || NO_TITLE}`}
                  >
                    <MoreHorizontal size={15} aria-hidden />
                  </Button>
                </DropdownMenuTrigger>
                <DropdownMenuContent align="end">
                  {canWrite && childType && (
                    <DropdownMenuItem onSelect={() => open({ kind: 'create', parent: h, type: childType })}>
                      Add {HYPOTHESIS_TYPE_LABELS[childType].toLowerCase()}
                    </DropdownMenuItem>
                  )}
                  {canWriteEvidence && (
                    <DropdownMenuItem onSelect={() => open({ kind: 'evidence', hypothesis: h })}>
                      Add evidence
                    </DropdownMenuItem>
                  )}
                  {canWrite && (
                    <>
                      <DropdownMenuItem onSelect={() => void save({ status: 'disproven' })}>
                        Disprove Hypothesis
                      </DropdownMenuItem>
                      <DropdownMenuSeparator />
                      <DropdownMenuItem
                        className="text-red-700"
                        onSelect={() => open({ kind: 'delete', hypothesis: h })}
                      >
                        Delete
                      </DropdownMenuItem>
                    </>
                  )}
                </DropdownMenuContent>
              </DropdownMenu>
            )}
          </div>
        </div>
        <div className="px-2 py-1.5">
          {h.evidences.length ? (
            <ul aria-label="Evidence" className="space-y-0.5">
              {h.evidences.map((e) => (
                <EvidenceItem key={e.id} evidence={e} canWrite={canWriteEvidence} onChanged={onChanged} />
              ))}
            </ul>
          ) : (
            <p className="px-2 py-1 text-xs text-gray-400">No Evidence</p>
          )}
          {commentsOpen && (
            <div className="mt-1 border-t border-gray-100 px-2 pt-2">
              {comments.length ? (
                <ul className="space-y-3" aria-label="Hypothesis comments">
                  {comments.map((c) => (
                    <CommentItem key={c.id} comment={c} />
                  ))}
                </ul>
              ) : (
                <p className="pb-1 text-xs text-gray-400">No comments on this hypothesis.</p>
              )}
            </div>
          )}
        </div>
      </div>
      {kids.length > 0 && (
        <ul className="mt-2 ml-5 space-y-2 border-l-2 border-gray-100 pl-4">
          {kids.map((k) => (
            <HypothesisNode
              key={k.id}
              hypothesis={k}
              childrenOf={childrenOf}
              commentsBy={commentsBy}
              depth={depth + 1}
              open={open}
              expandComments={expandComments}
              canWrite={canWrite}
              canWriteEvidence={canWriteEvidence}
              onChanged={onChanged}
              incidentId={h.incident_id}
            />
          ))}
        </ul>
      )}
    </li>
  );
}
