/**
 * The agents area (README.md in this folder): the registry of remote agents, their tokens, and
 * the upstream API they push to and pull from.
 */
import type { FastifyInstance } from 'fastify';
import { AGENT_MESSAGES, agentPropertiesSchema } from '@watchdeck/core';
import type { Db } from '../db/index.ts';
import type { WriteRegistration } from '../pgrest/index.ts';
import { agentRoutes } from './routes.ts';

export function registerAgents(
  app: FastifyInstance,
  deps: {
    db: Db;
    /** the feature flags: 'agents' disabled switches the upstream API off too */ isDisabled: (
      feature: string,
    ) => Promise<boolean>;
  },
): void {
  agentRoutes(app, deps);
}

/**
 * What a write of agents through /api/db may set: the edit form's fields and the deletion. A row
 * inserted here has no identity or token (generate makes those); last_seen, person_id and the
 * like are the server's to write.
 */
const PATCHABLE = new Set(['description', 'properties', 'spec', 'deleted_at', 'cleanup', 'updated_at']);
const INSERTABLE = new Set(['id', 'name', 'description', 'properties', 'spec']);

const refuse = (message: string) => Object.assign(new Error(message), { code: '23514' });

function checkAgentWrite(_table: string, method: string, raw: unknown): void {
  if (method !== 'PATCH' && method !== 'POST' && method !== 'PUT') return;
  let body = raw;
  if (typeof raw === 'string') {
    try {
      body = JSON.parse(raw);
    } catch {
      return; // the engine answers PGRST102
    }
  }
  const allowed = method === 'PATCH' ? PATCHABLE : INSERTABLE;
  for (const row of Array.isArray(body) ? body : [body]) {
    if (!row || typeof row !== 'object' || Array.isArray(row)) continue;
    const r = row as Record<string, unknown>;
    const other = Object.keys(r).filter((k) => !allowed.has(k));
    if (other.length) throw refuse(`An agent's ${other.join(', ')} cannot be set here`);
    if ('properties' in r && !agentPropertiesSchema.safeParse(r.properties).success)
      throw refuse(AGENT_MESSAGES.properties);
  }
}

export const agentWrites: WriteRegistration[] = [{ table: 'agents', check: checkAgentWrite }];
