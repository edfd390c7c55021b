import {
  connectionDefaults,
  connectionToRow,
  rowToConnectionValues,
  type ConnectionTypeDef,
  type ConnectionValues,
} from '@watchdeck/core';
import {
  emptyValueSource,
  fromStoredValue,
  toStoredValue,
  type ValueSourceInput,
} from '#web/components/forms/index.ts';
import type { ConnectionRow } from '../api/use-connections.ts';

/** Form values: plain values by field key; secret-or-value fields hold a ValueSourceInput. */
export type ConnectionFormValues = Record<string, string | number | boolean | ValueSourceInput | undefined>;

const isSourceField = (kind: string) => kind === 'value' || kind === 'secret';

export function initialFormValues(def: ConnectionTypeDef, row: ConnectionRow | null): ConnectionFormValues {
  const plain = row ? rowToConnectionValues(def, row) : connectionDefaults(def);
  const out: ConnectionFormValues = { ...plain };
  for (const f of def.fields) {
    if (!isSourceField(f.kind)) continue;
    const stored = plain[f.key];
    out[f.key] = row ? fromStoredValue(typeof stored === 'string' ? stored : '') : emptyValueSource();
  }
  return out;
}

/**
 * The row to write. When editing, a secret left as stored is left out of the PATCH, so the
 * server keeps it (it only ever shows a mask); the type and the creator never change.
 */
export function connectionPayload(
  def: ConnectionTypeDef,
  values: ConnectionFormValues,
  editing: boolean,
): Record<string, unknown> {
  const plain: ConnectionValues = {};
  const unchanged: string[] = [];
  for (const [k, v] of Object.entries(values)) {
    if (v && typeof v === 'object') {
      const stored = toStoredValue(v);
      if (stored === undefined) unchanged.push(k);
      else plain[k] = stored;
    } else plain[k] = v;
  }
  const row: Record<string, unknown> = { ...connectionToRow(def, plain) };
  for (const f of def.fields) if (f.column && unchanged.includes(f.key)) delete row[f.column];
  if (editing) delete row.type;
  return row;
}
