import {
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
import { useController, useFormContext, type FieldValues, type Path, type RegisterOptions } from 'react-hook-form';
import { z } from 'zod';
import { cn } from '#web/lib/cn.ts';

export const FIELD_REQUIRED_MESSAGE = 'This field is required';
const FIELD_NUMBER_MESSAGE = 'This field must be a number';

/** A required text value for zod form schemas. */
export const requiredText = () => z.string().trim().min(1, FIELD_REQUIRED_MESSAGE);

/**
 * A number typed into a text box: required gives 'This field is required', non-numeric
 * 'This field must be a number'; integers are parsed; minimum 0 by default.
 */
export const numberText = ({ min = 0, integer = true }: { min?: number; integer?: boolean } = {}) =>
  z
    .union([z.string(), z.number()])
    .transform((v, ctx) => {
      const text = typeof v === 'number' ? String(v) : v.trim();
      if (text === '') {
        ctx.addIssue({ code: 'custom', message: FIELD_REQUIRED_MESSAGE });
        return z.NEVER;
      }
      const n = Number(text);
      if (!Number.isFinite(n)) {
        ctx.addIssue({ code: 'custom', message: FIELD_NUMBER_MESSAGE });
        return z.NEVER;
      }
      return integer ? Math.trunc(n) : n;
    })
    .pipe(z.number().min(min, `Must be at least ${min}`));

export const inputClass = (invalid?: boolean) =>
  cn(
    'block w-full rounded-md border px-2.5 py-1.5 text-sm text-gray-900 shadow-sm placeholder:text-gray-400 focus:ring-1 focus:outline-none disabled:bg-gray-50 disabled:text-gray-500',
    invalid
      ? 'border-red-400 focus:border-red-500 focus:ring-red-500'
      : 'border-gray-300 focus:border-blue-500 focus:ring-blue-500',
  );

export interface FormFieldProps {
  label: ReactNode;
  htmlFor: string;
  error?: string;
  hint?: ReactNode;
  required?: boolean;
  children: ReactNode;
  className?: string;
}

/** Label, control, hint and error message, laid out the same way everywhere. */
export function FormField({ label, htmlFor, error, hint, required, children, className }: FormFieldProps) {
  return (
    <div className={cn('space-y-1', className)}>
      <label htmlFor={htmlFor} className="block text-sm font-medium text-gray-700">
        {label}
        {required && (
          <span className="ml-0.5 text-red-500" aria-hidden>
            *
          </span>
        )}
      </label>
      {children}
      {error ? (
        <p id={`${htmlFor}-error`} className="text-xs text-red-600" role="alert">
          {error}
        </p>
      ) : (
        hint && <p className="text-xs text-gray-500">{hint}</p>
      )}
    </div>
  );
}

type FieldProps<T extends FieldValues> = {
  name: Path<T>;
  label: ReactNode;
  required?: boolean;
  hint?: ReactNode;
  rules?: Omit<RegisterOptions<T, Path<T>>, 'valueAsNumber' | 'valueAsDate' | 'setValueAs' | 'disabled'>;
  className?: string;
};

/**
 * The field's value handlers and its error. When errors appear is the form's validation mode:
 * use `mode: 'onTouched'` for "once touched".
 */
function useFieldError<T extends FieldValues>(name: Path<T>, rules: FieldProps<T>['rules']) {
  const { control } = useFormContext<T>();
  const {
    field: { ref: inputRef, name: fieldName, value, onChange, onBlur },
    fieldState,
  } = useController({ name, control, rules });
  const error = fieldState.error?.message;
  return { inputRef, fieldName, value: value as unknown, onChange, onBlur, error };
}

/** A text input bound to the surrounding react-hook-form (FormProvider). */
export function TextField<T extends FieldValues>({
  name,
  label,
  required,
  hint,
  rules,
  className,
  ...input
}: FieldProps<T> & Omit<InputHTMLAttributes<HTMLInputElement>, 'name' | 'required'>) {
  const id = useId();
  const { inputRef, fieldName, value, onChange, onBlur, error } = useFieldError<T>(name, {
    ...(required ? { required: FIELD_REQUIRED_MESSAGE } : {}),
    ...rules,
  });
  return (
    <FormField label={label} htmlFor={id} error={error} hint={hint} required={required} className={className}>
      <input
        id={id}
        {...input}
        name={fieldName}
        ref={inputRef}
        value={(value as string | undefined) ?? ''}
        onChange={onChange}
        onBlur={onBlur}
        aria-invalid={!!error || undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={inputClass(!!error)}
      />
    </FormField>
  );
}

export function TextAreaField<T extends FieldValues>({
  name,
  label,
  required,
  hint,
  rules,
  className,
  ...input
}: FieldProps<T> & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'name' | 'required'>) {
  const id = useId();
  const { inputRef, fieldName, value, onChange, onBlur, error } = useFieldError<T>(name, {
    ...(required ? { required: FIELD_REQUIRED_MESSAGE } : {}),
    ...rules,
  });
  return (
    <FormField label={label} htmlFor={id} error={error} hint={hint} required={required} className={className}>
      <textarea
        id={id}
        rows={3}
        {...input}
        name={fieldName}
        ref={inputRef}
        value={(value as string | undefined) ?? ''}
        onChange={onChange}
        onBlur={onBlur}
        aria-invalid={!!error || undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={inputClass(!!error)}
      />
    </FormField>
  );
}

export interface SelectOption {
  value: string;
  label: string;
  disabled?: boolean;
}

/** A select bound to the surrounding react-hook-form; `placeholder` adds an empty first choice. */
export function SelectField<T extends FieldValues>({
  name,
  label,
  required,
  hint,
  rules,
  className,
  options,
  placeholder,
  ...select
}: FieldProps<T> & { options: readonly SelectOption[]; placeholder?: string } & Omit<
    SelectHTMLAttributes<HTMLSelectElement>,
    'name' | 'required'
  >) {
  const id = useId();
  const { inputRef, fieldName, value, onChange, onBlur, error } = useFieldError<T>(name, {
    ...(required ? { required: FIELD_REQUIRED_MESSAGE } : {}),
    ...rules,
  });
  return (
    <FormField label={label} htmlFor={id} error={error} hint={hint} required={required} className={className}>
      <select
        id={id}
        {...select}
        name={fieldName}
        ref={inputRef}
        value={(value as string | undefined) ?? ''}
        onChange={onChange}
        onBlur={onBlur}
        aria-invalid={!!error || undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={inputClass(!!error)}
      >
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value} disabled={o.disabled}>
            {o.label}
          </option>
        ))}
      </select>
    </FormField>
  );
}

/** Parses what was typed: integers by default, '' stays '' so 'required' can catch it. */
function parseNumberInput(text: string, integer = true): number | '' {
  const t = text.trim();
  if (t === '') return '';
  const n = Number(t);
  if (!Number.isFinite(n)) return NaN;
  return integer ? Math.trunc(n) : n;
}

/**
 * A number input: 'This field is required' when empty and required, 'This field must be a
 * number' when not numeric; integers are parsed; minimum 0 unless told otherwise.
 */
export function NumberField<T extends FieldValues>({
  name,
  label,
  required,
  hint,
  rules,
  className,
  min = 0,
  integer = true,
  ...input
}: FieldProps<T> & { min?: number; integer?: boolean } & Omit<
    InputHTMLAttributes<HTMLInputElement>,
    'name' | 'required' | 'min' | 'type'
  >) {
  const id = useId();
  const { inputRef, fieldName, value, onChange, onBlur, error } = useFieldError<T>(name, {
    validate: (v: unknown) => {
      if (v === '' || v === undefined || v === null) return required ? FIELD_REQUIRED_MESSAGE : true;
      if (typeof v !== 'number' || Number.isNaN(v)) return FIELD_NUMBER_MESSAGE;
      if (v < min) return `Must be at least ${min}`;
      return true;
    },
    ...rules,
  } as FieldProps<T>['rules']);
  const shown =
    typeof value === 'number' && !Number.isNaN(value) ? value : typeof value === 'string' ? value : undefined;
  return (
    <FormField label={label} htmlFor={id} error={error} hint={hint} required={required} className={className}>
      <input
        id={id}
        inputMode={integer ? 'numeric' : 'decimal'}
        {...input}
        type="text"
        name={fieldName}
        ref={inputRef}
        defaultValue={shown}
        onChange={(e) => onChange(parseNumberInput(e.target.value, integer))}
        onBlur={onBlur}
        aria-invalid={!!error || undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={inputClass(!!error)}
      />
    </FormField>
  );
}
