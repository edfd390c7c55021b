import { describe, expect, it } from 'vitest';
import { can, displayedRole, effectiveRoles, permissionsOf, canRunCheck, isFeatureDisabled } from '../src/index.ts';

describe('permission matrix (seed 000 section 6)', () => {
  it('admin reads and writes everything', () => {
    expect(can(['admin'], 'rbac', 'write')).toBe(true);
    expect(can(['admin'], 'connections', 'read')).toBe(true);
  });
  it('editor writes all but connections, identities and rbac', () => {
    expect(can(['editor'], 'canaries', 'write')).toBe(true);
    expect(can(['editor'], 'connections', 'write')).toBe(false);
    expect(can(['editor'], 'identities', 'write')).toBe(false);
    expect(can(['editor'], 'rbac', 'write')).toBe(false);
    expect(can(['editor'], 'connections', 'read')).toBe(true);
  });
  it('commander and responder write incident work only and cannot read privileged resources', () => {
    for (const role of ['commander', 'responder']) {
      expect(can([role], 'incident', 'write')).toBe(true);
      expect(can([role], 'comments', 'write')).toBe(true);
      expect(can([role], 'canaries', 'write')).toBe(false);
      expect(can([role], 'connections', 'read')).toBe(false);
      expect(can([role], 'identities', 'read')).toBe(false);
      expect(can([role], 'playbooks', 'read')).toBe(true);
    }
  });
  it('viewer writes nothing; no roles counts as viewer', () => {
    expect(effectiveRoles([])).toEqual(['viewer']);
    expect(can([], 'incident', 'write')).toBe(false);
    expect(can(['viewer'], 'incident', 'read')).toBe(true);
    expect(Object.values(permissionsOf(['viewer'])).some((a) => a.includes('write'))).toBe(false);
  });
  it('unknown resources are denied; feature_flags is the properties resource', () => {
    expect(can(['admin'], 'nope', 'read')).toBe(false);
    expect(can(['editor'], 'feature_flags', 'write')).toBe(true);
  });
  it('shows the highest of admin, editor, viewer', () => {
    expect(displayedRole(['viewer', 'editor'])).toBe('editor');
    expect(displayedRole(['commander'])).toBe('viewer');
    expect(displayedRole(['editor', 'admin'])).toBe('admin');
  });
  it('lets commanders run checks but not viewers', () => {
    expect(canRunCheck(['commander'])).toBe(true);
    expect(canRunCheck(['viewer'])).toBe(false);
    expect(canRunCheck(['editor'])).toBe(true);
  });
});

describe('feature flags', () => {
  it('disables a feature by {feature}.disable=true and applies the settings fallbacks', () => {
    expect(isFeatureDisabled('incidents', { 'incidents.disable': 'true' })).toBe(true);
    expect(isFeatureDisabled('incidents', { 'incidents.disable': 'false' })).toBe(false);
    expect(isFeatureDisabled('settings.job_history', { 'health.disable': 'true' })).toBe(true);
    expect(isFeatureDisabled('settings.config_scraper', { 'config.disable': 'true' })).toBe(true);
    expect(isFeatureDisabled('settings.topology', {})).toBe(false);
  });
});
