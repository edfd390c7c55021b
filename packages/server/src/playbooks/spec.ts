/**
 * A playbook spec as written (YAML text, JSON text or an object), judged against core's
 * `playbookSpecSchema`: the routes and the /api/db write path refuse a bad one with a 400 whose
 * message names the field (`spec.actions[0].exec.script is required`).
 */
import { z } from 'zod';
import { playbookSpecProblems, playbookSpecSchema } from '@watchdeck/core';
import type { WriteRegistration } from '#server/pgrest/index.ts';

export const SCHEMA_URL = '/api/playbook/schema.json';

/** Served at SCHEMA_URL; the web editor validates and completes with it. */
export const playbookJsonSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  ...(z.toJSONSchema(playbookSpecSchema, { target: 'draft-7', io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >),
  $id: SCHEMA_URL,
  title: 'Watchdeck playbook spec',
};

/** /api/db answers a check_violation (23514) as 400 with this message, nothing written. */
class PlaybookSpecError extends Error {
  readonly statusCode = 400;
  readonly code = '23514';
  readonly detail: string | undefined;
  readonly hint = `The playbook spec schema is served at ${SCHEMA_URL}`;
  constructor(readonly problems: string[]) {
    super(problems[0]);
    this.detail = problems.length > 1 ? problems.join('; ') : undefined;
  }
}

function specProblems(spec: unknown): string[] {
  if (!spec || typeof spec !== 'object' || Array.isArray(spec)) return ['spec must be an object'];
  return playbookSpecProblems(spec);
}

/** The problems of a playbook row as written (UI or sync): name, title, spec naming the field. */
export function playbookRowProblems(row: Record<string, unknown>, creating: boolean): string[] {
  const problems: string[] = [];
  if (creating || 'name' in row) {
    if (typeof row.name !== 'string' || !row.name.trim()) problems.push('name is required');
  }
  if (creating || 'title' in row) {
    if (typeof row.title !== 'string' || !row.title.trim()) problems.push('title is required');
  }
  if (creating || 'spec' in row) problems.push(...specProblems(row.spec));
  return problems;
}

/** The /api/db check of writes to `playbooks` (POST: every row; PATCH: the fields given). */
function validatePlaybookWrite(_table: string, method: string, raw: unknown): void {
  if (method !== 'POST' && method !== 'PATCH' && method !== 'PUT') return;
  let body: unknown;
  try {
    body = typeof raw === 'string' ? JSON.parse(raw) : raw;
  } catch {
    return; // the engine answers malformed JSON itself
  }
  for (const row of Array.isArray(body) ? body : [body]) {
    if (!row || typeof row !== 'object') continue;
    const problems = playbookRowProblems(row as Record<string, unknown>, method !== 'PATCH');
    if (problems.length) throw new PlaybookSpecError(problems);
  }
}

/** Specs checked before the SQL; after a commit the scheduler re-reads the playbooks' `on.schedule`. */
export function playbookWrites(scheduler: { reload(): Promise<void> }): readonly WriteRegistration[] {
  return [{ table: 'playbooks', check: validatePlaybookWrite, afterCommit: () => scheduler.reload() }];
}
