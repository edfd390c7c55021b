/**
 * The playbook calls beyond /api/db (README.md "Routes"; seed 000 section 7, seed 002 section 7.7).
 * Reads of playbooks, runs and actions go through /api/db (playbooks, playbook_runs_summary,
 * playbook_run_actions); these are the calls that do something.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { isUuid, playbookRunRequestSchema, playbookSpecSchema } from '@watchdeck/core';
import type { Db } from '#server/db/index.ts';
import { needs, PUBLIC } from '#server/auth/index.ts';
import { sendError } from '#server/http/errors.ts';
import { noBody, noParams, noQuery, typed } from '#server/http/validation.ts';
import { kindsOf, offers, RESOURCE_KINDS, type ResourceKind } from './resources.ts';
import {
  approveRun,
  cancelRun,
  defaultParams,
  loadPlaybook,
  PlaybookError,
  queueRun,
  rerun,
  resourceOf,
} from './service.ts';
import { playbookJsonSchema, SCHEMA_URL } from './spec.ts';
import { webhookAuthorized, webhookPlaybook } from './triggers.ts';

const FEATURE = { feature: 'playbooks' };
const runWrite = needs('playbook_runs', 'write', FEATURE);
const runRead = needs('playbook_runs', 'read', FEATURE);
const pbRead = needs('playbooks', 'read', FEATURE);

const uuidParam = (name: string) => z.string().refine(isUuid, `${name} must be a UUID`);
const runParams = z.object({ id: uuidParam('id') });
const resourceIds = {
  config_id: z.string().refine(isUuid, 'config_id must be a UUID').optional(),
  component_id: z.string().refine(isUuid, 'component_id must be a UUID').optional(),
  check_id: z.string().refine(isUuid, 'check_id must be a UUID').optional(),
};

function answer(reply: FastifyReply, err: unknown) {
  if (err instanceof PlaybookError) {
    const code = { 400: 'bad_request', 403: 'forbidden', 404: 'not_found', 409: 'conflict' }[err.statusCode];
    return sendError(reply, err.statusCode, code, err.message, err.errors);
  }
  throw err;
}

/** The text of an action's output for download: stdout, stderr, logs, else the JSON result, then the error. */
function logText(a: { name: string; status: string; result: Record<string, unknown> | null; error: string | null }) {
  const r = a.result ?? {};
  const parts: string[] = [];
  for (const k of ['stdout', 'stderr', 'logs'] as const) {
    if (typeof r[k] === 'string' && r[k]) parts.push(`--- ${k} ---\n${r[k] as string}`);
  }
  if (!parts.length && a.result) parts.push(JSON.stringify(a.result, null, 2));
  if (a.error) parts.push(`--- error ---\n${a.error}`);
  return parts.join('\n') + '\n';
}

export function playbookRoutes(app: FastifyInstance, deps: { db: Db; wake: () => void }): void {
  const { db, wake } = deps;
  const r = typed(app);

  r.get(SCHEMA_URL, { config: PUBLIC, schema: { params: noParams, querystring: noQuery } }, async (_req, reply) =>
    reply.type('application/schema+json').header('cache-control', 'no-cache').send(playbookJsonSchema),
  );

  // Seed 000 section 3: the run request; the answer is {run_id}.
  r.post(
    '/api/playbook/run',
    { config: runWrite, schema: { params: noParams, querystring: noQuery, body: playbookRunRequestSchema } },
    async (req, reply) => {
      try {
        const id = await db.transaction((tx) =>
          queueRun(tx, {
            playbookId: req.body.id,
            config_id: req.body.config_id,
            component_id: req.body.component_id,
            check_id: req.body.check_id,
            params: req.body.params ?? {},
            triggerSource: 'manual',
            createdBy: req.caller?.person.id ?? null,
          }),
        );
        wake();
        return reply.code(201).send({ run_id: id });
      } catch (err) {
        return answer(reply, err);
      }
    },
  );

  r.post(
    '/api/playbook/run/:id/rerun',
    { config: runWrite, schema: { params: runParams, querystring: noQuery, body: noBody } },
    async (req, reply) => {
      try {
        const id = await db.transaction((tx) => rerun(tx, req.params.id, req.caller?.person.id ?? null));
        wake();
        return reply.code(201).send({ run_id: id });
      } catch (err) {
        return answer(reply, err);
      }
    },
  );

  r.post(
    '/api/playbook/run/:id/cancel',
    { config: runWrite, schema: { params: runParams, querystring: noQuery, body: noBody } },
    async (req, reply) => {
      try {
        const status = await db.transaction((tx) => cancelRun(tx, req.params.id));
        return { run_id: req.params.id, status };
      } catch (err) {
        return answer(reply, err);
      }
    },
  );

  r.post(
    '/api/playbook/run/:id/approve',
    { config: runWrite, schema: { params: runParams, querystring: noQuery, body: noBody } },
    async (req, reply) => {
      const person = req.caller?.person.id;
      if (!person) return sendError(reply, 403, 'forbidden', 'Forbidden: only a person can approve a run');
      try {
        const out = await db.transaction((tx) => approveRun(tx, req.params.id, person));
        if (out.approved) wake();
        return { run_id: req.params.id, ...out };
      } catch (err) {
        return answer(reply, err);
      }
    },
  );

  // The Playbooks dropdown: the playbooks offered on one resource (none given: every playbook).
  r.get(
    '/api/playbook/list',
    { config: pbRead, schema: { params: noParams, querystring: z.object(resourceIds) } },
    async (req, reply) => {
      try {
        const resource = await resourceOf(db, req.query);
        const { rows } = await db.query<Record<string, unknown> & { spec: unknown }>(
          `SELECT id, name, namespace, title, description, icon, category, source, spec, created_by, created_at, updated_at
           FROM playbooks WHERE deleted_at IS NULL ORDER BY category NULLS LAST, title`,
        );
        return rows.filter((row) => {
          if (!resource) return true;
          const p = playbookSpecSchema.safeParse(row.spec);
          return p.success && offers(p.data, resource);
        });
      } catch (err) {
        return answer(reply, err);
      }
    },
  );

  // Seed 000 section 7: the parameters of a playbook for a resource, defaults rendered.
  r.post(
    '/api/playbook/:id/params',
    {
      config: pbRead,
      schema: {
        params: z.object({ id: uuidParam('id') }),
        querystring: noQuery,
        body: z.union([z.strictObject(resourceIds), z.null(), z.undefined()]),
      },
    },
    async (req, reply) => {
      try {
        const pb = await loadPlaybook(db, req.params.id);
        const resource = await resourceOf(db, req.body ?? {});
        const defaults = defaultParams(pb.parsed, resource);
        return {
          params: (pb.parsed.parameters ?? []).map((p) => ({
            ...p,
            ...(defaults[p.name] !== undefined ? { default: defaults[p.name] } : {}),
          })),
        };
      } catch (err) {
        return answer(reply, err);
      }
    },
  );

  // The run dialog's resource selector: resources of the kinds the playbook runs on, by name or id.
  r.post(
    '/api/playbook/resources/search',
    {
      config: pbRead,
      schema: {
        params: noParams,
        querystring: noQuery,
        body: z.strictObject({
          playbook_id: z.string().refine(isUuid, 'playbook_id must be a UUID').optional(),
          search: z.string().max(200).optional(),
          id: z.string().refine(isUuid, 'id must be a UUID').optional(),
          kinds: z.array(z.enum(['config', 'component', 'check'])).optional(),
          limit: z.number().int().min(1).max(200).default(50),
        }),
      },
    },
    async (req, reply) => {
      try {
        const b = req.body;
        let kinds: ResourceKind[] = b.kinds ?? [...RESOURCE_KINDS];
        let spec;
        if (b.playbook_id) {
          spec = (await loadPlaybook(db, b.playbook_id)).parsed;
          const own = kindsOf(spec);
          kinds = kinds.filter((k) => own.includes(k));
        }
        const TABLE = { config: 'config_items', component: 'components', check: 'checks' } as const;
        const out: Record<'configs' | 'components' | 'checks', unknown[]> = { configs: [], components: [], checks: [] };
        for (const kind of kinds) {
          const healthCol = kind === 'config' ? 'health' : 'status';
          const { rows } = await db.query<Record<string, unknown>>(
            `SELECT id, name, type, labels, ${kind === 'config' ? 'tags' : `'{}'::jsonb AS tags`}, ${healthCol} AS health
             FROM ${TABLE[kind]}
             WHERE deleted_at IS NULL AND ($1::uuid IS NULL OR id = $1) AND ($2::text IS NULL OR name ILIKE '%' || $2 || '%')
             ORDER BY name LIMIT $3`,
            [b.id ?? null, b.search?.trim() || null, spec ? 1000 : b.limit],
          );
          const matched = spec
            ? rows
                .filter((row) =>
                  offers(spec, {
                    ...row,
                    kind,
                    id: String(row.id),
                    name: String(row.name),
                    type: (row.type as string) ?? null,
                    labels: (row.labels as Record<string, string>) ?? {},
                    tags: (row.tags as Record<string, string>) ?? {},
                    health: (row.health as string) ?? null,
                  }),
                )
                .slice(0, b.limit)
            : rows;
          out[`${kind}s` as 'configs' | 'components' | 'checks'] = matched.map((row) => ({ ...row, kind }));
        }
        return out;
      } catch (err) {
        return answer(reply, err);
      }
    },
  );

  // Download one action's output (stdout, stderr, logs or the JSON result) as a text file.
  r.get(
    '/api/playbook/run/:id/actions/:action/logs',
    {
      config: runRead,
      schema: {
        params: z.object({ id: uuidParam('id'), action: z.string().min(1).max(300) }),
        querystring: noQuery,
      },
    },
    async (req, reply) => {
      const { id, action } = req.params;
      const { rows } = await db.query<{
        id: string;
        name: string;
        status: string;
        result: Record<string, unknown> | null;
        error: string | null;
      }>(
        `SELECT id, name, status, result, error FROM playbook_run_actions
         WHERE playbook_run_id = $1 AND (name = $2 OR ($3::uuid IS NOT NULL AND id = $3::uuid)) LIMIT 1`,
        [id, action, isUuid(action) ? action : null],
      );
      const a = rows[0];
      if (!a) return sendError(reply, 404, 'not_found', `action "${action}" of run ${id} not found`);
      const file = `${id}-${a.name.replace(/[^\w.-]+/g, '_')}.log`;
      return reply
        .type('text/plain; charset=utf-8')
        .header('content-disposition', `attachment; filename="${file}"`)
        .send(logText(a));
    },
  );

  // A webhook trigger: POST /api/playbook/webhook/<path>, authenticated by the playbook's own rule.
  r.post(
    '/api/playbook/webhook/:path',
    {
      config: PUBLIC,
      schema: {
        params: z.object({ path: z.string().max(200) }),
        querystring: z.record(z.string(), z.unknown()),
        // a JSON object (its `params` and resource ids are read) or nothing
        body: z.record(z.string(), z.unknown()).nullable().optional(),
      },
    },
    async (req, reply) => {
      const pb = await webhookPlaybook(db, req.params.path);
      const hook = pb?.spec.on?.webhook;
      // unknown path and wrong credentials answer alike: the path is not revealed
      if (!pb || !hook || !(await webhookAuthorized(hook.authentication, req.headers, req.log)))
        return sendError(
          reply,
          401,
          'unauthorized',
          'Authentication required: the webhook credentials are missing or wrong.',
        );
      try {
        const body = req.body;
        const params: Record<string, string> = {};
        // parameters come from the body's `params`, or from the query string
        const given = (body && typeof body === 'object' && (body as { params?: unknown }).params) || req.query;
        for (const p of pb.spec.parameters ?? []) {
          const v = (given as Record<string, unknown>)[p.name];
          if (v !== undefined && v !== null) params[p.name] = typeof v === 'string' ? v : JSON.stringify(v);
        }
        const ids = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
        const id = await db.transaction((tx) =>
          queueRun(tx, {
            playbookId: pb.id,
            config_id: isUuid(ids.config_id) ? ids.config_id : undefined,
            component_id: isUuid(ids.component_id) ? ids.component_id : undefined,
            check_id: isUuid(ids.check_id) ? ids.check_id : undefined,
            params,
            triggerSource: 'webhook',
            request: { headers: { 'content-type': req.headers['content-type'] }, body: body ?? null },
          }),
        );
        wake();
        return reply.code(201).send({ run_id: id });
      } catch (err) {
        return answer(reply, err);
      }
    },
  );
}
