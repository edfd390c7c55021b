import { describe, expect, it } from 'vitest';
import { createAccessTokenSchema, roleWithin, rolesWithin, ROLES } from '../src/index.ts';

describe('token roles', () => {
  it('a role is within roles that allow at least as much', () => {
    expect(ROLES.filter((r) => roleWithin(r, ['admin']))).toEqual([...ROLES]);
    expect(ROLES.filter((r) => roleWithin(r, ['editor']))).toEqual(['editor', 'commander', 'responder', 'viewer']);
    // commander may run checks, a responder may not
    expect(ROLES.filter((r) => roleWithin(r, ['responder']))).toEqual(['responder', 'viewer']);
    expect(ROLES.filter((r) => roleWithin(r, []))).toEqual(['viewer']);
  });

  it('a scoped token keeps no more than both its role and its owner allow', () => {
    expect(rolesWithin(['admin'], 'editor')).toEqual(['editor']);
    expect(rolesWithin(['viewer'], 'editor')).toEqual(['viewer']); // owner demoted below the scope
    expect(rolesWithin(['responder'], 'commander')).toEqual(['responder']);
    expect(rolesWithin(['editor'], 'viewer')).toEqual(['viewer']);
  });
});

describe('createAccessTokenSchema', () => {
  const parse = (b: unknown) => createAccessTokenSchema.safeParse(b);
  it('reads seconds and durations, up to ten years', () => {
    expect(parse({ name: 't', expires_in: '30d' }).data?.expires_in).toBe(30 * 86_400_000);
    expect(parse({ name: 't', expires_in: 60 }).data?.expires_in).toBe(60_000);
    expect(parse({ name: 't', expires_in: '3650d' }).success).toBe(true);
    expect(parse({ name: 't' }).data).toEqual({ name: 't', expires_in: null, role: null });
    expect(parse({ name: 't', expires_in: '99999999d' }).error?.issues[0].message).toBe(
      'expires_in must be at most 10 years (3650d)',
    );
    expect(parse({ name: 't', expires_in: 'later' }).error?.issues[0].message).toBe(
      "expires_in must be a number of seconds or a duration such as '30d'",
    );
  });
  it('takes a known role or none', () => {
    expect(parse({ name: 't', role: 'viewer' }).data?.role).toBe('viewer');
    expect(parse({ name: 't', role: 'root' }).success).toBe(false);
    expect(parse({ name: '  ' }).success).toBe(false);
  });
});
