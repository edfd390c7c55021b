import { z } from 'zod';
import { SETTINGS_KINDS } from './kinds.ts';

/**
 * The JSON Schema of each kind's spec, generated from the zod schema the server validates with,
 * so the editor's completion and the server's verdict never disagree. Draft-07: what the web
 * editor's JSON-schema support (codemirror-json-schema) understands best.
 */
const cache = new Map<string, Record<string, unknown>>();

export function specJsonSchema(kind: string): Record<string, unknown> | undefined {
  const def = SETTINGS_KINDS.find((k) => k.kind === kind);
  if (!def) return undefined;
  let schema = cache.get(kind);
  if (!schema) {
    schema = {
      ...(z.toJSONSchema(def.spec, { target: 'draft-7', io: 'input', unrepresentable: 'any' }) as Record<
        string,
        unknown
      >),
      $id: `/api/schemas/${kind}.schema.json`,
      title: `${def.title} spec`,
    };
    cache.set(kind, schema);
  }
  return schema;
}
