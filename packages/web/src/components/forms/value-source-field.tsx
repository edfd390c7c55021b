import { useId } from 'react';
import { useController, useFormContext, type FieldValues, type Path } from 'react-hook-form';
import { formatValueSource, parseValueSource, SECRET_MASK } from '@watchdeck/core';
import { cn } from '#web/lib/cn.ts';
import { FIELD_REQUIRED_MESSAGE, FormField, inputClass } from './form-field.tsx';

/**
 * Secret-or-value input (seed 002 sections 3 and 4): a literal value (Static), or a reference to a
 * key of a Kubernetes Secret or ConfigMap. Switching the source clears the other source's
 * sub-fields. The form value is a ValueSourceInput; `toStoredValue` turns it into the stored
 * string (core value-source.ts) and `fromStoredValue` back.
 */
export type ValueSourceChoice = 'static' | 'secret' | 'configmap';

export interface ValueSourceInput {
  source: ValueSourceChoice;
  value: string;
  name: string;
  key: string;
  /**
   * A secret is stored and the server shows only that it exists: an empty Static value then
   * means "keep the stored one".
   */
  stored?: boolean;
}

const VALUE_SOURCE_LABELS: Record<ValueSourceChoice, string> = {
  static: 'Static',
  secret: 'Secret',
  configmap: 'ConfigMap',
};

/** The stored string -> the form value; the API's mask becomes "a stored secret". */
export function fromStoredValue(stored: string | null | undefined): ValueSourceInput {
  if (stored === SECRET_MASK) return { source: 'static', value: '', name: '', key: '', stored: true };
  const parsed = parseValueSource(stored);
  if (parsed.source === 'static') return { source: 'static', value: parsed.value, name: '', key: '' };
  // helm references have no tab of their own: they stay as typed, as a static value
  if (parsed.source === 'helm') return { source: 'static', value: stored ?? '', name: '', key: '' };
  return { source: parsed.source, value: '', name: parsed.name, key: parsed.key };
}

/** The form value -> the stored string; undefined means "unchanged" (leave the column out). */
export function toStoredValue(v: ValueSourceInput | undefined): string | undefined {
  if (!v) return undefined;
  if (v.source === 'static') {
    if (v.stored && v.value === '') return undefined;
    return v.value;
  }
  return formatValueSource({ source: v.source, name: v.name, key: v.key });
}

export const emptyValueSource = (): ValueSourceInput => ({ source: 'static', value: '', name: '', key: '' });

export interface ValueSourceFieldProps<T extends FieldValues> {
  name: Path<T>;
  label: string;
  required?: boolean;
  hint?: string;
  /** hide what is typed (passwords, tokens) */
  secret?: boolean;
  multiline?: boolean;
  disabled?: boolean;
  className?: string;
}

function validate(required: boolean | undefined) {
  return (v: ValueSourceInput | undefined) => {
    if (!v) return required ? FIELD_REQUIRED_MESSAGE : true;
    if (v.source === 'static') return !required || v.value.trim() !== '' || !!v.stored || FIELD_REQUIRED_MESSAGE;
    // a reference needs both parts, even for an optional field
    if (!v.name.trim() || !v.key.trim())
      return v.name.trim() || v.key.trim() || required ? FIELD_REQUIRED_MESSAGE : true;
    return true;
  };
}

export function ValueSourceField<T extends FieldValues>({
  name,
  label,
  required,
  hint,
  secret,
  multiline,
  disabled,
  className,
}: ValueSourceFieldProps<T>) {
  const id = useId();
  const { control } = useFormContext<T>();
  const {
    field: { ref: inputRef, value, onChange, onBlur },
    fieldState,
  } = useController({ name, control, rules: { validate: validate(required) as never } });
  const v = (value as ValueSourceInput | undefined) ?? emptyValueSource();
  const error = fieldState.error?.message;
  const set = (patch: Partial<ValueSourceInput>) => onChange({ ...v, ...patch });
  const switchSource = (source: ValueSourceChoice) => {
    if (source === v.source) return;
    // seed 002 section 4: switching the source clears the other sub-fields
    onChange({ source, value: '', name: '', key: '', stored: v.stored });
  };
  const describedBy = error ? `${id}-error` : undefined;
  const placeholder = v.stored ? 'Stored securely. Type a new value to replace it' : undefined;

  return (
    <FormField label={label} htmlFor={id} error={error} hint={hint} required={required} className={className}>
      <div className="space-y-2">
        <div
          role="radiogroup"
          aria-label={`${label} source`}
          className="inline-flex rounded-md border border-gray-300 p-0.5"
        >
          {(Object.keys(VALUE_SOURCE_LABELS) as ValueSourceChoice[]).map((s) => (
            <button
              key={s}
              type="button"
              role="radio"
              aria-checked={v.source === s}
              disabled={disabled}
              onClick={() => switchSource(s)}
              className={cn(
                'rounded px-2.5 py-1 text-xs font-medium focus-visible:outline-2 focus-visible:outline-blue-600 disabled:cursor-not-allowed',
                v.source === s ? 'bg-blue-600 text-white' : 'text-gray-600 hover:bg-gray-100',
              )}
            >
              {VALUE_SOURCE_LABELS[s]}
            </button>
          ))}
        </div>
        {v.source === 'static' ? (
          multiline ? (
            <textarea
              id={id}
              ref={inputRef}
              rows={5}
              value={v.value}
              disabled={disabled}
              placeholder={placeholder}
              onChange={(e) => set({ value: e.target.value })}
              onBlur={onBlur}
              aria-invalid={!!error || undefined}
              aria-describedby={describedBy}
              className={cn(inputClass(!!error), 'font-mono text-xs')}
              spellCheck={false}
            />
          ) : (
            <input
              id={id}
              ref={inputRef}
              type={secret ? 'password' : 'text'}
              autoComplete={secret ? 'new-password' : 'off'}
              value={v.value}
              disabled={disabled}
              placeholder={placeholder}
              onChange={(e) => set({ value: e.target.value })}
              onBlur={onBlur}
              aria-invalid={!!error || undefined}
              aria-describedby={describedBy}
              className={inputClass(!!error)}
            />
          )
        ) : (
          <div className="grid grid-cols-2 gap-2">
            <input
              id={id}
              ref={inputRef}
              aria-label={`${label} ${VALUE_SOURCE_LABELS[v.source]} name`}
              placeholder={`${VALUE_SOURCE_LABELS[v.source]} name`}
              value={v.name}
              disabled={disabled}
              onChange={(e) => set({ name: e.target.value })}
              onBlur={onBlur}
              aria-invalid={!!error || undefined}
              aria-describedby={describedBy}
              className={inputClass(!!error)}
            />
            <input
              aria-label={`${label} ${VALUE_SOURCE_LABELS[v.source]} key`}
              placeholder="Key"
              value={v.key}
              disabled={disabled}
              onChange={(e) => set({ key: e.target.value })}
              onBlur={onBlur}
              aria-invalid={!!error || undefined}
              className={inputClass(!!error)}
            />
          </div>
        )}
      </div>
    </FormField>
  );
}
