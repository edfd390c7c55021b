import { useId } from 'react';
import * as Switch from '@radix-ui/react-switch';
import { cn } from '#web/lib/cn.ts';

/** A labelled on/off switch (preferences, the relationship and changes toggles). */
export function Toggle({
  label,
  checked,
  onChange,
  disabled,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <span className="inline-flex items-center gap-2">
      <Switch.Root
        id={id}
        checked={checked}
        onCheckedChange={onChange}
        disabled={disabled}
        className={cn(
          'relative h-5 w-9 shrink-0 rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-blue-600 disabled:opacity-50',
          checked ? 'bg-blue-600' : 'bg-gray-300',
        )}
      >
        <Switch.Thumb className="block h-4 w-4 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[18px]" />
      </Switch.Root>
      <label htmlFor={id} className={cn('text-sm text-gray-700', disabled && 'text-gray-400')}>
        {label}
      </label>
    </span>
  );
}
