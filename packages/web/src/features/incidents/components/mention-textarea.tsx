import { useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { mentionMarkup, type Mention } from '@watchdeck/core';
import { Avatar } from '#web/components/ui/avatar.tsx';
import { inputClass } from '#web/components/forms/index.ts';
import { cn } from '#web/lib/cn.ts';
import type { PersonOption } from '../api/use-people.ts';

const MAX_SUGGESTIONS = 8;

/** The '@query' being typed just before the caret, if any. */
function activeQuery(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const m = /(^|\s)@([^\s@]{0,30})$/.exec(before);
  return m ? { start: caret - m[2].length - 1, query: m[2] } : null;
}

/**
 * The people chosen in the box become `@[Name](id)` in the stored comment (core/mentions.ts);
 * the box itself shows `@Name`. A mention whose text was edited away is dropped.
 */
export function toMarkup(text: string, mentions: readonly Mention[]): string {
  let out = text;
  for (const m of mentions) out = out.split(`@${m.name}`).join(mentionMarkup(m.name, m.id));
  return out;
}

/**
 * A textarea that suggests people after '@' (arrow keys and Enter or Tab to choose, Escape to
 * dismiss) and remembers whom the text mentions.
 */
export function MentionTextarea({
  value,
  onChange,
  mentions,
  onMentionsChange,
  people,
  invalid,
  ...rest
}: {
  value: string;
  onChange: (v: string) => void;
  mentions: Mention[];
  onMentionsChange: (m: Mention[]) => void;
  people: readonly PersonOption[];
  invalid?: boolean;
  'aria-label'?: string;
  placeholder?: string;
  id?: string;
}) {
  const ref = useRef<HTMLTextAreaElement>(null);
  // Where the caret goes after a pick: placed in the commit that renders the new text, before the
  // next key is handled (a later frame would let a fast typist's key land at the end).
  const caretAfterPick = useRef<number | null>(null);
  useLayoutEffect(() => {
    const pos = caretAfterPick.current;
    if (pos === null || !ref.current) return;
    caretAfterPick.current = null;
    ref.current.focus();
    ref.current.setSelectionRange(pos, pos);
  }, [value]);
  const listId = useId();
  const [active, setActive] = useState<{ start: number; query: string } | null>(null);
  const [index, setIndex] = useState(0);
  const matches = useMemo(() => {
    if (!active) return [];
    const q = active.query.toLowerCase();
    return people
      .filter((p) => (p.name ?? '').toLowerCase().includes(q) || (p.email ?? '').toLowerCase().startsWith(q))
      .slice(0, MAX_SUGGESTIONS);
  }, [active, people]);

  const update = (text: string, caret: number) => {
    onChange(text);
    setActive(activeQuery(text, caret));
    setIndex(0);
  };

  const pick = (p: PersonOption) => {
    if (!active || !p.name) return;
    const caret = ref.current?.selectionStart ?? value.length;
    const inserted = `@${p.name} `;
    const next = value.slice(0, active.start) + inserted + value.slice(caret);
    onChange(next);
    if (!mentions.some((m) => m.id === p.id)) onMentionsChange([...mentions, { name: p.name, id: p.id }]);
    setActive(null);
    caretAfterPick.current = active.start + inserted.length;
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!active || !matches.length) return;
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setIndex((i) => (i + 1) % matches.length);
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setIndex((i) => (i - 1 + matches.length) % matches.length);
    } else if (e.key === 'Enter' || e.key === 'Tab') {
      e.preventDefault();
      pick(matches[index]);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      setActive(null);
    }
  };

  const open = !!active && matches.length > 0;
  return (
    <div className="relative">
      <textarea
        ref={ref}
        rows={3}
        {...rest}
        value={value}
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open ? `${listId}-${index}` : undefined}
        aria-invalid={invalid || undefined}
        onChange={(e) => update(e.target.value, e.target.selectionStart)}
        onKeyDown={onKeyDown}
        onBlur={() => setTimeout(() => setActive(null), 150)}
        className={inputClass(invalid)}
      />
      {open && (
        <ul
          id={listId}
          role="listbox"
          aria-label="People"
          className="absolute bottom-full left-0 z-20 mb-1 w-72 overflow-hidden rounded-md border border-gray-200 bg-white py-1 shadow-lg"
        >
          {matches.map((p, i) => (
            <li
              key={p.id}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === index}
              onMouseDown={(e) => {
                e.preventDefault();
                pick(p);
              }}
              className={cn(
                'flex cursor-pointer items-center gap-2 px-3 py-1.5 text-sm',
                i === index ? 'bg-blue-50 text-blue-900' : 'text-gray-800',
              )}
            >
              <Avatar person={p} />
              <span className="truncate">{p.name}</span>
              {p.email && <span className="ml-auto truncate text-xs text-gray-400">{p.email}</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
