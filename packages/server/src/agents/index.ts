/**
 * The agents area (README.md in this folder): the registry of remote agents, their tokens, and
 * the upstream API they push to and pull from.
 */
import type { FastifyInstance } from 'fastify';
import { AGENT_MESSAGES, agentPropertiesSchema } from '@watchdeck/core';
import type { Db } from '../db/index.ts';
import type { WriteRegistration } from '../pgrest/index.ts';
import { agentRoutes } from './routes.ts';

export function registerAgents(app: FastifyInstance, deps: { db: Db }): void {
  agentRoutes(app, deps);
}

/** What a PATCH of agents through /api/db may change: the edit form's fields and the deletion. */
const PATCHABLE = new Set(['description', 'properties', 'spec', 'deleted_at', 'cleanup', 'updated_at']);

const refuse = (message: string) => Object.assign(new Error(message), { code: '23514' });

function checkAgentWrite(_table: string, method: string, raw: unknown): void {
  if (method === 'POST' || method === 'PUT')
    throw refuse('Agents are created with POST /api/agent/generate, which also issues their token');
  if (method === 'DELETE') throw refuse('An agent is deleted by setting deleted_at (with cleanup to remove its resources)');
  if (method !== 'PATCH') return;
  let body = raw;
  if (typeof raw === 'string') {
    try {
      body = JSON.parse(raw);
    } catch {
      return; // the engine answers PGRST102
    }
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return;
  const row = body as Record<string, unknown>;
  const other = Object.keys(row).filter((k) => !PATCHABLE.has(k));
  if (other.length) throw refuse(`An agent's ${other.join(', ')} cannot be changed here`);
  if ('properties' in row && !agentPropertiesSchema.safeParse(row.properties).success)
    throw refuse(AGENT_MESSAGES.properties);
}

export const agentWrites: WriteRegistration[] = [{ table: 'agents', check: checkAgentWrite }];
