/**
 * The control plane's SQL (watchdeck_control, migration 0320): organisations, members,
 * invitations, and the claims that let several processes share the work.
 */
import type { Organization, OrganizationStatus, Role } from '@watchdeck/core';
import type { Queryable } from '../db/index.ts';

const C = 'watchdeck_control';

export interface OrganizationRow {
  id: string;
  slug: string;
  name: string;
  status: OrganizationStatus;
  schema_name: string;
  created_by: string;
}

/** 'acme-prod' -> 'org_acme_prod': slugs hold no underscore, so two slugs never share a schema. */
const schemaOf = (slug: string) => `org_${slug.replace(/-/g, '_')}`;

/** A slug from a name: 'Acme Prod!' -> 'acme-prod'; '' when nothing usable is left. */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
}

export async function findOrganization(q: Queryable, slug: string): Promise<OrganizationRow | undefined> {
  const r = await q.query<OrganizationRow>(
    `SELECT id, slug, name, status, schema_name, created_by FROM ${C}.organizations WHERE slug = $1`,
    [slug],
  );
  return r.rows[0];
}

/** The caller's role in the organisation, or null when not a member. */
export async function roleIn(q: Queryable, orgId: string, personId: string): Promise<Role | null> {
  const r = await q.query<{ role: Role }>(
    `SELECT role FROM ${C}.organization_members WHERE organization_id = $1 AND person_id = $2`,
    [orgId, personId],
  );
  return r.rows[0]?.role ?? null;
}

const ORG_COLUMNS = `o.slug, o.name, o.status, to_char(o.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at`;

/** The organisations a person belongs to, then those their email is invited to. */
export async function listFor(q: Queryable, personId: string, email: string | null): Promise<Organization[]> {
  const r = await q.query<Organization>(
    `SELECT ${ORG_COLUMNS}, m.role, false AS invited
       FROM ${C}.organizations o JOIN ${C}.organization_members m ON m.organization_id = o.id
      WHERE m.person_id = $1
     UNION ALL
     SELECT ${ORG_COLUMNS}, NULL AS role, true AS invited
       FROM ${C}.organizations o JOIN ${C}.organization_invites i ON i.organization_id = o.id
      WHERE $2::text IS NOT NULL AND i.email = lower($2) AND i.accepted_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM ${C}.organization_members m
                         WHERE m.organization_id = o.id AND m.person_id = $1)
      ORDER BY invited, name, slug`,
    [personId, email],
  );
  return r.rows;
}

export async function organizationFor(
  q: Queryable,
  slug: string,
  personId: string,
  email: string | null,
): Promise<Organization | undefined> {
  return (await listFor(q, personId, email)).find((o) => o.slug === slug);
}

/** The new organisation with its creator as admin; undefined when the slug is taken. */
export async function createOrganization(
  q: Queryable,
  o: { slug: string; name: string; createdBy: string },
): Promise<OrganizationRow | undefined> {
  const r = await q.query<OrganizationRow>(
    `INSERT INTO ${C}.organizations (slug, name, schema_name, created_by) VALUES ($1, $2, $3, $4)
     ON CONFLICT DO NOTHING
     RETURNING id, slug, name, status, schema_name, created_by`,
    [o.slug, o.name, schemaOf(o.slug), o.createdBy],
  );
  const row = r.rows[0];
  if (!row) return undefined;
  await q.query(`INSERT INTO ${C}.organization_members (organization_id, person_id, role) VALUES ($1, $2, 'admin')`, [
    row.id,
    o.createdBy,
  ]);
  return row;
}

/** An invitation (again: a repeated one gets the new role); false when the email is a member's. */
export async function invite(
  q: Queryable,
  i: { orgId: string; email: string; role: Role; invitedBy: string },
): Promise<{ id: string; email: string; role: Role } | undefined> {
  const r = await q.query<{ id: string; email: string; role: Role }>(
    `INSERT INTO ${C}.organization_invites (organization_id, email, role, invited_by)
     VALUES ($1, lower($2), $3, $4)
     ON CONFLICT (organization_id, email)
       DO UPDATE SET role = EXCLUDED.role, invited_by = EXCLUDED.invited_by, created_at = now(), accepted_at = NULL
     RETURNING id, email, role`,
    [i.orgId, i.email, i.role, i.invitedBy],
  );
  return r.rows[0];
}

/**
 * What bounds an invitation: how many are open in the organisation, whether this email has one
 * open, and whether that one went out with the same role within the last minute (a resend).
 */
export async function inviteState(
  q: Queryable,
  orgId: string,
  email: string,
  role: Role,
): Promise<{ open: number; exists: boolean; recent: boolean }> {
  const r = await q.query<{ open: number; exists: boolean; recent: boolean }>(
    `SELECT count(*)::int AS open,
            coalesce(bool_or(email = lower($2)), false) AS exists,
            coalesce(bool_or(email = lower($2) AND role = $3 AND created_at > now() - interval '1 minute'), false) AS recent
       FROM ${C}.organization_invites WHERE organization_id = $1 AND accepted_at IS NULL`,
    [orgId, email, role],
  );
  return r.rows[0];
}

/** Whether a person of the root backend with this email is a member already. */
export async function emailIsMember(q: Queryable, orgId: string, email: string): Promise<boolean> {
  const r = await q.query(
    `SELECT 1 FROM ${C}.organization_members m JOIN people p ON p.id = m.person_id
      WHERE m.organization_id = $1 AND lower(p.email) = lower($2)`,
    [orgId, email],
  );
  return r.rows.length > 0;
}

/** Accepts the open invitation of this email; the role it grants, or null when there is none. */
export async function acceptInvite(q: Queryable, orgId: string, personId: string, email: string): Promise<Role | null> {
  const r = await q.query<{ role: Role }>(
    `UPDATE ${C}.organization_invites SET accepted_at = now()
      WHERE organization_id = $1 AND email = lower($2) AND accepted_at IS NULL
      RETURNING role`,
    [orgId, email],
  );
  const role = r.rows[0]?.role;
  if (!role) return null;
  await q.query(
    `INSERT INTO ${C}.organization_members (organization_id, person_id, role) VALUES ($1, $2, $3)
     ON CONFLICT (organization_id, person_id) DO NOTHING`,
    [orgId, personId, role],
  );
  return role;
}

/** The person as the root backend knows them (copied into an organisation's schema). */
export async function personOf(
  q: Queryable,
  personId: string,
): Promise<{ id: string; name: string; email: string | null; avatar: string | null } | undefined> {
  const r = await q.query<{ id: string; name: string; email: string | null; avatar: string | null }>(
    `SELECT id, name, email, avatar FROM people WHERE id = $1`,
    [personId],
  );
  return r.rows[0];
}

/**
 * Takes an organisation to provision: one still provisioning (or failed, when retry) nobody holds,
 * held for `leaseMs`. Undefined when it is ready or another process holds it.
 */
export async function claimProvisioning(
  q: Queryable,
  orgId: string,
  leaseMs: number,
): Promise<OrganizationRow | undefined> {
  const r = await q.query<OrganizationRow>(
    `UPDATE ${C}.organizations
        SET claimed_until = now() + make_interval(secs => $2::double precision / 1000), updated_at = now()
      WHERE id = $1 AND status <> 'ready' AND (claimed_until IS NULL OR claimed_until < now())
      RETURNING id, slug, name, status, schema_name, created_by`,
    [orgId, leaseMs],
  );
  return r.rows[0];
}

/** Organisations left provisioning by a process that stopped (their claim ran out). */
export async function abandonedProvisioning(q: Queryable): Promise<string[]> {
  const r = await q.query<{ id: string }>(
    `SELECT id FROM ${C}.organizations
      WHERE status = 'provisioning' AND (claimed_until IS NULL OR claimed_until < now())
      ORDER BY created_at LIMIT 20`,
  );
  return r.rows.map((x) => x.id);
}

export async function markProvisioned(q: Queryable, orgId: string, error?: string): Promise<void> {
  await q.query(
    `UPDATE ${C}.organizations
        SET status = CASE WHEN $2::text IS NULL THEN 'ready' ELSE 'failed' END, error = $2,
            provisioned_at = CASE WHEN $2::text IS NULL THEN now() END, claimed_until = NULL, updated_at = now()
      WHERE id = $1`,
    [orgId, error ?? null],
  );
}

/**
 * The engines' leases: this process keeps the organisations it holds (renewed) and takes up to
 * `room` ready ones nobody holds. Returns the slugs it holds now.
 */
export async function leaseEngines(q: Queryable, processId: string, room: number, leaseMs: number): Promise<string[]> {
  const r = await q.query<{ slug: string }>(
    `WITH mine AS (
       SELECT id FROM ${C}.organizations WHERE status = 'ready' AND engines_process = $1 AND engines_until > now()
     ), free AS (
       SELECT id FROM ${C}.organizations
        WHERE status = 'ready' AND (engines_process IS NULL OR engines_until IS NULL OR engines_until < now())
        ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED
     )
     UPDATE ${C}.organizations o
        SET engines_process = $1, engines_until = now() + make_interval(secs => $3::double precision / 1000)
      WHERE o.id IN (SELECT id FROM mine UNION SELECT id FROM free)
      RETURNING o.slug`,
    [processId, room, leaseMs],
  );
  return r.rows.map((x) => x.slug);
}

export async function releaseEngines(q: Queryable, processId: string): Promise<void> {
  await q.query(
    `UPDATE ${C}.organizations SET engines_process = NULL, engines_until = NULL WHERE engines_process = $1`,
    [processId],
  );
}

// ---- members, invitations, deletion (the admins' routes) ----------------------------------------

export interface MemberRow {
  person_id: string;
  name: string;
  email: string | null;
  role: Role;
  joined_at: string;
}

export interface InviteRow {
  id: string;
  email: string;
  role: Role;
  created_at: string;
}

const TS = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The members with the root backend's name and email, admins first. */
export async function listMembers(q: Queryable, orgId: string): Promise<MemberRow[]> {
  const r = await q.query<MemberRow>(
    `SELECT m.person_id, COALESCE(p.name, '') AS name, p.email, m.role, ${TS('m.created_at')} AS joined_at
       FROM ${C}.organization_members m LEFT JOIN people p ON p.id = m.person_id
      WHERE m.organization_id = $1
      ORDER BY m.role <> 'admin', lower(COALESCE(p.name, '')), m.person_id`,
    [orgId],
  );
  return r.rows;
}

/** The invitations nobody has accepted yet, newest first. */
export async function listOpenInvites(q: Queryable, orgId: string): Promise<InviteRow[]> {
  const r = await q.query<InviteRow>(
    `SELECT id, email, role, ${TS('created_at')} AS created_at FROM ${C}.organization_invites
      WHERE organization_id = $1 AND accepted_at IS NULL ORDER BY created_at DESC, email`,
    [orgId],
  );
  return r.rows;
}

/** Withdraws an open invitation; false when there is none with that id. */
export async function withdrawInvite(q: Queryable, orgId: string, inviteId: string): Promise<boolean> {
  const r = await q.query(
    `DELETE FROM ${C}.organization_invites WHERE organization_id = $1 AND id = $2 AND accepted_at IS NULL`,
    [orgId, inviteId],
  );
  return (r.rowCount ?? 0) > 0;
}

/** Locks the organisation's row for the rest of the transaction (removals and deletion queue here). */
export async function lockOrganization(
  q: Queryable,
  slug: string,
): Promise<(OrganizationRow & { claimed: boolean }) | undefined> {
  const r = await q.query<OrganizationRow & { claimed: boolean }>(
    `SELECT id, slug, name, status, schema_name, created_by, COALESCE(claimed_until > now(), false) AS claimed
       FROM ${C}.organizations WHERE slug = $1 FOR UPDATE`,
    [slug],
  );
  return r.rows[0];
}

/**
 * Removes a member, inside a transaction holding lockOrganization: 'last_admin' when they are
 * the only admin left, 'not_member' when they are none.
 */
export async function removeMember(
  q: Queryable,
  orgId: string,
  personId: string,
): Promise<'removed' | 'not_member' | 'last_admin'> {
  const role = await roleIn(q, orgId, personId);
  if (!role) return 'not_member';
  if (role === 'admin') {
    const admins = await q.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${C}.organization_members WHERE organization_id = $1 AND role = 'admin'`,
      [orgId],
    );
    if ((admins.rows[0]?.n ?? 0) <= 1) return 'last_admin';
  }
  await q.query(`DELETE FROM ${C}.organization_members WHERE organization_id = $1 AND person_id = $2`, [
    orgId,
    personId,
  ]);
  return 'removed';
}

/** Deletes the organisation's row (members, invitations and recorded tokens go with it). */
export async function deleteOrganizationRow(q: Queryable, orgId: string): Promise<void> {
  await q.query(`DELETE FROM ${C}.organizations WHERE id = $1`, [orgId]);
}

// ---- the switch's tokens ------------------------------------------------------------------------

/** Records a token the switch minted, with the root session it was asked with. */
export async function recordToken(
  q: Queryable,
  t: { tokenId: string; orgId: string; personId: string; sessionId: string | null; expiresAt: string | null },
): Promise<void> {
  await q.query(
    `INSERT INTO ${C}.organization_tokens (token_id, organization_id, person_id, session_id, expires_at)
     VALUES ($1, $2, $3, $4, COALESCE($5::timestamptz, now() + interval '1 day'))`,
    [t.tokenId, t.orgId, t.personId, t.sessionId, t.expiresAt],
  );
}

/**
 * Revokes the tokens minted for one root session in their organisations' schemas, and forgets
 * them. Runs on the root pool with the schema named (checked by the table's constraint:
 * org_[a-z0-9_]+, safe to quote as is).
 */
export async function revokeSessionTokens(q: Queryable, sessionId: string): Promise<number> {
  const r = await q.query<{ token_id: string; schema_name: string }>(
    `DELETE FROM ${C}.organization_tokens t USING ${C}.organizations o
      WHERE o.id = t.organization_id AND t.session_id = $1
      RETURNING t.token_id, o.schema_name`,
    [sessionId],
  );
  const bySchema = new Map<string, string[]>();
  for (const row of r.rows) bySchema.set(row.schema_name, [...(bySchema.get(row.schema_name) ?? []), row.token_id]);
  let revoked = 0;
  for (const [schema, ids] of bySchema) {
    const u = await q.query(
      `UPDATE "${schema}".access_tokens SET deleted_at = now() WHERE id = ANY($1::uuid[]) AND deleted_at IS NULL`,
      [ids],
    );
    revoked += u.rowCount ?? 0;
  }
  return revoked;
}

/**
 * A removed member loses everything inside the organisation's schema: every token of theirs
 * (the switch's and any they made there) and their role, so a later invitation's role applies.
 * Their person row stays: created_by columns still name them.
 */
export async function revokeMemberInSchema(q: Queryable, org: OrganizationRow, personId: string): Promise<void> {
  await q.query(`DELETE FROM ${C}.organization_tokens WHERE organization_id = $1 AND person_id = $2`, [
    org.id,
    personId,
  ]);
  if (org.status !== 'ready') return; // provisioning copies the members left when it finishes
  const schema = org.schema_name;
  await q.query(`UPDATE "${schema}".access_tokens SET deleted_at = now() WHERE person_id = $1 AND deleted_at IS NULL`, [
    personId,
  ]);
  await q.query(`DELETE FROM "${schema}".people_roles WHERE id = $1`, [personId]);
}

/** Forgets recorded tokens that ran out by themselves. */
export async function pruneTokens(q: Queryable): Promise<void> {
  await q.query(`DELETE FROM ${C}.organization_tokens WHERE expires_at < now()`);
}
