/**
 * Log lines for a person at a terminal. The server logs JSON lines (pino, Fastify's logger): right
 * for a log collector, hard to read in a terminal. When stdout is a terminal, main.ts hands
 * Fastify this destination instead, which turns each JSON line into
 *
 *   12:04:31.552 INFO  request completed  reqId=req-1 res.statusCode=200 responseTime=1.93
 *
 * (level coloured, the message, then the other fields as key=value, nested ones dotted, an
 * error's stack on the following lines). Anything that is not a JSON object is passed through.
 */
const LEVELS: Record<number, { name: string; colour: string }> = {
  10: { name: 'TRACE', colour: '\x1b[90m' },
  20: { name: 'DEBUG', colour: '\x1b[36m' },
  30: { name: 'INFO', colour: '\x1b[32m' },
  40: { name: 'WARN', colour: '\x1b[33m' },
  50: { name: 'ERROR', colour: '\x1b[31m' },
  60: { name: 'FATAL', colour: '\x1b[35m' },
};
const RESET = '\x1b[0m';
const DIM = '\x1b[2m';
/** pino's own fields, shown in the line's head or not at all */
const HEAD = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'v']);

function flatten(prefix: string, value: unknown, out: string[], depth: number): void {
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && depth < 3) {
    for (const [k, v] of Object.entries(value as Record<string, unknown>))
      flatten(prefix ? `${prefix}.${k}` : k, v, out, depth + 1);
    return;
  }
  const text =
    typeof value === 'string'
      ? /[\s"=]/.test(value) || value === ''
        ? JSON.stringify(value)
        : value
      : JSON.stringify(value);
  out.push(`${prefix}=${text}`);
}

export function formatLogLine(line: string, colour: boolean): string {
  let entry: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(line);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return line.endsWith('\n') ? line : `${line}\n`;
    entry = parsed as Record<string, unknown>;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  const level = LEVELS[Number(entry.level)] ?? { name: String(entry.level ?? '').toUpperCase(), colour: '' };
  const time = typeof entry.time === 'number' ? new Date(entry.time) : new Date();
  const clock = `${String(time.getHours()).padStart(2, '0')}:${String(time.getMinutes()).padStart(2, '0')}:${String(time.getSeconds()).padStart(2, '0')}.${String(time.getMilliseconds()).padStart(3, '0')}`;
  const fields: string[] = [];
  let stack = '';
  for (const [k, v] of Object.entries(entry)) {
    if (HEAD.has(k)) continue;
    if (k === 'err' && v && typeof v === 'object') {
      const e = v as { message?: unknown; stack?: unknown };
      if (typeof e.stack === 'string') stack = e.stack;
      flatten('err', typeof e.message === 'string' ? e.message : v, fields, 0);
      continue;
    }
    flatten(k, v, fields, 0);
  }
  const name = level.name.padEnd(5);
  const head = colour ? `${DIM}${clock}${RESET} ${level.colour}${name}${RESET}` : `${clock} ${name}`;
  const msg = typeof entry.msg === 'string' ? entry.msg : '';
  const rest = fields.length ? `  ${colour ? DIM : ''}${fields.join(' ')}${colour ? RESET : ''}` : '';
  const tail = stack ? `\n${stack.replace(/^/gm, '    ')}` : '';
  return `${head} ${msg}${rest}${tail}\n`;
}

/** A pino destination writing readable lines to `out` (pino writes one JSON line per call). */
function prettyDestination(out: NodeJS.WritableStream, colour = true): { write(line: string): boolean } {
  return { write: (line) => out.write(formatLogLine(line.replace(/\n$/, ''), colour)) };
}

/** Readable lines when `out` is a terminal; undefined (JSON lines) otherwise. */
export function logDestinationFor(
  out: NodeJS.WritableStream & { isTTY?: boolean },
): { write(line: string): boolean } | undefined {
  return out.isTTY ? prettyDestination(out) : undefined;
}
