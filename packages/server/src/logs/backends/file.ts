/**
 * The file backend: the files of `paths` (globs under the log roots, paths.ts), one entry per
 * line, newest first. Every file is read from its end backwards (reverse-lines.ts) and the files
 * are merged by time, so the first page of a 1 GB file costs a few chunks, not the file. A file
 * is read until its lines are older than the range's start (log files are appended in time
 * order). A line without a time of its own gets the time of the entry after it.
 *
 * Paging: the token holds, per file, the byte offset to read before; files that appear after the
 * first page are left for a new search. `total` counts on past the page for a short budget: when
 * the range was read to its start it is exact ('eq'), else a lower bound ('gte').
 */
import { stat } from 'node:fs/promises';
import type { LogLine } from '@watchdeck/core';
import { parseLine } from './line-parse.ts';
import { logFiles } from './paths.ts';
import { ReverseLineReader } from './reverse-lines.ts';
import { decodePage, encodePage, type BackendAnswer, type BackendQuery } from './types.ts';

export interface FileBackendSpec {
  path?: string;
  paths?: string[];
  labels?: Record<string, string>;
}

/** After the page is full, lines are counted for the total for this long at most. */
const COUNT_BUDGET_MS = 300;
/** Filling one page reads for this long at most; the answer then says where to go on. */
const PAGE_BUDGET_MS = 10_000;

type Token = { f: Record<string, number>; n: number };
const isToken = (v: unknown): v is Token =>
  !!v &&
  typeof v === 'object' &&
  Number.isInteger((v as Token).n) &&
  (v as Token).n >= 0 &&
  !!(v as Token).f &&
  typeof (v as Token).f === 'object' &&
  Object.values((v as Token).f).every((n) => Number.isInteger(n) && n >= 0);

interface Head {
  line: LogLine;
  time: number;
  start: number;
}

class FileCursor {
  private reader: ReverseLineReader;
  /** the time of the newest entry read, for lines without one */
  private lastTime: number;
  head: Head | undefined;
  /** where the next page starts reading this file: the start of the last line taken */
  position: number;
  finished = false;

  constructor(
    readonly path: string,
    end: number,
    mtimeMs: number,
    private readonly labels: Record<string, string>,
    private readonly q: BackendQuery,
    private readonly needle: string | undefined,
  ) {
    this.reader = new ReverseLineReader(path, end);
    this.position = end;
    this.lastTime = mtimeMs;
  }

  /** Moves head to the next matching entry in range (undefined once the file or the range ends). */
  async advance(): Promise<void> {
    this.head = undefined;
    while (!this.finished) {
      const raw = await this.reader.next();
      if (!raw) {
        this.finished = true;
        break;
      }
      if (!raw.text) continue;
      const parsed = parseLine(raw.text);
      const time = parsed.time ?? this.lastTime;
      this.lastTime = time;
      if (time > this.q.endMs) continue;
      if (time < this.q.startMs) {
        this.finished = true;
        break;
      }
      if (this.needle && !parsed.message.toLowerCase().includes(this.needle)) continue;
      this.head = {
        time,
        start: raw.start,
        line: {
          timestamp: new Date(time).toISOString(),
          message: parsed.message,
          labels: { ...this.labels, ...parsed.labels },
        },
      };
      return;
    }
  }

  take(): Head {
    const h = this.head!;
    this.position = h.start;
    return h;
  }

  close() {
    return this.reader.close();
  }
}

export async function searchFileBackend(
  spec: FileBackendSpec,
  q: BackendQuery,
  roots: readonly string[],
): Promise<BackendAnswer> {
  const globs = spec.paths ?? (spec.path ? [spec.path] : []);
  const token = decodePage(q.page, isToken);
  const wanted = Object.entries(q.labels ?? {});
  const files = (await logFiles(globs, roots))
    .map((f) => ({ ...f, labels: { ...(spec.labels ?? {}), ...f.labels } }))
    .filter((f) => wanted.every(([k, v]) => f.labels[k] === v))
    .filter((f) => !token || f.path in token.f);
  const needle = q.text?.trim().toLowerCase() || undefined;
  const cursors: FileCursor[] = [];
  for (const f of files) {
    const s = await stat(f.path).catch(() => undefined);
    if (!s?.isFile()) continue;
    const end = Math.min(token ? token.f[f.path] : s.size, s.size);
    cursors.push(new FileCursor(f.path, end, s.mtimeMs, f.labels, q, needle));
  }
  try {
    await Promise.all(cursors.map((c) => c.advance()));
    const newest = () => {
      let best: FileCursor | undefined;
      for (const c of cursors) if (c.head && (!best || c.head.time > best.head!.time)) best = c;
      return best;
    };
    const results: LogLine[] = [];
    const started = Date.now();
    let cut = false;
    while (results.length < q.limit) {
      if (q.signal.aborted || Date.now() - started > PAGE_BUDGET_MS) {
        cut = true;
        break;
      }
      const c = newest();
      if (!c) break;
      results.push(c.take().line);
      await c.advance();
    }
    // where the next page starts (the start of each file's last line taken), fixed before the
    // counting below reads further; a head not taken lies before it and is read again
    const positions = Object.fromEntries(cursors.map((c) => [c.path, c.position]));
    const more = cut || cursors.some((c) => c.head);
    // count on for the total
    const before = token?.n ?? 0;
    let total = before + results.length;
    const countFrom = Date.now();
    let complete = !cut;
    while (complete) {
      const c = newest();
      if (!c) break;
      if (Date.now() - countFrom > COUNT_BUDGET_MS || q.signal.aborted) {
        complete = false;
        break;
      }
      total++;
      c.take();
      await c.advance();
    }
    return {
      results,
      total,
      totalRelation: complete ? 'eq' : 'gte',
      next: more ? encodePage({ f: positions, n: before + results.length } satisfies Token) : undefined,
    };
  } finally {
    await Promise.all(cursors.map((c) => c.close()));
  }
}
