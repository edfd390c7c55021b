/**
 * The patch forms kubectl sends: JSON merge patch (RFC 7386; also what a strategic-merge patch
 * means here, since no field has a merge key), and server-side apply's field sets (`fieldsV1`:
 * `{"f:spec": {"f:http": {}}}`, lists counted as one field) with which a manager's earlier apply
 * is told apart from its new one, so fields it stopped applying are removed.
 */
type Json = unknown;
type Obj = Record<string, Json>;

export const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

/** RFC 7386: objects merge key by key, null removes, anything else replaces. */
export function mergePatch(target: Json, patch: Json): Json {
  if (!isObj(patch)) return patch;
  const out: Obj = isObj(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    // strategic-merge directives ($patch, $retainKeys, $setElementOrder/...) have nothing to act on here
    if (k.startsWith('$')) continue;
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

/** The fields an applied configuration sets, as Kubernetes' FieldsV1. */
export function fieldsOf(doc: Json): Obj {
  if (!isObj(doc)) return {};
  const out: Obj = {};
  for (const [k, v] of Object.entries(doc)) out[`f:${k}`] = isObj(v) ? fieldsOf(v) : {};
  return out;
}

/** `doc` without the fields `before` names and `after` does not (what a manager stopped applying). */
export function removeDropped(doc: Json, before: Obj, after: Obj): Json {
  if (!isObj(doc)) return doc;
  const out: Obj = { ...doc };
  for (const [fk, sub] of Object.entries(before)) {
    if (!fk.startsWith('f:')) continue;
    const k = fk.slice(2);
    if (!(fk in after)) delete out[k];
    else if (isObj(sub) && Object.keys(sub).length && isObj(after[fk]))
      out[k] = removeDropped(out[k], sub, after[fk] as Obj);
  }
  return out;
}
