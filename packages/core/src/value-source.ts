/**
 * Secret-or-value input (seed 002 section 3): a field holds either a literal value or a reference
 * to where the value lives. In the connections table a reference is stored as a string,
 *
 *   secret://<name>/<key>      a key of a Kubernetes secret
 *   configmap://<name>/<key>   a key of a Kubernetes config map
 *   helm://<release>/<key>     a value of a Helm release
 *
 * so one text column can hold either form. The web form offers Static, Secret and ConfigMap; the
 * server stores whichever it gets and refuses to guess a value it cannot resolve itself.
 */
export const VALUE_SOURCES = ['static', 'secret', 'configmap'] as const;
export type ValueSourceKind = (typeof VALUE_SOURCES)[number];

export type ValueSource =
  { source: 'static'; value: string } | { source: 'secret' | 'configmap' | 'helm'; name: string; key: string };

const REFERENCE = /^(secret|configmap|helm):\/\/([^/]+)\/(.+)$/;

/** Whether a stored value points somewhere else instead of being the value. */
export function isValueReference(stored: unknown): boolean {
  return typeof stored === 'string' && REFERENCE.test(stored);
}

export function parseValueSource(stored: string | null | undefined): ValueSource {
  const m = REFERENCE.exec(stored ?? '');
  if (!m) return { source: 'static', value: stored ?? '' };
  return { source: m[1] as 'secret' | 'configmap' | 'helm', name: m[2], key: m[3] };
}

/** The stored form; an empty static value or an incomplete reference is '' (not set). */
export function formatValueSource(v: ValueSource): string {
  if (v.source === 'static') return v.value;
  const name = v.name.trim();
  const key = v.key.trim();
  return name && key ? `${v.source}://${name}/${key}` : '';
}
