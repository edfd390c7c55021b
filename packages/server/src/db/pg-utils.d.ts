// node-postgres exports its parameter serialiser (`./lib/*` in its package exports) without types.
declare module 'pg/lib/utils.js' {
  /** the text (or Buffer, for binary values) node-postgres sends for a bound value */
  export function prepareValue(value: unknown): string | Buffer | null;
  const utils: { prepareValue: typeof prepareValue };
  export default utils;
}
