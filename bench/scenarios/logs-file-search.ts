import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshDb, startServer } from '../support.ts';
import type { Scenario } from './index.ts';

const GB = 1024 ** 3;
const SPAN_MS = 7 * 86_400_000;

/**
 * Writes a 1 GB log of text lines with ISO times over the last 7 days, oldest first as a log is
 * written; every 10th line is an ERROR. About 9 million lines, written 8 MB at a time.
 */
function writeLog(path: string): number {
  const fd = openSync(path, 'w');
  const start = Date.now() - SPAN_MS;
  const lineOf = (i: number, step: number) =>
    `${new Date(start + i * step).toISOString()} ${i % 10 === 0 ? 'ERROR' : 'INFO '} orders-api request ${i.toString().padStart(9, '0')} handled for tenant ${(i % 997).toString().padStart(3, '0')} path=/api/orders\n`;
  const lines = Math.ceil(GB / lineOf(0, 0).length);
  const step = SPAN_MS / lines;
  let written = 0;
  let chunk: string[] = [];
  let size = 0;
  for (let i = 0; i < lines; i++) {
    const line = lineOf(i, step);
    chunk.push(line);
    size += line.length;
    if (size > 8 * 1024 * 1024) {
      written += writeSync(fd, chunk.join(''));
      chunk = [];
      size = 0;
    }
  }
  written += writeSync(fd, chunk.join(''));
  closeSync(fd);
  return written;
}

/**
 * Issue 17's target: a log search over a 1 GB file backend returns its first page in under 1 s.
 * A real server (PostgreSQL) with the file's directory as a log root; one search of the whole
 * range for a word on every tenth line, measured once from sending to the last byte, cold
 * (nothing of the file was read through the server before).
 */
export const logsFileSearch: Scenario = {
  name: 'logs: first page of a search over a 1 GB file backend',
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'bench-logs-'));
    const bench = await freshDb();
    try {
      const genStart = performance.now();
      writeLog(join(dir, 'orders.log'));
      const genMs = performance.now() - genStart;
      const { rows } = await bench.db.query<{ id: string }>(
        `INSERT INTO components (name, logs) VALUES ('orders-api', '[{"name":"bench-file","type":"file"}]') RETURNING id`,
      );
      await bench.db.query(`INSERT INTO logging_backends (name, spec) VALUES ('bench-file', $1::jsonb)`, [
        JSON.stringify({ file: { paths: [join(dir, '*.log')] } }),
      ]);
      const server = await startServer(bench, { WATCHDECK_LOG_ROOTS: dir });
      try {
        const started = performance.now();
        const res = await fetch(`${server.url}/api/logs`, {
          method: 'POST',
          headers: { cookie: server.cookie, origin: server.url, 'content-type': 'application/json' },
          body: JSON.stringify({ id: rows[0].id, start: '30d', query: 'error', limit: 100 }),
        });
        const body = (await res.json()) as { results?: { message: string }[]; total?: number; totalRelation?: string };
        const ms = performance.now() - started;
        if (
          res.status !== 200 ||
          body.results?.length !== 100 ||
          !body.results.every((l) => l.message.includes('ERROR'))
        )
          throw new Error(`unexpected answer ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
        return {
          'file GB': +(statSync(join(dir, 'orders.log')).size / GB).toFixed(2),
          'generate s': +(genMs / 1000).toFixed(1),
          'first page ms': Math.round(ms),
          total: `${body.totalRelation === 'gte' ? '>=' : ''}${body.total}`,
          target: '< 1000 ms',
          pass: ms < 1000 ? 'yes' : 'NO',
        };
      } finally {
        await server.stop();
      }
    } finally {
      await bench.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
