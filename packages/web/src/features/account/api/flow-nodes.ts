/** Reading a flow's form description (ui.nodes). */
import {
  isInputNode,
  isTextNode,
  type Flow,
  type InputNode,
  type TextNode,
  type UiGroup,
  type UiNode,
} from './flow-types.ts';

export const nodesOf = (flow: Flow, groups: readonly UiGroup[]): UiNode[] =>
  flow.ui.nodes.filter((n) => n.group === 'default' || groups.includes(n.group));

export const hasGroup = (flow: Flow, group: UiGroup): boolean => flow.ui.nodes.some((n) => n.group === group);

export const inputNode = (flow: Flow, name: string): InputNode | undefined =>
  flow.ui.nodes.find((n): n is InputNode => isInputNode(n) && n.attributes.name === name);

export const textNode = (flow: Flow, id: string): TextNode | undefined =>
  flow.ui.nodes.find((n): n is TextNode => isTextNode(n) && n.attributes.id === id);

export const labelOf = (node: UiNode): string =>
  node.meta.label?.text ?? (node.attributes.node_type === 'input' ? node.attributes.name : node.attributes.id);

/** Data the browser needs but never sends back (the WebAuthn options are large). */
const isClientOnly = (name: string) => name.endsWith('_options');

/**
 * The body of a submission: the form's values, the clicked button's own name and value, and the
 * method the server dispatches on. A button named `method` is the method; any other button (e.g.
 * `totp_unlink=true`) belongs to the method of its group.
 */
export function submissionBody(values: Record<string, unknown>, button: InputNode): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) if (!isClientOnly(k) && v !== '' && v !== undefined) body[k] = v;
  if (typeof values.csrf_token === 'string') body.csrf_token = values.csrf_token;
  body.method = button.group;
  const { name, value = '' } = button.attributes;
  body[name] = value;
  return body;
}

/** Sets `a.b.c` in a nested object: react-hook-form keeps dotted field names (traits.email) nested. */
export function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let cur = target;
  for (const k of keys.slice(0, -1)) {
    if (!cur[k] || typeof cur[k] !== 'object') cur[k] = {};
    cur = cur[k] as Record<string, unknown>;
  }
  cur[keys[keys.length - 1]] = value;
}

/** The nested object form of dotted names, flattened back (`{traits: {email}}` -> `traits.email`). */
export function flatten(values: Record<string, unknown>, prefix = ''): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object' && !Array.isArray(v)) Object.assign(out, flatten(v as Record<string, unknown>, key));
    else out[key] = v;
  }
  return out;
}
