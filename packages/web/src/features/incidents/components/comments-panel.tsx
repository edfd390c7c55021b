import { useId, useMemo, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Mention } from '@watchdeck/core';
import { inputClass } from '#web/components/forms/index.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { useWhoami } from '#web/lib/session.tsx';
import { toastError } from '#web/lib/toast.ts';
import { incidentKey } from '../api/incident-key.ts';
import { usePeople } from '../api/use-people.ts';
import { createComment } from '../api/create-comment.ts';
import type { Comment, Hypothesis } from '../api/types.ts';
import { NO_TITLE } from '../lib/display.ts';
import { CommentItem } from './comment-text.tsx';
import { MentionTextarea, toMarkup } from './mention-textarea.tsx';

/** seed 001 section 5 */
const COMMENT_MESSAGES = {
  empty: 'Please add comment details',
  noHypothesis: 'Please select any hypothesis',
} as const;

/**
 * The Comments tab: the incident's discussion, oldest first, and a box to add to it. A new
 * comment shows at once and is taken back if the server refuses it (seed 001 section 4).
 */
export function CommentsPanel({
  incidentId,
  comments,
  hypotheses,
  defaultHypothesisId,
  canWrite,
  onChanged,
}: {
  incidentId: string;
  comments: Comment[];
  hypotheses: Hypothesis[];
  defaultHypothesisId?: string;
  canWrite: boolean;
  onChanged: () => void;
}) {
  const me = useWhoami().user;
  const qc = useQueryClient();
  const people = usePeople();
  const formId = useId();
  const [text, setText] = useState('');
  const [mentions, setMentions] = useState<Mention[]>([]);
  const [hypothesisId, setHypothesisId] = useState(defaultHypothesisId ?? '');
  const [errors, setErrors] = useState<{ text?: string; hypothesis?: string }>({});
  const titles = useMemo(() => new Map(hypotheses.map((h) => [h.id, h.title || NO_TITLE])), [hypotheses]);
  const key = [...incidentKey(incidentId), 'comments'];

  const add = useMutation({
    mutationFn: (c: { hypothesis_id: string; comment: string }) =>
      createComment({ ...c, incident_id: incidentId, created_by: me.id }),
    onMutate: async (c) => {
      await qc.cancelQueries({ queryKey: key });
      const previous = qc.getQueryData<Comment[]>(key);
      const optimistic: Comment = {
        id: `pending-${Date.now()}`,
        incident_id: incidentId,
        hypothesis_id: c.hypothesis_id,
        comment: c.comment,
        created_at: new Date().toISOString(),
        created_by: { id: me.id, name: me.name ?? null, avatar: me.avatar ?? null },
        external_created_by: null,
        pending: true,
      };
      qc.setQueryData<Comment[]>(key, [...(previous ?? []), optimistic]);
      return { previous };
    },
    onError: (err, _c, ctx) => {
      qc.setQueryData(key, ctx?.previous);
      toastError(err);
    },
    onSettled: () => onChanged(),
  });

  const submit = () => {
    const next = {
      text: text.trim() ? undefined : COMMENT_MESSAGES.empty,
      hypothesis: hypothesisId ? undefined : COMMENT_MESSAGES.noHypothesis,
    };
    setErrors(next);
    if (next.text || next.hypothesis) return;
    add.mutate({ hypothesis_id: hypothesisId, comment: toMarkup(text.trim(), mentions) });
    setText('');
    setMentions([]);
  };

  return (
    <div className="flex flex-col gap-4">
      {comments.length ? (
        <ul className="space-y-4" aria-label="Comments">
          {comments.map((c) => (
            <CommentItem
              key={c.id}
              comment={c}
              hypothesisTitle={c.hypothesis_id ? titles.get(c.hypothesis_id) : undefined}
            />
          ))}
        </ul>
      ) : (
        <p className="text-sm text-gray-500">No comments yet.</p>
      )}
      {canWrite && (
        <form
          id={formId}
          className="space-y-2 rounded-lg border border-gray-200 bg-gray-50 p-3"
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
          noValidate
        >
          <MentionTextarea
            aria-label="Comment"
            placeholder="Add a comment; type @ to mention someone"
            value={text}
            onChange={(v) => {
              setText(v);
              if (errors.text) setErrors((e) => ({ ...e, text: undefined }));
            }}
            mentions={mentions}
            onMentionsChange={setMentions}
            people={people.data ?? []}
            invalid={!!errors.text}
          />
          {errors.text && (
            <p role="alert" className="text-xs text-red-600">
              {errors.text}
            </p>
          )}
          <div className="flex items-center gap-2">
            <select
              aria-label="Hypothesis"
              value={hypothesisId}
              onChange={(e) => {
                setHypothesisId(e.target.value);
                setErrors((er) => ({ ...er, hypothesis: undefined }));
              }}
              className={`${inputClass(!!errors.hypothesis)} w-auto max-w-xs py-1`}
            >
              <option value="">Select hypothesis</option>
              {hypotheses.map((h) => (
                <option key={h.id} value={h.id}>
                  {h.title || NO_TITLE}
                </option>
              ))}
            </select>
            <Button type="submit" variant="primary" size="sm" className="ml-auto" disabled={add.isPending}>
              {add.isPending && <Spinner size={12} />}
              Comment
            </Button>
          </div>
          {errors.hypothesis && (
            <p role="alert" className="text-xs text-red-600">
              {errors.hypothesis}
            </p>
          )}
        </form>
      )}
    </div>
  );
}
