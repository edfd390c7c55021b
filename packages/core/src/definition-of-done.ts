/**
 * The automatic definition of done (seed 001 section 4): a CEL expression per evidence, evaluated
 * by the server on a schedule against the evidence's resource. The Add Definition of Done dialog
 * offers these examples; the server's evaluator understands exactly these variables:
 * `check`, `component`, `config`, `analysis` (the linked resource, each with an `age` duration
 * since its last status change), `evidence`, `incident` and `now` (a timestamp).
 */
export const DOD_SCRIPT_EXAMPLES = [
  { label: 'Check healthy for over 5 minutes', script: 'check.status == "healthy" && check.age > duration("5m")' },
  { label: 'Analysis resolved', script: 'analysis.status == "resolved"' },
  { label: 'Topology status healthy', script: 'component.status == "healthy"' },
] as const;

/**
 * Evidence types the server evaluates automatically: every type but comment, which is marked done
 * by hand (seed 001 section 4 offers every other type under Automatic). A config change is judged
 * by the config it changed, a log by the component it was read from.
 */
export const AUTOMATIC_DOD_TYPES = ['check', 'topology', 'config', 'config_analysis', 'config_change', 'log'] as const;
export type AutomaticDodType = (typeof AUTOMATIC_DOD_TYPES)[number];

/**
 * Whether the server can evaluate this evidence: an automatic type with the resource it is judged
 * by (a log evidence without a component has nothing to follow; mark such a thing done by hand).
 */
export function evaluatesAutomatically(e: { type: string; component_id?: string | null }): boolean {
  if (!(AUTOMATIC_DOD_TYPES as readonly string[]).includes(e.type)) return false;
  return e.type !== 'log' || !!e.component_id;
}
