import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { connectionTypeDef, SECRET_MASK } from '@watchdeck/core';
import { fromStoredValue, toStoredValue } from '../src/components/forms/value-source-field.tsx';
import { connectionPayload, initialFormValues } from '../src/features/connections/components/form-model.ts';
import type { ConnectionRow } from '../src/features/connections/api/use-connections.ts';
import { fluxManifests, helmCommand, helmSetArgs, shellQuote } from '../src/features/integrations/gitops/manifests.ts';

describe('secret-or-value input', () => {
  it('reads a stored value, a reference and the mask of a stored secret', () => {
    expect(fromStoredValue('plain')).toEqual({ source: 'static', value: 'plain', name: '', key: '' });
    expect(fromStoredValue('secret://db-creds/password')).toEqual({
      source: 'secret',
      value: '',
      name: 'db-creds',
      key: 'password',
    });
    expect(fromStoredValue('configmap://cfg/user')).toMatchObject({ source: 'configmap', name: 'cfg', key: 'user' });
    expect(fromStoredValue(SECRET_MASK)).toMatchObject({ source: 'static', value: '', stored: true });
  });

  it('writes a value, a reference, and nothing for a stored secret left alone', () => {
    expect(toStoredValue({ source: 'static', value: 'v', name: '', key: '' })).toBe('v');
    expect(toStoredValue({ source: 'secret', value: '', name: 'n', key: 'k' })).toBe('secret://n/k');
    expect(toStoredValue({ source: 'configmap', value: '', name: 'n', key: '' })).toBe('');
    expect(toStoredValue({ source: 'static', value: '', name: '', key: '', stored: true })).toBeUndefined();
    expect(toStoredValue({ source: 'static', value: 'new', name: '', key: '', stored: true })).toBe('new');
  });
});

describe('connection form model', () => {
  const email = connectionTypeDef('email')!;
  const stored: ConnectionRow = {
    id: 'c1',
    name: 'mail',
    namespace: 'ops',
    type: 'email',
    url: 'smtp://mail.example.com:587',
    username: 'bot',
    password: SECRET_MASK,
    certificate: null,
    insecure_tls: false,
    properties: {
      host: 'mail.example.com',
      port: 587,
      encryptionMethod: 'Auto',
      authMethod: 'Plain',
      from: 'ops@example.com',
    },
    source: 'UI',
    created_at: '2026-01-01T00:00:00Z',
    updated_at: null,
    created_by: null,
  };

  it('starts a new connection with the seed defaults (email: port 587, Auto, Unknown)', () => {
    const v = initialFormValues(email, null);
    expect(v).toMatchObject({
      namespace: 'default',
      port: 587,
      encryptionMethod: 'Auto',
      authMethod: 'Unknown',
      insecure_tls: false,
    });
    expect(initialFormValues(connectionTypeDef('sftp')!, null).port).toBe(22);
    expect(initialFormValues(connectionTypeDef('smb')!, null).port).toBe(445);
    expect(initialFormValues(connectionTypeDef('opsgenie')!, null)).toMatchObject({
      host: 'api.opsgenie.com',
      port: 443,
    });
    expect(initialFormValues(connectionTypeDef('generic_webhook')!, null)).toMatchObject({
      contentType: 'application/json',
      requestMethod: 'POST',
      messageKey: 'message',
      titleKey: 'title',
    });
    expect(initialFormValues(connectionTypeDef('ntfy')!, null).host).toBe('ntfy.sh');
    expect(initialFormValues(connectionTypeDef('teams')!, null).host).toBe('outlook.office.com');
    expect(initialFormValues(connectionTypeDef('redis')!, null).db).toBe(0);
  });

  it('builds the url from the parts and leaves an untouched secret out of an update', () => {
    const v = initialFormValues(email, stored);
    v.port = 2525;
    const payload = connectionPayload(email, v, true);
    expect(payload).not.toHaveProperty('password');
    expect(payload).not.toHaveProperty('type');
    expect(payload).toMatchObject({
      url: 'smtp://mail.example.com:2525',
      username: 'bot',
      properties: { port: 2525, from: 'ops@example.com' },
    });
  });

  it('sends a new secret and a reference as typed', () => {
    const v = initialFormValues(email, stored);
    v.password = { source: 'secret', value: '', name: 'smtp', key: 'password', stored: true };
    expect(connectionPayload(email, v, true).password).toBe('secret://smtp/password');
    v.password = { source: 'static', value: 'n3w', name: '', key: '', stored: true };
    expect(connectionPayload(email, v, true).password).toBe('n3w');
  });
});

describe('GitOps manifests and Helm command', () => {
  const spec = {
    chart: 'mission-control-aws',
    version: '1.0.7',
    namespace: 'mission-control',
    values: { region: 'eu-west-1', accounts: ['a', 'b'], tags: { 'app.kubernetes.io/name': 'x,y' } },
  };

  it('renders a HelmRepository and a HelmRelease with the values, interval 30m by default', () => {
    const docs = parseAllDocuments(fluxManifests(spec)).map((d) => d.toJS());
    expect(docs).toHaveLength(2);
    expect(docs[0]).toMatchObject({
      kind: 'HelmRepository',
      metadata: { namespace: 'mission-control' },
      spec: { interval: '30m', url: 'https://flanksource.github.io/charts' },
    });
    expect(docs[1]).toMatchObject({
      kind: 'HelmRelease',
      metadata: { name: 'mission-control-aws', namespace: 'mission-control' },
      spec: {
        interval: '30m',
        chart: { spec: { chart: 'mission-control-aws', version: '1.0.7' } },
        values: spec.values,
      },
    });
    const unpinned = parseAllDocuments(fluxManifests({ ...spec, version: undefined, values: {} }))[1].toJS();
    expect(unpinned.spec.chart.spec).not.toHaveProperty('version');
    expect(unpinned.spec).not.toHaveProperty('values');
  });

  it('escapes --set paths and values the way Helm reads them', () => {
    expect(helmSetArgs(spec.values)).toEqual([
      'region=eu-west-1',
      'accounts[0]=a',
      'accounts[1]=b',
      'tags.app\\.kubernetes\\.io/name=x\\,y',
    ]);
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    const cmd = helmCommand(spec);
    expect(cmd).toContain('helm install mission-control-aws flanksource/mission-control-aws');
    expect(cmd).toContain('-n mission-control --create-namespace');
    expect(cmd).toContain('--version 1.0.7');
    expect(cmd).toContain(`--set 'tags.app\\.kubernetes\\.io/name=x\\,y'`);
  });
});
