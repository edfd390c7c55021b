import { readFileSync } from 'node:fs';

/** The product version is the root package.json's; read once at start-up. */
export const version: string = JSON.parse(
  readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'),
).version;
