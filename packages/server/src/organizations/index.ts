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
  uuidField,
  type InvitationSent,
  type Organization,
  type OrganizationMembers,
  type OrganizationSwitch,
} from '@watchdeck/core';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import type { Mailer } from '../mail/index.ts';
import {
  issueAccessToken,
  notFoundBody,
  publicBase,
  PUBLIC,
  SIGNED_IN,
  type Caller,
  type SignOutListener,
} from '../auth/index.ts';
import { sendError } from '../http/errors.ts';
import { noBody, noParams, noQuery, noReadInput, typed } from '../http/validation.ts';
import { Backends, PREFIX, type BuildOrgApp } from './backends.ts';
import { ensureMember, provision } from './provision.ts';
import {
  abandonedProvisioning,
  acceptInvite,
  createOrganization,
  deleteOrganizationRow,
  emailIsMember,
  findOrganization,
  invite,
  inviteState,
  leaseEngines,
  listFor,
  listMembers,
  listOpenInvites,
  lockOrganization,
  organizationFor,
  personOf,
  pruneTokens,
  recordToken,
  releaseEngines,
  removeMember,
  revokeMemberInSchema,
  revokeSessionTokens,
  roleIn,
  slugify,
  withdrawInvite,
  type OrganizationRow,
} from './store.ts';

export type { BuildOrgApp } from './backends.ts';

/** How often this process renews its engine leases and looks for abandoned provisioning. */
const SWEEP_MS = 20_000;
/** A lease outlives two missed sweeps: a process paused that long loses its organisations. */
const LEASE_MS = 3 * SWEEP_MS;

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

const slugParams = z.object({ slug: organizationSlugField });
const memberParams = z.object({ slug: organizationSlugField, personId: uuidField('personId') });
const inviteParams = z.object({ slug: organizationSlugField, id: uuidField('id') });

const ONLY_ADMINS = 'Only an administrator of the organisation may do this.';
const MAX_OPEN_INVITES = 200;

/** The invitation's email: who asks, to what, and where to accept it. */
function invitationMail(o: { org: OrganizationRow; inviter: string; role: string; signInUrl: string; email: string }) {
  return {
    subject: `You are invited to ${o.org.name} on Watchdeck`,
    text: [
      `${o.inviter} invited you to join the organisation ${o.org.name} (${o.org.slug}) on Watchdeck as ${o.role}.`,
      '',
      `Sign in at ${o.signInUrl} with this email address (${o.email}), then accept the invitation in the`,
      'organisation picker.',
      '',
      'If you did not expect this invitation, you can ignore this email.',
    ].join('\n'),
  };
}

export async function registerOrganizations(
  app: FastifyInstance,
  deps: {
    config: Config;
    db: Db;
    /** the app's one mailer (mail/): invitations go out through SMTP_URL */
    mailer: Mailer;
    /** auth's sign-out hook: the tokens minted for a root session end with it */
    onSignOut: (listener: SignOutListener) => void;
    build: BuildOrgApp;
  },
): Promise<void> {
  const { config, db, mailer } = deps;
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
      // held (counted in flight) from here until the response closes
      backend = await backends.get(slug, true);
    } catch (err) {
      req.log.error({ err, organization: slug }, 'organizations: backend unavailable');
      return sendError(reply, 503, 'unavailable', 'The organisation is unavailable right now. Please try again.');
    }
    if (!backend) return reply.code(404).send(notFoundBody(req));
    reply.hijack();
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

  /** The organisation and the caller's role in it, or the answer already sent (404 / 403). */
  const asAdmin = async (c: Caller, slug: string, reply: FastifyReply): Promise<OrganizationRow | undefined> => {
    const org = await findOrganization(db, slug);
    const role = org && (await roleIn(db, org.id, c.person.id));
    if (!org || !role) {
      await sendError(reply, 404, 'not_found', 'organisation not found');
      return undefined;
    }
    if (role !== 'admin') {
      await sendError(reply, 403, 'forbidden', ONLY_ADMINS);
      return undefined;
    }
    return org;
  };

  r.get('/api/organizations/:slug/members', { config: SIGNED_IN, schema: one }, async (req, reply) => {
    const org = await asAdmin(req.caller!, req.params.slug, reply);
    if (!org) return reply;
    const body: OrganizationMembers = {
      members: await listMembers(db, org.id),
      invites: await listOpenInvites(db, org.id),
    };
    return body;
  });

  r.post(
    '/api/organizations/:slug/invites',
    { config: SIGNED_IN, schema: { ...one, body: inviteMemberSchema } },
    async (req, reply) => {
      const c = req.caller!;
      const org = await asAdmin(c, req.params.slug, reply);
      if (!org) return reply;
      if (await emailIsMember(db, org.id, req.body.email))
        return sendError(reply, 409, 'conflict', `${req.body.email} is a member already`, {
          email: 'is a member already',
        });
      // every invitation is an email the server sends for the caller, and any signed-in person
      // can make an organisation: open invitations are capped, and a resend waits a minute
      const state = await inviteState(db, org.id, req.body.email, req.body.role);
      if (state.recent)
        return sendError(
          reply,
          429,
          'too_many_requests',
          `An invitation to ${req.body.email} went out less than a minute ago; wait before sending it again.`,
        );
      if (!state.exists && state.open >= MAX_OPEN_INVITES)
        return sendError(
          reply,
          409,
          'conflict',
          `An organisation has at most ${MAX_OPEN_INVITES} open invitations; withdraw some before inviting more.`,
        );
      const sent = await invite(db, {
        orgId: org.id,
        email: req.body.email,
        role: req.body.role,
        invitedBy: c.person.id,
      });
      if (!sent) return sendError(reply, 409, 'conflict', 'the invitation could not be saved; try again');
      const inviter = (await personOf(db, c.person.id))?.name || c.person.email || 'An administrator';
      const mail = invitationMail({
        org,
        inviter,
        role: sent.role,
        signInUrl: `${publicBase(req, config)}/`,
        email: sent.email,
      });
      let how: 'sent' | 'logged';
      try {
        how = await mailer.send({ to: sent.email, ...mail });
      } catch (err) {
        // the SMTP server's words stay in the log: they may name hosts and accounts
        req.log.warn({ err, organization: org.slug }, 'organizations: the invitation email failed');
        return sendError(
          reply,
          502,
          'mail_failed',
          `The invitation to ${sent.email} is saved, but its email could not be sent. Check the mail server and invite again to resend it.`,
        );
      }
      const body: InvitationSent = { ...sent, mail: how };
      return reply.code(201).send(body);
    },
  );

  r.delete(
    '/api/organizations/:slug/invites/:id',
    { config: SIGNED_IN, schema: { params: inviteParams, querystring: noQuery, body: noBody } },
    async (req, reply) => {
      const org = await asAdmin(req.caller!, req.params.slug, reply);
      if (!org) return reply;
      if (!(await withdrawInvite(db, org.id, req.params.id)))
        return sendError(reply, 404, 'not_found', 'no open invitation with this id');
      return reply.code(204).send();
    },
  );

  r.delete(
    '/api/organizations/:slug/members/:personId',
    { config: SIGNED_IN, schema: { params: memberParams, querystring: noQuery, body: noBody } },
    async (req, reply) => {
      const c = req.caller!;
      const outcome = await db.transaction(async (tx) => {
        // the row lock queues concurrent removals: two admins removing each other leave one
        const org = await lockOrganization(tx, req.params.slug);
        const role = org && (await roleIn(tx, org.id, c.person.id));
        if (!org || !role) return 'no_org' as const;
        if (role !== 'admin') return 'forbidden' as const;
        const done = await removeMember(tx, org.id, req.params.personId);
        if (done === 'removed') await revokeMemberInSchema(tx, org, req.params.personId);
        return done;
      });
      if (outcome === 'no_org') return sendError(reply, 404, 'not_found', 'organisation not found');
      if (outcome === 'forbidden') return sendError(reply, 403, 'forbidden', ONLY_ADMINS);
      if (outcome === 'not_member') return sendError(reply, 404, 'not_found', 'not a member of this organisation');
      if (outcome === 'last_admin')
        return sendError(
          reply,
          409,
          'last_admin',
          'The last administrator cannot be removed. Make another member an administrator first, or delete the organisation.',
        );
      return reply.code(204).send();
    },
  );

  r.delete('/api/organizations/:slug', { config: SIGNED_IN, schema: { ...one, body: noBody } }, async (req, reply) => {
    const c = req.caller!;
    const slug = req.params.slug;
    // closed here first: its pool's connections would otherwise hold the schema's tables
    let closed = false;
    let outcome: 'no_org' | 'forbidden' | 'provisioning' | 'deleted';
    try {
      outcome = await db.transaction(async (tx) => {
        const org = await lockOrganization(tx, slug);
        const role = org && (await roleIn(tx, org.id, c.person.id));
        if (!org || !role) return 'no_org' as const;
        if (role !== 'admin') return 'forbidden' as const;
        if (org.status === 'provisioning' || org.claimed) return 'provisioning' as const;
        await backends.forget(slug);
        closed = true;
        // one transaction: the row and the schema (its tokens, sessions, data) go together or not
        await deleteOrganizationRow(tx, org.id);
        await tx.exec(`DROP SCHEMA IF EXISTS "${org.schema_name}" CASCADE`);
        return 'deleted' as const;
      });
    } catch (err) {
      req.log.error({ err, organization: slug }, 'organizations: deleting failed');
      return sendError(reply, 503, 'unavailable', 'The organisation could not be deleted right now. Please try again.');
    }
    if (outcome === 'no_org') return sendError(reply, 404, 'not_found', 'organisation not found');
    if (outcome === 'forbidden') return sendError(reply, 403, 'forbidden', ONLY_ADMINS);
    if (outcome === 'provisioning')
      return sendError(
        reply,
        409,
        'conflict',
        'The organisation is still being provisioned. Delete it once it is ready.',
      );
    req.log.info({ organization: slug, closed }, 'organizations: deleted');
    return reply.code(204).send();
  });

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
      const backend = await backends.get(org.slug, true);
      if (!backend) return none;
      let issued;
      try {
        await ensureMember(db, backend.db, c.person.id, role);
        issued = await issueAccessToken(backend.db, {
          personId: c.person.id,
          name: 'Organisation session',
          ttlMs: config.hosted.tokenTtlMs,
          // it stands for the root session (auth/caller.ts sessionToken) and ends with it
          scopes: ['session'],
        });
      } finally {
        backend.inFlight--;
      }
      // recorded with the root session: signing out of it revokes the token (onSignOut below)
      await recordToken(db, {
        tokenId: issued.id,
        orgId: org.id,
        personId: c.person.id,
        sessionId: c.sessionId ?? null,
        expiresAt: issued.expires_at,
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

  // Signing out of the root backend ends the organisations' sessions it opened: the tokens the
  // switch minted for that session are revoked in their schemas before the sign-out answers.
  deps.onSignOut(async ({ sessionId }) => {
    if (sessionId) await revokeSessionTokens(db, sessionId);
  });

  // ---- background: abandoned provisioning, engine leases --------------------------------------
  let sweeping: Promise<void> | undefined;
  const sweep = async () => {
    for (const id of await abandonedProvisioning(db)) start(id);
    await pruneTokens(db);
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
