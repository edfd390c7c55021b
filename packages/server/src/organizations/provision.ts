/**
 * Provisioning: an organisation's schema is created and migrated by the app's own migrator on a
 * connection whose search_path is that schema, its members are copied in as people with their
 * roles, then it turns ready. A process that dies mid-way leaves the claim to run out; the sweep
 * of any process takes it over (the migrator is idempotent and runs in one transaction).
 */
import type { FastifyBaseLogger } from 'fastify';
import { migrate, openDb, type Db, type Queryable } from '../db/index.ts';
import type { Config } from '../config.ts';
import { claimProvisioning, markProvisioned, personOf } from './store.ts';

/** How long one provisioning may hold its organisation before another process may take over. */
const CLAIM_MS = 5 * 60_000;

/** Copies a person of the root backend into an organisation's schema with a role there (kept if present). */
export async function ensureMember(control: Queryable, org: Queryable, personId: string, role: string): Promise<void> {
  const p = await personOf(control, personId);
  if (!p) throw new Error(`person ${personId} not found`);
  await org.query(
    `INSERT INTO people (id, name, email, avatar) VALUES ($1, $2, $3, $4)
     ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, email = EXCLUDED.email, avatar = EXCLUDED.avatar`,
    [p.id, p.name, p.email, p.avatar],
  );
  // the organisation's admins may change roles inside it: a member's existing row stays
  await org.query(`INSERT INTO people_roles (id, roles) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING`, [p.id, [role]]);
}

export async function provision(
  deps: { config: Config; control: Db; log: FastifyBaseLogger },
  orgId: string,
): Promise<void> {
  const { control, config, log } = deps;
  const org = await claimProvisioning(control, orgId, CLAIM_MS);
  if (!org) return; // ready, or another process is at it
  const started = Date.now();
  let db: Db | undefined;
  try {
    // the name is checked by the table's constraint (org_[a-z0-9_]+): safe to quote as is
    await control.exec(`CREATE SCHEMA IF NOT EXISTS "${org.schema_name}"`);
    db = await openDb({ databaseUrl: config.databaseUrl, poolSize: 1, searchPath: org.schema_name });
    await migrate(db);
    const members = await control.query<{ person_id: string; role: string }>(
      `SELECT person_id, role FROM watchdeck_control.organization_members WHERE organization_id = $1`,
      [org.id],
    );
    for (const m of members.rows) await ensureMember(control, db, m.person_id, m.role);
    await markProvisioned(control, org.id);
    log.info({ organization: org.slug, ms: Date.now() - started }, 'organizations: provisioned');
  } catch (err) {
    log.error({ err, organization: org.slug }, 'organizations: provisioning failed');
    await markProvisioned(control, org.id, (err as Error).message.slice(0, 500)).catch(() => {});
  } finally {
    await db?.close().catch(() => {});
  }
}
