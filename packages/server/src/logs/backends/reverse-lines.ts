import { open, type FileHandle } from 'node:fs/promises';

/**
 * Reads a file's lines from the end backwards, a chunk at a time, so the newest entries of a
 * 1 GB log come first without loading the file. Each line carries the byte offset where it starts:
 * a page token keeps that offset and the next page reads from there (bytes before it only).
 */
export interface RawLine {
  text: string;
  /** byte offset of the line's first byte */
  start: number;
}

const CHUNK = 256 * 1024;
/** a "line" longer than this (a file without newlines) is cut into pieces of this size */
const MAX_LINE_BYTES = 1024 * 1024;

export class ReverseLineReader {
  private handle: FileHandle | undefined;
  /** bytes [0, pos) are not read yet */
  private pos: number;
  /** the unfinished line at the front of what was read: bytes [pos, pos + carry.length) */
  private carry: Buffer = Buffer.alloc(0);
  private ready: RawLine[] = [];
  private done = false;

  constructor(
    private readonly path: string,
    /** read bytes before this offset only (the file's size, or a page token's position) */
    end: number,
  ) {
    this.pos = end;
  }

  private async fill(): Promise<void> {
    while (!this.ready.length && !this.done) {
      if (this.pos <= 0) {
        if (this.carry.length) this.ready.push({ text: this.carry.toString('utf8'), start: 0 });
        this.carry = Buffer.alloc(0);
        this.done = true;
        break;
      }
      this.handle ??= await open(this.path, 'r');
      const size = Math.min(CHUNK, this.pos);
      const start = this.pos - size;
      const buf = Buffer.allocUnsafe(size);
      let read = 0;
      while (read < size) {
        const r = await this.handle.read(buf, read, size - read, start + read);
        if (r.bytesRead === 0) break;
        read += r.bytesRead;
      }
      this.pos = start;
      let data = this.carry.length ? Buffer.concat([buf.subarray(0, read), this.carry]) : buf.subarray(0, read);
      // lines found in this chunk, newest (last) first; the part before the first newline stays
      const found: RawLine[] = [];
      let lineEnd = data.length;
      for (let i = data.length - 1; i >= 0; i--) {
        if (data[i] !== 0x0a) continue;
        if (i + 1 < lineEnd || lineEnd < data.length) found.push(this.line(data, i + 1, lineEnd, start));
        lineEnd = i;
      }
      data = data.subarray(0, lineEnd);
      if (data.length > MAX_LINE_BYTES) {
        // no newline in a megabyte: hand out the tail as a line of its own
        const cut = data.length - MAX_LINE_BYTES;
        found.push(this.line(data, cut, data.length, start));
        data = data.subarray(0, cut);
      }
      this.carry = Buffer.from(data);
      this.ready.push(...found);
    }
  }

  private line(data: Buffer, from: number, to: number, base: number): RawLine {
    let end = to;
    if (end > from && data[end - 1] === 0x0d) end--; // CRLF files
    return { text: data.toString('utf8', from, end), start: base + from };
  }

  /** The next older line, or undefined at the start of the file. */
  async next(): Promise<RawLine | undefined> {
    if (!this.ready.length) await this.fill();
    return this.ready.shift();
  }

  /** How many bytes are left to read before the file's start (for scan budgets). */
  get remaining(): number {
    return this.pos;
  }

  async close(): Promise<void> {
    await this.handle?.close().catch(() => undefined);
    this.handle = undefined;
  }
}
