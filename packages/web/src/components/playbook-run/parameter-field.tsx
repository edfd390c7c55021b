import { CodeEditor } from '#web/components/code-editor/index.ts';
import { FormField, inputClass } from '#web/components/forms/index.ts';
import { usePickList } from './api.ts';
import { ResourcePicker } from './resource-picker.tsx';
import type { PlaybookParam } from './types.ts';

const CODE_HEIGHT: Record<string, string> = {
  'very-small': '4rem',
  small: '8rem',
  medium: '14rem',
  large: '22rem',
  full: '30rem',
};

const BYTE_UNITS = ['Mi', 'Gi', 'Ti'] as const;

/** Splits '512Mi' into its number and unit (Mi by default, seed 000 section 5). */
function splitBytes(v: string): [string, string] {
  const m = /^(.*?)(Mi|Gi|Ti)$/.exec(v);
  return m ? [m[1], m[2]] : [v, 'Mi'];
}

/** value plus unit Mi, Gi or Ti */
function BytesInput({ id, value, onChange, invalid }: FieldProps) {
  const [n, unit] = splitBytes(value);
  const set = (nn: string, u: string) => onChange(nn === '' ? '' : `${nn}${u}`);
  return (
    <div className="flex gap-1.5">
      <input
        id={id}
        inputMode="decimal"
        value={n}
        onChange={(e) => set(e.target.value.trim(), unit)}
        aria-invalid={invalid || undefined}
        className={inputClass(invalid)}
      />
      <select
        aria-label="Unit"
        value={unit}
        onChange={(e) => set(n, e.target.value)}
        className={`${inputClass()} w-20`}
      >
        {BYTE_UNITS.map((u) => (
          <option key={u}>{u}</option>
        ))}
      </select>
    </div>
  );
}

/** value with the suffix m */
function MillicoresInput({ id, value, onChange, invalid }: FieldProps) {
  const n = value.replace(/m$/, '');
  return (
    <div className="flex items-center gap-1.5">
      <input
        id={id}
        inputMode="numeric"
        value={n}
        onChange={(e) => onChange(e.target.value.trim() === '' ? '' : `${e.target.value.trim()}m`)}
        aria-invalid={invalid || undefined}
        className={inputClass(invalid)}
      />
      <span className="text-sm text-gray-500">m</span>
    </div>
  );
}

interface FieldProps {
  id: string;
  value: string;
  onChange: (v: string) => void;
  invalid?: boolean;
}

function PickList({ table, id, value, onChange, invalid }: FieldProps & { table: 'teams' | 'people' }) {
  const list = usePickList(table, true);
  return (
    <select
      id={id}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      aria-invalid={invalid || undefined}
      aria-busy={list.isPending || undefined}
      className={inputClass(invalid)}
    >
      <option value="">{list.isPending ? 'Loading…' : 'Select…'}</option>
      {(list.data ?? []).map((o) => (
        <option key={o.id} value={o.id}>
          {o.name}
          {o.email ? ` <${o.email}>` : ''}
        </option>
      ))}
    </select>
  );
}

/** One playbook parameter's control, by its type (seed 000 section 3). */
export function ParameterField({
  param,
  value,
  onChange,
  onBlur,
  error,
}: {
  param: PlaybookParam;
  value: string;
  onChange: (v: string) => void;
  onBlur: () => void;
  error?: string;
}) {
  const id = `param-${param.name}`;
  const label = param.label || param.name;
  const p = param.properties ?? {};
  const invalid = !!error;
  const common = { id, value, onChange, invalid };

  if (param.type === 'checkbox') {
    return (
      <label className="flex items-center gap-2 text-sm text-gray-700">
        <input
          id={id}
          type="checkbox"
          checked={value === 'true'}
          onChange={(e) => onChange(e.target.checked ? 'true' : 'false')}
          onBlur={onBlur}
          className="size-4 rounded border-gray-300"
        />
        {label}
      </label>
    );
  }

  let control;
  switch (param.type) {
    case 'code':
      control = (
        <CodeEditor
          id={id}
          aria-label={label}
          language={p.language === 'json' ? 'json' : 'yaml'}
          value={value}
          onChange={onChange}
          onBlur={onBlur}
          invalid={invalid}
          height={CODE_HEIGHT[p.size ?? 'small'] ?? CODE_HEIGHT.small}
        />
      );
      break;
    case 'list':
      control = (
        <select {...common} onChange={(e) => onChange(e.target.value)} onBlur={onBlur} className={inputClass(invalid)}>
          <option value="">Select…</option>
          {(p.options ?? [])
            .map((o) => (typeof o === 'string' ? { value: o, label: o } : o))
            .map((o) => (
              <option key={o.value} value={o.value}>
                {o.label ?? o.value}
              </option>
            ))}
        </select>
      );
      break;
    case 'team':
      control = <PickList table="teams" {...common} />;
      break;
    case 'people':
      control = <PickList table="people" {...common} />;
      break;
    case 'component':
    case 'config':
    case 'check': {
      const types = Array.isArray(p.filter?.types) ? (p.filter.types as string[]) : undefined;
      control = (
        <ResourcePicker
          id={id}
          label={label}
          scope={{ kinds: [param.type], types }}
          value={value ? `${param.type}:${value}` : ''}
          onChange={(key) => onChange(key.slice(key.indexOf(':') + 1))}
          invalid={invalid}
        />
      );
      break;
    }
    default:
      if (p.format === 'bytes') control = <BytesInput {...common} />;
      else if (p.format === 'millicores') control = <MillicoresInput {...common} />;
      else if (String(p.multiline) === 'true')
        control = (
          <textarea
            {...common}
            rows={4}
            onChange={(e) => onChange(e.target.value)}
            onBlur={onBlur}
            aria-invalid={invalid || undefined}
            className={inputClass(invalid)}
          />
        );
      else
        control = (
          <input
            {...common}
            onChange={(e) => onChange(e.target.value)}
            onBlur={onBlur}
            aria-invalid={invalid || undefined}
            className={inputClass(invalid)}
          />
        );
  }
  return (
    <FormField label={label} htmlFor={id} required={param.required} error={error} hint={param.description}>
      {control}
    </FormField>
  );
}
