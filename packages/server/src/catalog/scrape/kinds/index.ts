/**
 * The scraper kinds that read a source, by the spec key they answer to (`spec.file`, `spec.http`,
 * ...). A new kind is one line here; the engine runs every entry of every key of a spec through
 * its kind, and reports the keys of seed 002 that have none as "not supported yet".
 */
import type { ScraperKind } from '#server/catalog/scrape/types.ts';
import { scrapeFile } from './file.ts';
import { scrapeHttp } from './http.ts';
import { kubernetesKind } from './kubernetes.ts';
import { scrapeSql } from './sql.ts';

export const SCRAPER_KINDS: Record<string, ScraperKind> = {
  file: scrapeFile,
  http: scrapeHttp,
  kubernetes: kubernetesKind,
  sql: scrapeSql,
};

/** Every kind of seed 002's scraper spec; `custom` items arrive through POST /api/catalog/push. */
export const SPEC_KINDS = [
  'kubernetes',
  'aws',
  'azure',
  'azureDevops',
  'file',
  'githubActions',
  'http',
  'kubernetesFile',
  'sql',
  'trivy',
  'custom',
] as const;
