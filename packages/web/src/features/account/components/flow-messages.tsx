import { CircleAlert, CircleCheck, Info } from 'lucide-react';
import { cn } from '#web/lib/cn.ts';
import type { UiText } from '../api/flow-types.ts';

const tone = {
  error: { box: 'border-red-200 bg-red-50 text-red-800', Icon: CircleAlert },
  success: { box: 'border-green-200 bg-green-50 text-green-800', Icon: CircleCheck },
  info: { box: 'border-blue-200 bg-blue-50 text-blue-800', Icon: Info },
} as const;

/** The messages of a flow or a notice of the page, as the server worded them. */
export function FlowMessages({ messages, className }: { messages: readonly UiText[]; className?: string }) {
  if (!messages.length) return null;
  return (
    <div className={cn('space-y-2', className)}>
      {messages.map((m, i) => {
        const { box, Icon } = tone[m.type] ?? tone.info;
        return (
          <div
            key={`${m.id}-${i}`}
            role={m.type === 'error' ? 'alert' : 'status'}
            data-testid={`flow-message-${m.type}`}
            data-message-id={m.id}
            className={cn('flex items-start gap-2 rounded-md border px-3 py-2 text-sm', box)}
          >
            <Icon size={16} className="mt-0.5 shrink-0" aria-hidden />
            <span>{m.text}</span>
          </div>
        );
      })}
    </div>
  );
}

/** A page's own notice (why a flow was started over), shown like a flow message. */
export const noticeText = (text: string | null, type: UiText['type'] = 'error'): UiText[] =>
  text ? [{ id: 0, type, text }] : [];
