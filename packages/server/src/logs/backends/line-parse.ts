/**
 * One log line of a file as an entry: its timestamp and message, and labels a structured line
 * carries. Understood: JSON lines (pino/bunyan `time` in epoch ms, `timestamp`, `ts`, `@timestamp`;
 * message in `msg`, `message` or `log`; `level` as a label) and text lines that start with an ISO
 * 8601 or `YYYY-MM-DD HH:mm:ss[.SSS]` time (no zone: UTC), optionally in brackets (the message is
 * what follows it). A line with no
 * time gets none (undefined): the caller gives it the time of the entry after it.
 */
export interface ParsedLine {
  time: number | undefined;
  message: string;
  labels?: Record<string, string>;
}

const TEXT_TIME = /^\[?(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:[.,]\d{1,9})?)?)(Z|[+-]\d{2}:?\d{2})?\]?[\s|:-]*/;

function fromText(line: string): ParsedLine | undefined {
  const m = TEXT_TIME.exec(line);
  if (!m) return undefined;
  const [, date, clock, zone] = m;
  // fractions beyond milliseconds are dropped; Date parses three digits
  const c = clock.replace(',', '.').replace(/(\.\d{3})\d+$/, '$1');
  const z = !zone ? 'Z' : zone === 'Z' ? 'Z' : zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone;
  const time = Date.parse(`${date}T${c}${z}`);
  if (Number.isNaN(time)) return undefined;
  // the time is the entry's timestamp; the message is the rest of the line
  return { time, message: line.slice(m[0].length) || line };
}

function epochOrIso(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v < 1e11 ? v * 1000 : v > 1e15 ? v / 1e6 : v;
  if (typeof v === 'string') {
    const t = Date.parse(v);
    return Number.isNaN(t) ? undefined : t;
  }
  return undefined;
}

const PINO_LEVELS: Record<number, string> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};

function fromJson(line: string): ParsedLine | undefined {
  let doc: unknown;
  try {
    doc = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return undefined;
  const o = doc as Record<string, unknown>;
  const time = epochOrIso(o.time ?? o.timestamp ?? o.ts ?? o['@timestamp']);
  const msg = o.msg ?? o.message ?? o.log;
  const labels: Record<string, string> = {};
  if (typeof o.level === 'number') labels.level = PINO_LEVELS[o.level] ?? String(o.level);
  else if (typeof o.level === 'string') labels.level = o.level;
  // a structured line without a message shows whole
  return { time, message: typeof msg === 'string' ? msg : line, labels };
}

export function parseLine(line: string): ParsedLine {
  if (line.startsWith('{')) {
    const json = fromJson(line);
    if (json) return json;
  }
  return fromText(line) ?? { time: undefined, message: line };
}
