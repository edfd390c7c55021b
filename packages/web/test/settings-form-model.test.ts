import { describe, expect, it } from 'vitest';
import {
  codeDocument,
  formPayload,
  initialValues,
  parseLabels,
  parseYamlMapping,
  scheduleInSpec,
  valuesFromCode,
  withSpecSchedule,
} from '../src/components/settings-form/form-model.ts';
import { resourceConfig } from '../src/features/settings-resources/resources.ts';

const canaries = resourceConfig('canaries');
const teams = resourceConfig('teams');

describe('settings spec form model', () => {
  it('starts a new resource in namespace default with empty labels and spec', () => {
    const v = initialValues(canaries, null);
    expect(v).toMatchObject({ name: '', namespace: 'default', labels: '{}', spec: '', schedule: '' });
  });

  it('builds the payload of the fields the kind has, keeping spec.schedule equal to the select', () => {
    const v = {
      ...initialValues(canaries, null),
      name: ' web ',
      labels: '{"env": "prod"}',
      schedule: '@every 5m',
      spec: 'schedule: "@every 1h"\nhttp:\n  - name: home\n    url: http://x\n',
    };
    expect(formPayload(canaries, v)).toEqual({
      name: 'web',
      icon: null,
      namespace: 'default',
      labels: { env: 'prod' },
      schedule: '@every 5m',
      spec: { schedule: '@every 5m', http: [{ name: 'home', url: 'http://x' }] },
    });
    // no schedule chosen: the schedule typed in the spec is the schedule, never dropped
    expect(formPayload(canaries, { ...v, schedule: '' })).toMatchObject({
      schedule: '@every 1h',
      spec: { schedule: '@every 1h', http: [{ name: 'home', url: 'http://x' }] },
    });
    // neither: none
    const none = formPayload(canaries, { ...v, schedule: '', spec: 'schedule: ""\nhttp: []\n' });
    expect(none).toMatchObject({ schedule: null, spec: { http: [] } });
    // teams have name, icon and spec only
    expect(Object.keys(formPayload(teams, { ...v, icon: 'users' }))).toEqual(['name', 'icon', 'spec']);
  });

  it("keeps the spec's schedule key in step with the select", () => {
    expect(scheduleInSpec('schedule: "@every 1m"\nhttp: []\n')).toBe('@every 1m');
    expect(scheduleInSpec('http: []\n')).toBeUndefined();
    expect(scheduleInSpec('http: [')).toBeNull();
    const spec = 'schedule: "@every 1m"\nhttp:\n  - name: home # the front page\n';
    expect(withSpecSchedule(spec, '@hourly')).toBe('schedule: "@hourly"\nhttp:\n  - name: home # the front page\n');
    expect(withSpecSchedule(spec, '')).toBe('http:\n  - name: home # the front page\n');
    // no key in the spec, or YAML that does not parse: left as written
    expect(withSpecSchedule('http: []\n', '@hourly')).toBe('http: []\n');
    expect(withSpecSchedule('http: [', '@hourly')).toBe('http: [');
    // the Code tab: a schedule only inside the spec becomes the select's
    const v = initialValues(canaries, null);
    expect(valuesFromCode(canaries, 'name: x\nspec:\n  schedule: "@daily"\n', v)?.schedule).toBe('@daily');
  });

  it('accepts labels only as a JSON object of strings and specs only as a YAML mapping', () => {
    expect(parseLabels('{"a": "b"}')).toEqual({ a: 'b' });
    expect(parseLabels('')).toEqual({});
    expect(parseLabels('{"a": 1}')).toBeUndefined();
    expect(parseLabels('["a"]')).toBeUndefined();
    expect(parseLabels('{a')).toBeUndefined();
    expect(parseYamlMapping('a: 1')).toEqual({ a: 1 });
    expect(parseYamlMapping('')).toEqual({});
    expect(parseYamlMapping('- a')).toBeUndefined();
    expect(parseYamlMapping('a: [')).toBeUndefined();
  });

  it('round-trips through the Code tab and ignores unparseable YAML', () => {
    const row = {
      id: '1',
      name: 'db',
      namespace: 'data',
      icon: null,
      labels: { tier: 'data' },
      schedule: '@every 10m',
      spec: { tcp: [{ name: 'p', endpoint: 'h:1' }] },
      source: 'UI',
      created_at: '2026-01-01T00:00:00Z',
    };
    const v = initialValues(canaries, row);
    const doc = codeDocument(canaries, v, row);
    expect(doc).toEqual({
      name: 'db',
      namespace: 'data',
      labels: { tier: 'data' },
      schedule: '@every 10m',
      spec: row.spec,
    });
    const edited = valuesFromCode(
      canaries,
      'name: db\nnamespace: data\nschedule: "@hourly"\nspec:\n  exec:\n    - name: e\n      script: "true"\n',
      v,
    )!;
    expect(formPayload(canaries, edited)).toMatchObject({
      schedule: '@hourly',
      labels: {},
      spec: { exec: [{ name: 'e', script: 'true' }] },
    });
    expect(valuesFromCode(canaries, 'name: [', v)).toBeUndefined();
  });

  it('edits a specless resource (notifications) as the YAML of its editable columns', () => {
    const notifications = resourceConfig('notifications');
    const row = {
      id: 'n',
      name: 'r',
      title: 'T',
      events: ['check.failed'],
      created_at: 'x',
      pending: 3,
      deleted_at: null,
    };
    expect(codeDocument(notifications, initialValues(notifications, row), row)).toEqual({
      name: 'r',
      title: 'T',
      events: ['check.failed'],
    });
  });
});
