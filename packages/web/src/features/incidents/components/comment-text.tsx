import { mentionSegments } from '@watchdeck/core';
import { Avatar } from '#web/components/ui/avatar.tsx';
import { Tooltip } from '#web/components/ui/tooltip.tsx';
import { formatDateTime, formatRelative } from '#web/lib/format.ts';
import { cn } from '#web/lib/cn.ts';
import type { Comment } from '../api/types.ts';

/** A comment's text with its @mentions as chips. */
function CommentText({ text }: { text: string }) {
  return (
    <p className="text-sm whitespace-pre-wrap text-gray-800">
      {mentionSegments(text).map((s, i) =>
        typeof s === 'string' ? (
          s
        ) : (
          <span key={i} data-mention={s.id} className="rounded bg-blue-50 px-1 font-medium text-blue-700">
            @{s.name}
          </span>
        ),
      )}
    </p>
  );
}

export function CommentItem({ comment, hypothesisTitle }: { comment: Comment; hypothesisTitle?: string }) {
  const author = comment.created_by?.name ?? comment.external_created_by ?? 'Unknown';
  return (
    <li className={cn('flex gap-2.5', comment.pending && 'opacity-60')} data-comment-id={comment.id}>
      <Avatar person={comment.created_by ?? { name: author }} size="md" />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-baseline gap-x-2 text-xs text-gray-500">
          <span className="text-sm font-medium text-gray-900">{author}</span>
          <Tooltip content={formatDateTime(comment.created_at)}>
            <span>{comment.pending ? 'sending…' : formatRelative(comment.created_at)}</span>
          </Tooltip>
          {hypothesisTitle && <span className="truncate">on {hypothesisTitle}</span>}
        </div>
        <CommentText text={comment.comment} />
      </div>
    </li>
  );
}
