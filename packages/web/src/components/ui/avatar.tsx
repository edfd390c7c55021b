import { cn } from '#web/lib/cn.ts';

/** The avatar stack of seed 001 section 9: at most 5 faces, the rest as "+N". */
const AVATAR_STACK_MAX = 5;

export interface AvatarPerson {
  id?: string;
  name: string | null;
  avatar?: string | null;
}

function initials(name: string | null | undefined): string {
  const parts = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (!parts.length) return '?';
  return ((parts[0][0] ?? '') + (parts.length > 1 ? (parts.at(-1)?.[0] ?? '') : '')).toUpperCase();
}

// a stable, readable background per name
const COLORS = [
  'bg-blue-100 text-blue-800',
  'bg-emerald-100 text-emerald-800',
  'bg-amber-100 text-amber-800',
  'bg-purple-100 text-purple-800',
  'bg-rose-100 text-rose-800',
  'bg-cyan-100 text-cyan-800',
];
function colorFor(name: string | null | undefined) {
  let h = 0;
  for (const c of name ?? '') h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return COLORS[h % COLORS.length];
}

const SIZES = { sm: 'h-6 w-6 text-[10px]', stack: 'h-7 w-7 text-[10px]', md: 'h-8 w-8 text-xs' } as const;

export function Avatar({
  person,
  size = 'sm',
  className,
}: {
  person: AvatarPerson;
  size?: keyof typeof SIZES;
  className?: string;
}) {
  const label = person.name ?? 'Unknown';
  return person.avatar ? (
    <img
      src={person.avatar}
      alt={label}
      title={label}
      className={cn('inline-block shrink-0 rounded-full object-cover', SIZES[size], className)}
    />
  ) : (
    <span
      role="img"
      aria-label={label}
      title={label}
      className={cn(
        'inline-flex shrink-0 items-center justify-center rounded-full font-semibold',
        SIZES[size],
        colorFor(person.name),
        className,
      )}
    >
      {initials(person.name)}
    </span>
  );
}

/**
 * Overlapping avatars, at most `max`, then a "+N" chip naming the others in its tooltip. Each
 * face is covered by the next one's 2 px overlap and 2 px white ring only, so the widest
 * initials ("WW", 19 px at 10 px type) stay whole inside the 28 px circle; a deeper overlap
 * clipped the second letter ("MH" read "MI").
 */
export function AvatarStack({
  people,
  max = AVATAR_STACK_MAX,
  size = 'stack',
}: {
  people: readonly AvatarPerson[];
  max?: number;
  size?: keyof typeof SIZES;
}) {
  const shown = people.slice(0, max);
  const rest = people.slice(max);
  return (
    <span className="inline-flex items-center -space-x-0.5" data-avatar-stack>
      {shown.map((p, i) => (
        <Avatar key={p.id ?? i} person={p} size={size} className="ring-2 ring-white" />
      ))}
      {rest.length > 0 && (
        <span
          title={rest.map((p) => p.name ?? 'Unknown').join(', ')}
          className={cn(
            'inline-flex items-center justify-center rounded-full bg-gray-100 font-medium text-gray-600 ring-2 ring-white',
            SIZES[size],
          )}
        >
          +{rest.length}
        </span>
      )}
    </span>
  );
}
