/**
 * The `file` kind: files on this machine (`paths`, globs) or in a git repository (`url` of a
 * remote or a local repository, cloned into the data directory and fetched on every run, read
 * at `ref`, default the remote's HEAD). JSON, YAML (every document of a multi-document file) or
 * plain text (`format`); each document is split and named by the shared mapping (mapping.ts).
 */
import { readFile, stat } from 'node:fs/promises';
import { basename, isAbsolute, join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { mapDocument, type MappingSpec } from '#server/catalog/mapping.ts';
import { checkoutGit, gitUrlRefusal, globFiles, globRefusal, realInside } from '#server/git/index.ts';
import type { ScrapeContext, ScrapeResult } from '#server/catalog/scrape/types.ts';

interface FileSpec extends MappingSpec {
  format?: string;
  paths?: string[];
  url?: string;
  /** a branch, tag or commit of `url` (default: the remote's HEAD) */
  ref?: string;
  ignore?: string[];
}

/** a file bigger than this is reported, not read */
const MAX_FILE_BYTES = 10 * 1024 * 1024;

const DEFAULT_GLOBS: Record<string, string[]> = {
  yaml: ['**/*.yaml', '**/*.yml'],
  json: ['**/*.json'],
  text: ['**/*'],
};

function fileFormat(spec: { format?: string }): 'json' | 'yaml' | 'text' {
  const f = (spec.format ?? 'yaml').toLowerCase();
  if (f === 'yml') return 'yaml';
  if (f === 'json' || f === 'yaml' || f === 'text') return f;
  throw new Error(`format ${spec.format} is not one of json, yaml, text`);
}

function parseFile(text: string, format: 'json' | 'yaml' | 'text'): { docs: unknown[]; error?: string } {
  if (format === 'text') return { docs: [text] };
  if (format === 'json') {
    try {
      return { docs: [JSON.parse(text)] };
    } catch (err) {
      return { docs: [], error: `not JSON: ${(err as Error).message}` };
    }
  }
  const docs: unknown[] = [];
  for (const d of parseAllDocuments(text)) {
    if ('errors' in d && d.errors.length) return { docs, error: `not YAML: ${d.errors[0].message}` };
    const value = d.toJS({ maxAliasCount: 100 }) as unknown;
    if (value !== null && value !== undefined) docs.push(value);
  }
  return { docs };
}

/**
 * Parsed files by path, while their modification time and size stay the same: parsing is most of
 * a scrape's time (YAML about 0.5 ms a document) and most files do not change between runs.
 * The documents are shared between runs and never modified (ingest copies bodies).
 */
const parsedFiles = new Map<string, { stamp: string; docs: unknown[]; error?: string }>();
const MAX_CACHED_FILES = 200_000;

async function readParsed(
  full: string,
  format: 'json' | 'yaml' | 'text',
  mtimeMs: number,
  size: number,
): Promise<{ docs: unknown[]; error?: string }> {
  const stamp = `${format}/${mtimeMs}/${size}`;
  const hit = parsedFiles.get(full);
  if (hit && hit.stamp === stamp) return hit;
  const parsed = parseFile(await readFile(full, 'utf8'), format);
  if (parsedFiles.size >= MAX_CACHED_FILES) parsedFiles.clear();
  parsedFiles.set(full, { stamp, ...parsed });
  return parsed;
}

export async function scrapeFile(raw: Record<string, unknown>, ctx: ScrapeContext): Promise<ScrapeResult> {
  const spec = raw as FileSpec;
  const format = fileFormat(spec);
  const result: ScrapeResult = { items: [], changes: [], relationships: [], errors: [] };
  const roots = ctx.fileRoots;
  let root = roots[0];
  let origin = '';
  if (spec.url) {
    const refusal = await gitUrlRefusal(spec.url, roots);
    if (refusal) throw new Error(refusal);
    const { dir } = await checkoutGit(join(ctx.dataDir, 'catalog', 'git'), spec.url, spec.ref);
    root = dir;
    origin = spec.url.replace(/\/$/, '');
  } else if (!spec.paths?.length) {
    throw new Error('paths or url is required');
  }
  const globs = spec.paths?.length ? spec.paths : DEFAULT_GLOBS[format];
  for (const g of globs) {
    const refusal = globRefusal(g, spec.url ? undefined : roots);
    if (refusal) throw new Error(refusal);
  }
  const files = await globFiles(root, globs, spec.ignore);
  for (const path of files) {
    if (ctx.signal.aborted) throw ctx.signal.reason as Error;
    const source = origin ? `${origin}/${path}` : path;
    // the real path, so that no symbolic link (on disk or committed) leads out of the roots
    const full = await realInside(isAbsolute(path) ? path : join(root, path), spec.url ? [root] : roots);
    if (!full) {
      result.errors.push({
        type: spec.type ?? 'File',
        message: `${source}: outside the directories file scrapers may read`,
      });
      continue;
    }
    const { size, mtimeMs } = await stat(full);
    if (size > MAX_FILE_BYTES) {
      result.errors.push({ type: spec.type ?? 'File', message: `${source}: larger than ${MAX_FILE_BYTES} bytes` });
      continue;
    }
    const { docs, error } = await readParsed(full, format, mtimeMs, size);
    if (error) result.errors.push({ type: spec.type ?? 'File', message: `${source}: ${error}` });
    docs.forEach((doc, k) => {
      const { items, errors } = mapDocument(doc, spec, {
        id: docs.length > 1 ? `${path}#${k}` : path,
        name: basename(path),
        type: spec.type ? undefined : 'File',
        source,
        format,
      });
      result.items.push(...items);
      result.errors.push(...errors);
    });
  }
  return result;
}
