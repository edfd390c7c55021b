import { inflateRawSync } from 'node:zlib';

/**
 * Reads a zip as a downloaded file is read: from its central directory (the sizes of streamed
 * entries are only there), each entry stored or deflated. Enough for the snapshot test, which has
 * no zip reader among the dependencies; anything else (zip64, encryption) is refused.
 */
export function unzip(zip: Buffer): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--)
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  if (eocd < 0) throw new Error('not a zip: no end of central directory');
  const count = zip.readUInt16LE(eocd + 10);
  let p = zip.readUInt32LE(eocd + 16);
  for (let n = 0; n < count; n++) {
    if (zip.readUInt32LE(p) !== 0x02014b50) throw new Error(`bad central directory entry at ${p}`);
    const method = zip.readUInt16LE(p + 10);
    const compressed = zip.readUInt32LE(p + 20);
    const size = zip.readUInt32LE(p + 24);
    const nameLength = zip.readUInt16LE(p + 28);
    const extraLength = zip.readUInt16LE(p + 30);
    const commentLength = zip.readUInt16LE(p + 32);
    const local = zip.readUInt32LE(p + 42);
    const name = zip.subarray(p + 46, p + 46 + nameLength).toString('utf8');
    if (compressed === 0xffffffff || local === 0xffffffff) throw new Error('zip64 is not read here');
    if (zip.readUInt32LE(local) !== 0x04034b50) throw new Error(`bad local header for ${name}`);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + compressed);
    const content = method === 0 ? Buffer.from(data) : method === 8 ? inflateRawSync(data) : undefined;
    if (!content) throw new Error(`${name}: compression method ${method} is not read here`);
    if (content.length !== size) throw new Error(`${name}: ${content.length} bytes, the directory says ${size}`);
    files.set(name, content);
    p += 46 + nameLength + extraLength + commentLength;
  }
  return files;
}
