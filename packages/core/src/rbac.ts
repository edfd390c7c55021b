import { ROLES, type Role } from './constants.ts';

/**
 * The role/permission matrix of seed 000 section 6, defined once. The server enforces it on every
 * route and /api/db table; the web app uses it only to hide what the user cannot do.
 */
export const RESOURCES = [
  'database',
  'rbac',
  'auth',
  'responder',
  'incident',
  'evidences',
  'comments',
  'canaries',
  'topologies',
  'config_scrapers',
  'identities',
  'connections',
  'kratos',
  'agents',
  'properties',
  'logging_backends',
  'integrations',
  'notifications',
  'playbooks',
  'playbook_runs',
] as const;
export type Resource = (typeof RESOURCES)[number];
export type Action = 'read' | 'write';

/** Seed 002 names feature flags 'feature_flags'; seed 000 calls the same resource 'properties'. */
const ALIASES: Record<string, Resource> = { feature_flags: 'properties' };

const ALL = new Set<Resource>(RESOURCES);
const without = (...r: Resource[]) => new Set(RESOURCES.filter((x) => !r.includes(x)));
const incidentWork = new Set<Resource>(['responder', 'incident', 'evidences', 'comments']);
const nonPrivileged = without('rbac', 'identities', 'connections');

export const MATRIX: Record<Role, Record<Action, ReadonlySet<Resource>>> = {
  admin: { read: ALL, write: ALL },
  editor: { read: ALL, write: without('connections', 'identities', 'rbac') },
  commander: { read: nonPrivileged, write: incidentWork },
  responder: { read: nonPrivileged, write: incidentWork },
  viewer: { read: nonPrivileged, write: new Set() },
};

export function normaliseResource(resource: string): Resource | undefined {
  const r = ALIASES[resource] ?? resource;
  return (RESOURCES as readonly string[]).includes(r) ? (r as Resource) : undefined;
}

/** Unknown role names are ignored; a user with no known roles counts as viewer. */
export function effectiveRoles(roles: readonly string[]): Role[] {
  const known = roles.filter((r): r is Role => (ROLES as readonly string[]).includes(r));
  return known.length ? known : ['viewer'];
}

export function can(roles: readonly string[], resource: string, action: Action): boolean {
  const r = normaliseResource(resource);
  if (!r) return false;
  return effectiveRoles(roles).some((role) => MATRIX[role][action].has(r));
}

/** The role a person is shown with: the highest of admin, editor, viewer. */
export function displayedRole(roles: readonly string[]): 'admin' | 'editor' | 'viewer' {
  const eff = effectiveRoles(roles);
  if (eff.includes('admin')) return 'admin';
  if (eff.includes('editor')) return 'editor';
  return 'viewer';
}

/** Every resource/action the roles allow, for whoami and the web app's guards. */
export function permissionsOf(roles: readonly string[]): Record<Resource, Action[]> {
  const out = {} as Record<Resource, Action[]>;
  for (const r of RESOURCES) out[r] = (['read', 'write'] as const).filter((a) => can(roles, r, a));
  return out;
}

/** Actions that are not plain read/write on a resource but have their own rule in the seeds. */
export function canRunCheck(roles: readonly string[]): boolean {
  // 'Run Now on a check is available to commander' besides those who may write canaries.
  const eff = effectiveRoles(roles);
  return eff.includes('commander') || can(eff, 'canaries', 'write');
}

/**
 * Whether one role gives nothing beyond what `roles` already give: every resource/action of the
 * matrix and the Run Now rule. Roles are not a strict ladder (a commander may run checks, an
 * editor may too by writing canaries), so "no higher than" means "allows no more than".
 */
export function roleWithin(role: Role, roles: readonly string[]): boolean {
  for (const action of ['read', 'write'] as const)
    for (const r of MATRIX[role][action]) if (!can(roles, r, action)) return false;
  return !canRunCheck([role]) || canRunCheck(roles);
}

/** The roles of `roles` that are within `role`: what a token scoped to `role` keeps of its owner's. */
export function rolesWithin(roles: readonly string[], role: Role): Role[] {
  const eff = effectiveRoles(roles);
  if (roleWithin(role, eff)) return [role];
  const kept = eff.filter((r) => roleWithin(r, [role]));
  return kept.length ? kept : ['viewer'];
}
