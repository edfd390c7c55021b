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

/** Evidence types the server can evaluate automatically (a comment is marked done by hand). */
export const AUTOMATIC_DOD_TYPES = ['check', 'topology', 'config', 'config_analysis'] as const;
