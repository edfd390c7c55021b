/**
 * The templates of a team's responder configuration (seed 001 section 5: "Defaults from the
 * team's responder configuration are templates evaluated against the form values and the
 * incident"), e.g. `[{{.incident.incident_id}}] {{.incident.title}}` or a link URL
 * `https://jira.example.com/browse/{{.external_id}}`.
 *
 * The syntax is the field-path subset of Go templates that such configurations are written in:
 * `{{ .a.b.c }}` is replaced by the value at that path of the context (missing or null: empty,
 * objects: JSON). Anything else between braces is left as written, so a template never throws.
 * Shared by the web form (prefilled fields) and the server (fields filled before dispatch).
 */
const FIELD = /\{\{-?\s*\.([A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*)?\s*-?\}\}/g;

export function isTemplate(text: string): boolean {
  FIELD.lastIndex = 0;
  return FIELD.test(text);
}

function lookup(context: unknown, path: string | undefined): unknown {
  if (!path) return context;
  let v: unknown = context;
  for (const key of path.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

function show(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

export function renderTemplate(template: string, context: Record<string, unknown>): string {
  return template.replace(FIELD, (_match, path: string | undefined) => show(lookup(context, path)));
}
