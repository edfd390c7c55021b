import { describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import pino from 'pino';
import { formatLogLine, logDestinationFor } from '../src/log-format.ts';

/** Log lines for a terminal (log-format.ts): what pino writes, made readable. */
describe('terminal log lines', () => {
  const capture = () => {
    const out: string[] = [];
    const stream = Object.assign(new Writable({ write: (c, _e, cb) => (out.push(String(c)), cb()) }), { isTTY: true });
    return { out, stream };
  };

  it('formats pino lines as time, level, message and key=value fields, with an error stack below', () => {
    const { out, stream } = capture();
    const dest = logDestinationFor(stream)!;
    expect(dest).toBeDefined();
    const log = pino({ level: 'info' }, dest);
    log.info({ reqId: 'req-1', res: { statusCode: 200 }, responseTime: 1.5 }, 'request completed');
    log.error({ err: new Error('boom') }, 'scheduled job failed');
    // eslint-disable-next-line no-control-regex -- the colours of a terminal
    const plain = out.map((l) => l.replace(/\x1b\[\d+m/g, ''));
    expect(plain[0]).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3} INFO {2}request completed {2}reqId=req-1 res\.statusCode=200 responseTime=1\.5\n$/,
    );
    expect(plain[1]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} ERROR scheduled job failed {2}err=boom\n {4}Error: boom\n {8}at /);
    expect(out.every((l) => !l.startsWith('{'))).toBe(true);
  });

  it('keeps JSON lines when the output is not a terminal, and passes non-JSON text through', () => {
    const out = new Writable({ write: (_c, _e, cb) => cb() });
    expect(logDestinationFor(out)).toBeUndefined();
    expect(formatLogLine('not json', false)).toBe('not json\n');
    expect(formatLogLine('{"level":40,"time":0,"msg":"careful","path":"/a b"}', false)).toMatch(
      /WARN {2}careful {2}path="\/a b"\n$/,
    );
  });
});
