import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  uuidField,
  RESPONDER_CONNECTION_TYPE,
  RESPONDER_FIELDS,
  type ResponderClientConfig,
  type TeamResponderType,
} from '@watchdeck/core';
import type { Db } from '#server/db/index.ts';
import { needs } from '#server/auth/index.ts';
import type { SecretBox } from '#server/connections/index.ts';
import {
  ConnectionLookupError,
  connectionById,
  connectionByName,
  connectionsOfType,
} from '#server/connections/index.ts';
import { noParams, optionalText, typed } from '#server/http/validation.ts';
import { ConfigurationError, filterOptions, jira, planner, UpstreamError, type Option } from './clients.ts';

/**
 * Lookups for the responder wizard (seed 001 section 5: "For jira and ms_planner the instance is
 * auto-chosen by matching the team id and locked. Project depends on instance; issue type and
 * priority on project. For planner: plan, then bucket and priority"):
 *
 *   GET /api/incidents/responder-instances?type=jira&team_id=<id>
 *       -> {instances: [{id, name}], locked}: the connection the team names in
 *          spec.responder_clients.<type>.connection (locked: true), else every connection of the type
 *   GET /api/incidents/responder-options?connection_id=<id>&field=<field>[&project=<key>][&plan=<id>][&q=<text>]
 *       -> {options: [{value, label}]}, live from the ticket system: Jira project | issueType |
 *          priority; Planner plan | bucket | priority (fixed: urgent, important, medium, low)
 *
 * Both need read on `responder`. A malformed query is a 400 in the app's one error shape
 * (http/errors.ts); unknown team or connection 404, a lookup the connection cannot answer 400 and
 * the ticket system failing or refusing 502 with its message are {error}.
 */
const TEAM_TYPES = Object.keys(RESPONDER_FIELDS) as TeamResponderType[];

type Query = Record<string, string | undefined>;

const instancesQuery = z.object({
  type: z.enum(TEAM_TYPES, { error: `type must be one of ${TEAM_TYPES.join(', ')}` }),
  team_id: optionalText.pipe(uuidField('team_id').optional()),
});

/** The lookup's own parameters (project, plan, q) depend on the field and are read by the route. */
const optionsQuery = z.object({
  connection_id: z
    .string({ error: 'connection_id is required' })
    .trim()
    .min(1, 'connection_id is required')
    .pipe(uuidField('connection_id')),
  field: z.string({ error: 'field is required' }).trim().min(1, 'field is required'),
  project: optionalText,
  plan: optionalText,
  plan_id: optionalText,
  q: optionalText,
});

class BadQuery extends Error {}

const text = (q: Query, name: string) => (q[name] ?? '').trim() || undefined;

function requireParam(q: Query, ...names: string[]): string {
  for (const n of names) {
    const v = text(q, n);
    if (v) return v;
  }
  throw new BadQuery(`${names[0]} is required`);
}

export function responderRoutes(fastify: FastifyInstance, { db, box }: { db: Db; box?: SecretBox }): void {
  const app = typed(fastify);
  const read = needs('responder', 'read', { feature: 'incidents' });

  const instances = { params: noParams, querystring: instancesQuery };
  app.get('/api/incidents/responder-instances', { config: read, schema: instances }, async (req, reply) => {
    const { type, team_id: teamId } = req.query;
    const connType = RESPONDER_CONNECTION_TYPE[type];
    if (teamId) {
      const { rows } = await db.query<{
        name: string;
        spec: { responder_clients?: Record<string, ResponderClientConfig> };
      }>(`SELECT name, spec FROM teams WHERE id = $1 AND deleted_at IS NULL`, [teamId]);
      if (!rows[0]) return reply.code(404).send({ error: 'team not found' });
      const named = rows[0].spec?.responder_clients?.[type]?.connection;
      if (named) {
        try {
          const c = await connectionByName(db, undefined, named, connType);
          return { instances: [{ id: c.id, name: c.name }], locked: true };
        } catch (err) {
          if (!(err instanceof ConnectionLookupError)) throw err;
          // named but missing (or unusable): offer every connection of the type instead
        }
      }
    }
    let all = await connectionsOfType(db, [connType]);
    if (connType === 'case_webhook')
      all = all.filter((c) => !c.properties?.responderType || c.properties.responderType === type);
    return { instances: all.map((c) => ({ id: c.id, name: c.name })), locked: false };
  });

  const options = { params: noParams, querystring: optionsQuery };
  app.get('/api/incidents/responder-options', { config: read, schema: options }, async (req, reply) => {
    const q = req.query as Query;
    try {
      const { connection_id: connectionId, field } = req.query;
      let c;
      try {
        c = await connectionById(db, box, connectionId);
      } catch (err) {
        if (err instanceof ConnectionLookupError) return reply.code(400).send({ error: err.message });
        throw err;
      }
      if (!c) return reply.code(404).send({ error: 'connection not found' });
      let options: Option[];
      if (c.type === 'jira') {
        if (field === 'project') options = await jira.projects(c);
        else if (field === 'issueType' || field === 'issuetype')
          options = await jira.issueTypes(c, requireParam(q, 'project'));
        else if (field === 'priority') options = await jira.priorities(c);
        else throw new BadQuery('field must be project, issueType or priority for a jira connection');
      } else if (c.type === 'ms_planner') {
        if (field === 'plan' || field === 'plan_id') options = await planner.plans(c);
        else if (field === 'bucket' || field === 'bucket_id')
          options = await planner.buckets(c, requireParam(q, 'plan', 'plan_id'));
        else if (field === 'priority') options = planner.priorities();
        else throw new BadQuery('field must be plan, bucket or priority for an ms_planner connection');
      } else {
        throw new BadQuery(`options are looked up in jira and ms_planner connections; this one is ${c.type}`);
      }
      return { options: filterOptions(options, text(q, 'q')) };
    } catch (err) {
      if (err instanceof BadQuery || err instanceof ConfigurationError)
        return reply.code(400).send({ error: err.message });
      if (err instanceof UpstreamError) {
        req.log.info({ reason: err.message }, 'responder option lookup failed upstream');
        return reply.code(502).send({ error: err.message });
      }
      throw err;
    }
  });
}
