/**
 * Hosted mode's organisations (WATCHDECK_HOSTED=true, README.md here): the control-plane routes
 * under /api/organizations on the root backend, and every organisation's own backend under
 * /org/{slug}, the same app on the organisation's schema.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  createOrganizationSchema,
  inviteMemberSchema,
  organizationSlugField,
  type Organization,
  type OrganizationSwitch,
} from '@watchdeck/core';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import { issueAccessToken, notFoundBody, publicBase, PUBLIC, SIGNED_IN } from '../auth/index.ts';
import { sendError } from '../http/errors.ts';
import { noBody, noParams, noQuery, noReadInput, typed } from '../http/validation.ts';
import { Backends, PREFIX, type BuildOrgApp } from './backends.ts';
import { ensureMember, provision } from './provision.ts';
import {
  abandonedProvisioning,
  acceptInvite,
  createOrganization,
  emailIsMember,
  findOrganization,
  invite,
  leaseEngines,
  listFor,
  organizationFor,
  releaseEngines,
  roleIn,
  slugify,
} from './store.ts';

export type { BuildOrgApp } from './backends.ts';

/** How often this process renews its engine leases and looks for abandoned provisioning. */
const SWEEP_MS = 20_000;
/** A lease outlives two missed sweeps: a process paused that long loses its organisations. */
const LEASE_MS = 3 * SWEEP_MS;

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

const slugParams = z.object({ slug: organizationSlugField });

export async function registerOrganizations(
  app: FastifyInstance,
  deps: { config: Config; db: Db; build: BuildOrgApp },
): Promise<void> {
  const { config, db } = deps;
  const backends = new Backends({ config, control: db, build: deps.build, log: app.log });
  const processId = randomUUID();
  const runsEngines = config.role !== 'api';

  // ---- /org/{slug}/...: the organisation's backend answers ------------------------------------
  // Hijacked before the root backend parses a body or resolves a caller: the organisation's app
  // does both itself, with its own sessions, tokens and guard. Unknown or still provisioning: 404.
  const forward = async (req: FastifyRequest, reply: FastifyReply) => {
    const url = req.raw.url ?? '/';
    const m = /^\/org\/([^/?#]+)(.*)$/.exec(url);
    const slug = m?.[1] ?? '';
    if (!m || !organizationSlugField.safeParse(slug).success) return reply.code(404).send(notFoundBody(req));
    let backend;
    try {
      backend = await backends.get(slug);
    } catch (err) {
      req.log.error({ err, organization: slug }, 'organizations: backend unavailable');
      return sendError(reply, 503, 'unavailable', 'The organisation is unavailable right now. Please try again.');
    }
    if (!backend) return reply.code(404).send(notFoundBody(req));
    reply.hijack();
    backend.inFlight++;
    reply.raw.once('close', () => backend.inFlight--);
    const rest = m[2] || '/';
    req.raw.url = rest.startsWith('/') ? rest : `/${rest}`;
    backend.app.routing(req.raw, reply.raw);
  };
  for (const url of ['/org/*', '/org/:slug']) {
    app.route({ method: [...METHODS], url, config: PUBLIC, onRequest: forward, handler: async () => undefined });
  }

  // ---- the control plane ---------------------------------------------------------------------
  const r = typed(app);
  const backendUrl = (req: FastifyRequest, slug: string) => publicBase(req, config) + PREFIX + slug;
  const start = (orgId: string) =>
    void provision({ config, control: db, log: app.log }, orgId).catch((err) =>
      app.log.error({ err }, 'organizations: provisioning failed'),
    );

  r.get('/api/organizations', { config: SIGNED_IN, schema: noReadInput }, async (req): Promise<Organization[]> => {
    const c = req.caller!;
    return listFor(db, c.person.id, c.person.email);
  });

  r.post(
    '/api/organizations',
    { config: SIGNED_IN, schema: { params: noParams, querystring: noQuery, body: createOrganizationSchema } },
    async (req, reply) => {
      const c = req.caller!;
      const slug = req.body.slug ?? slugify(req.body.name);
      if (!organizationSlugField.safeParse(slug).success) {
        const message = 'choose a slug: the name gives none (lowercase letters, digits and hyphens)';
        return sendError(reply, 400, 'invalid_body', message, { slug: message });
      }
      const org = await db.transaction((tx) =>
        createOrganization(tx, { slug, name: req.body.name, createdBy: c.person.id }),
      );
      if (!org) {
        const message = `an organisation with the slug '${slug}' exists already`;
        return sendError(reply, 409, 'conflict', message, { slug: message });
      }
      start(org.id);
      return reply.code(201).send(await organizationFor(db, slug, c.person.id, c.person.email));
    },
  );

  const one = { params: slugParams, querystring: noQuery };
  r.get('/api/organizations/:slug', { config: SIGNED_IN, schema: one }, async (req, reply) => {
    const c = req.caller!;
    const org = await organizationFor(db, req.params.slug, c.person.id, c.person.email);
    if (!org) return sendError(reply, 404, 'not_found', 'organisation not found');
    return org;
  });

  r.post(
    '/api/organizations/:slug/invites',
    { config: SIGNED_IN, schema: { ...one, body: inviteMemberSchema } },
    async (req, reply) => {
      const c = req.caller!;
      const org = await findOrganization(db, req.params.slug);
      const role = org && (await roleIn(db, org.id, c.person.id));
      if (!org || !role) return sendError(reply, 404, 'not_found', 'organisation not found');
      if (role !== 'admin')
        return sendError(reply, 403, 'forbidden', 'Only an administrator of the organisation may invite members.');
      if (await emailIsMember(db, org.id, req.body.email))
        return sendError(reply, 409, 'conflict', `${req.body.email} is a member already`, {
          email: 'is a member already',
        });
      const sent = await invite(db, {
        orgId: org.id,
        email: req.body.email,
        role: req.body.role,
        invitedBy: c.person.id,
      });
      return reply.code(201).send(sent);
    },
  );

  r.post(
    '/api/organizations/:slug/accept',
    { config: SIGNED_IN, schema: { ...one, body: noBody } },
    async (req, reply) => {
      const c = req.caller!;
      const org = await findOrganization(db, req.params.slug);
      const granted =
        org && c.person.email
          ? await db.transaction((tx) => acceptInvite(tx, org.id, c.person.id, c.person.email!))
          : null;
      if (!org || !granted) return sendError(reply, 404, 'not_found', 'no open invitation to this organisation');
      return organizationFor(db, req.params.slug, c.person.id, c.person.email);
    },
  );

  r.post(
    '/api/organizations/:slug/switch',
    { config: SIGNED_IN, schema: { ...one, body: noBody } },
    async (req, reply): Promise<OrganizationSwitch | FastifyReply> => {
      const c = req.caller!;
      // a leaked token must not open every organisation of its owner: only a signed-in person may
      if (c.via === 'token')
        return sendError(reply, 403, 'forbidden', 'Switching organisations needs a signed-in session.');
      const org = await findOrganization(db, req.params.slug);
      const role = org && (await roleIn(db, org.id, c.person.id));
      if (!org || !role) return sendError(reply, 404, 'not_found', 'organisation not found');
      const none = { organization: org.slug, status: org.status, backend_url: null, token: null, expires_at: null };
      if (org.status !== 'ready') return none;
      const backend = await backends.get(org.slug);
      if (!backend) return none;
      await ensureMember(db, backend.db, c.person.id, role);
      const issued = await issueAccessToken(backend.db, {
        personId: c.person.id,
        name: 'Organisation session',
        ttlMs: config.hosted.tokenTtlMs,
      });
      return {
        organization: org.slug,
        status: org.status,
        backend_url: backendUrl(req, org.slug),
        token: issued.token,
        expires_at: issued.expires_at,
      };
    },
  );

  // ---- background: abandoned provisioning, engine leases --------------------------------------
  let sweeping: Promise<void> | undefined;
  const sweep = async () => {
    for (const id of await abandonedProvisioning(db)) start(id);
    if (!runsEngines) return;
    const held = backends.openSlugs().length;
    const leased = await leaseEngines(db, processId, Math.max(0, config.hosted.maxOrgs - held), LEASE_MS);
    await backends.runEnginesOf(new Set(leased));
  };
  const tick = () => {
    if (sweeping) return;
    sweeping = sweep()
      .catch((err) => app.log.warn({ err }, 'organizations: sweep failed'))
      .finally(() => (sweeping = undefined));
  };
  const timer = setInterval(tick, SWEEP_MS);
  timer.unref();
  // the root backend's engines start in main.ts; the organisations' with the first sweep
  app.addHook('onReady', async () => tick());
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await sweeping;
    await backends.close();
    if (runsEngines) await releaseEngines(db, processId).catch(() => {});
  });
}
