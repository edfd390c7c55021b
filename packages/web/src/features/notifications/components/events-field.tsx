import { useId } from 'react';
import { useController, useFormContext } from 'react-hook-form';
import { cn } from '#web/lib/cn.ts';
import { NOTIFICATION_EVENTS } from '@watchdeck/core';

const GROUPS = ['check', 'component', 'config', 'playbook'] as const;
const GROUP_LABELS: Record<(typeof GROUPS)[number], string> = {
  check: 'Checks',
  component: 'Components',
  config: 'Catalog',
  playbook: 'Playbooks',
};

/**
 * The events a rule listens to (seed 002 section 3), as checkboxes grouped by what they are
 * about; at least one is required (section 5). A plain fieldset: Tab and Space choose.
 */
export function EventsField({ name = 'events', disabled }: { name?: string; disabled?: boolean }) {
  const id = useId();
  const { control } = useFormContext();
  const { field, fieldState } = useController({ name, control });
  const value = (field.value as string[] | undefined) ?? [];
  const toggle = (event: string, on: boolean) =>
    field.onChange(on ? [...value, event] : value.filter((e) => e !== event));
  const error = fieldState.error?.message;
  // events the list does not offer (a rule from YAML, the incidents' mention rule) stay visible
  const extra = value.filter((e) => !(NOTIFICATION_EVENTS as readonly string[]).includes(e));
  return (
    <fieldset
      className="space-y-1"
      aria-describedby={error ? `${id}-error` : undefined}
      aria-invalid={!!error || undefined}
      onBlur={field.onBlur}
    >
      <legend className="mb-1 text-sm font-medium text-gray-700">
        Events
        <span className="ml-0.5 text-red-500" aria-hidden>
          *
        </span>
      </legend>
      <div
        className={cn(
          'grid grid-cols-1 gap-x-4 gap-y-2 rounded-md border p-3 sm:grid-cols-2',
          error ? 'border-red-400' : 'border-gray-300',
        )}
      >
        {GROUPS.map((g) => (
          <div key={g} role="group" aria-label={GROUP_LABELS[g]}>
            <p className="mb-0.5 text-xs font-semibold tracking-wide text-gray-500 uppercase">{GROUP_LABELS[g]}</p>
            {NOTIFICATION_EVENTS.filter((e) => e.startsWith(`${g}.`)).map((e) => (
              <label key={e} className="flex items-center gap-2 py-0.5 text-sm text-gray-800">
                <input
                  type="checkbox"
                  ref={e === NOTIFICATION_EVENTS[0] ? field.ref : undefined}
                  checked={value.includes(e)}
                  disabled={disabled}
                  onChange={(ev) => toggle(e, ev.target.checked)}
                  className="h-4 w-4 rounded border-gray-300 text-blue-600 focus-visible:outline-2 focus-visible:outline-blue-600"
                />
                <span className="font-mono text-xs">{e}</span>
              </label>
            ))}
          </div>
        ))}
      </div>
      {extra.length > 0 && (
        <div role="group" aria-label="Other events" className="flex flex-wrap gap-3 px-1 text-sm text-gray-800">
          {extra.map((e) => (
            <label key={e} className="flex items-center gap-2">
              <input
                type="checkbox"
                checked
                disabled={disabled}
                onChange={() => toggle(e, false)}
                className="h-4 w-4 rounded border-gray-300"
              />
              <span className="font-mono text-xs">{e}</span>
            </label>
          ))}
        </div>
      )}
      {error && (
        <p id={`${id}-error`} className="text-xs text-red-600" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
