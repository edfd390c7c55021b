// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { DURATION_FILTER_ERROR, parseDurationFilter } from '../src/features/health/lib/duration-filter.ts';
import {
  defaultCheckTimeRange,
  isRefreshDisabled,
  refreshIntervalMs,
  REFRESH_OPTIONS,
} from '../src/features/health/lib/time-ranges.ts';
import {
  decodeLabelsParam,
  encodeLabelsParam,
  labelsFilterParam,
  matchesLabels,
  matchesQuery,
} from '../src/features/health/lib/filters.ts';
import { groupHealth, healthColour, uptimeBarColour } from '../src/features/health/lib/status.ts';
import { readHealthParams } from '../src/features/health/lib/use-health-params.ts';
import { timeTicks } from '../src/features/health/lib/time-ticks.ts';
import { normaliseCheckSummary, type CheckSummary } from '../src/features/health/api/types.ts';
import { CheckFooter } from '../src/features/health/components/check-drawer/check-footer.tsx';
import { HealthPage } from '../src/features/health/routes/health-page.tsx';
import { renderWithProviders } from './helpers.tsx';

afterEach(cleanup);

describe('history duration filter (seed 000 section 5)', () => {
  it('accepts a number with ms or s and converts seconds to milliseconds', () => {
    expect(parseDurationFilter('All')).toEqual({ ok: true, ms: undefined });
    expect(parseDurationFilter('')).toEqual({ ok: true, ms: undefined });
    expect(parseDurationFilter('100ms')).toEqual({ ok: true, ms: 100 });
    expect(parseDurationFilter('5s')).toEqual({ ok: true, ms: 5000 });
    expect(parseDurationFilter('1.5s')).toEqual({ ok: true, ms: 1500 });
  });
  it.each(['2m', '10', 'fast', '1h', '-5s', 's'])('refuses %s with the seed message', (text) => {
    expect(parseDurationFilter(text)).toEqual({ ok: false, error: DURATION_FILTER_ERROR });
  });
  it('uses the message of the error catalogue', () => {
    expect(DURATION_FILTER_ERROR).toBe('duration is allowed only in milli seconds & seconds');
  });
});

describe('auto refresh (seed 000 section 9)', () => {
  it('offers None, 15s, 30s, 1 minute, 2m, 3m, 5m, 10m, 15m', () => {
    expect(REFRESH_OPTIONS.map((o) => o.label)).toEqual([
      'None',
      '15s',
      '30s',
      '1 minute',
      '2m',
      '3m',
      '5m',
      '10m',
      '15m',
    ]);
  });
  it('disables 15s and 30s from 60 minutes, and 2m and 3m from 180 minutes', () => {
    const disabled = (range: Parameters<typeof isRefreshDisabled>[1]) =>
      REFRESH_OPTIONS.filter((o) => isRefreshDisabled(o.value, range)).map((o) => o.value);
    expect(disabled('15m')).toEqual([]);
    expect(disabled('1h')).toEqual(['15s', '30s']);
    expect(disabled('2h')).toEqual(['15s', '30s']);
    expect(disabled('3h')).toEqual(['15s', '30s', '2m', '3m']);
    expect(disabled('1y')).toEqual(['15s', '30s', '2m', '3m']);
    expect(refreshIntervalMs('15s', '15m')).toBe(15_000);
    expect(refreshIntervalMs('15s', '1h')).toBe(0);
    expect(refreshIntervalMs('none', '15m')).toBe(0);
  });
});

describe('default check time range from the last run (seed 000 section 9)', () => {
  const now = Date.parse('2026-03-01T12:00:00Z');
  const ago = (minutes: number) => new Date(now - minutes * 60_000).toISOString();
  it.each([
    [5, '1h'],
    [59, '1h'],
    [61, '3h'],
    [179, '3h'],
    [181, '6h'],
    [13 * 60, '1d'],
    [3 * 1440, '1w'],
    [400 * 1440, '2y'],
    [4 * 365 * 1440, '5y'],
  ])('a run %i minutes ago gives %s', (minutes, range) => {
    expect(defaultCheckTimeRange(ago(minutes as number), now)).toBe(range);
  });
  it('gives 5y without a last run', () => {
    expect(defaultCheckTimeRange(null, now)).toBe('5y');
  });
});

describe('Health Overview time axis', () => {
  const labels = (min: number, max: number) => {
    const { ticks, format } = timeTicks(min, max);
    return ticks.map(format);
  };
  const at = (hhmmss: string) => new Date(`2026-11-25T${hhmmss}`).getTime();

  it('never repeats a label: runs minutes or seconds apart get seconds in their labels', () => {
    // three runs between 21:19:30 and 21:21:10 (Run Now pressed a few times)
    expect(labels(at('21:19:30'), at('21:21:10'))).toEqual(['21:19:30', '21:20:00', '21:20:30', '21:21:00']);
    expect(labels(at('21:19:30'), at('21:25:10'))).toEqual(['21:20', '21:21', '21:22', '21:23', '21:24', '21:25']);
    // runs seconds apart: seconds in the labels
    expect(labels(at('21:20:05'), at('21:20:40'))).toEqual(['21:20:10', '21:20:20', '21:20:30', '21:20:40']);
    expect(labels(at('21:20:05'), at('21:20:05'))).toEqual(['21:20:05']);
  });

  it('puts ticks on whole local minutes, hours and days, at most six', () => {
    expect(labels(at('20:31:00'), at('21:30:00'))).toEqual(['20:40', '20:50', '21:00', '21:10', '21:20', '21:30']);
    const day = labels(at('00:00:00') - 2 * 86_400_000, at('00:00:00'));
    expect(new Set(day).size).toBe(day.length);
    expect(day.every((x) => /^[A-Z][a-z]{2} \d+ \d\d:00$/.test(x))).toBe(true);
    const years = labels(Date.parse('2021-11-25T00:00:00Z'), Date.parse('2026-11-25T00:00:00Z'));
    expect(years.every((x) => /^[A-Z][a-z]{2} \d{4}$/.test(x))).toBe(true);
    for (const span of [4_000, 45_000, 600_000, 3 * 3_600_000, 86_400_000, 10 * 86_400_000, 400 * 86_400_000]) {
      for (let i = 0; i < 20; i++) {
        const min = at('03:07:11') + i * 7_777_777;
        const l2 = labels(min, min + span);
        expect(new Set(l2).size, `${span} ${min}`).toBe(l2.length);
        expect(l2.length).toBeGreaterThan(0);
        expect(l2.length).toBeLessThanOrEqual(7);
      }
    }
  });
});

describe('/health parameters', () => {
  it('has the seed defaults: hide passing, tab by namespace, group by canary_name', () => {
    const p = readHealthParams(new URLSearchParams(''));
    expect(p).toMatchObject({
      hidePassing: true,
      tabBy: 'namespace',
      groupBy: 'canary_name',
      layout: 'table',
      timeRange: '1h',
      tab: 'All',
      sortDesc: false,
    });
  });
  it('reads every parameter', () => {
    const p = readHealthParams(
      new URLSearchParams(
        'timeRange=1w&layout=card&checkId=c1&labels=%7B%22team%3Da%22%3A1%2C%22env%3Dprod%22%3A-1%7D&query=api&pivotBy=labels&pivotLabel=team&pivotCellType=latency&sortBy=name&sortDesc=true&groupBy=type&tab=infra&tabBy=agent&hidePassing=false',
      ),
    );
    expect(p).toEqual({
      timeRange: '1w',
      layout: 'card',
      checkId: 'c1',
      labels: { 'team=a': 1, 'env=prod': -1 },
      query: 'api',
      pivotBy: 'labels',
      pivotLabel: 'team',
      pivotCellType: 'latency',
      sortBy: 'name',
      sortDesc: true,
      groupBy: 'type',
      tab: 'infra',
      tabBy: 'agent',
      hidePassing: false,
    });
  });
  it('keeps labels as JSON in the URL and sends exclusions prefixed with !', () => {
    const map = decodeLabelsParam('{"team=a":1,"env=prod":-1,"bad":7}');
    expect(map).toEqual({ 'team=a': 1, 'env=prod': -1 });
    expect(encodeLabelsParam(map)).toBe('{"team=a":1,"env=prod":-1}');
    expect(encodeLabelsParam({})).toBeNull();
    expect(labelsFilterParam(map)).toBe('team=a,!env=prod');
    expect(decodeLabelsParam('not json')).toEqual({});
  });
});

describe('filters', () => {
  const check = {
    labels: { team: 'a', env: 'prod' },
    name: 'orders api',
    description: 'Orders',
    endpoint: 'http://x:8080',
  };
  it('keeps checks with every included label and none of the excluded ones (as the server does)', () => {
    expect(matchesLabels(check, {})).toBe(true);
    expect(matchesLabels(check, { 'team=a': 1 })).toBe(true);
    expect(matchesLabels(check, { 'team=b': 1 })).toBe(false);
    expect(matchesLabels(check, { 'team=a': 1, 'env=prod': 1 })).toBe(true);
    expect(matchesLabels(check, { 'team=a': 1, 'team=b': 1 })).toBe(false);
    expect(matchesLabels(check, { 'team=a': 1, 'env=dev': 1 })).toBe(false);
    expect(matchesLabels(check, { 'env=prod': -1 })).toBe(false);
    expect(matchesLabels(check, { 'env=dev': -1 })).toBe(true);
  });
  it('searches name, description and endpoint', () => {
    expect(matchesQuery(check, 'ORDERS')).toBe(true);
    expect(matchesQuery(check, '8080')).toBe(true);
    expect(matchesQuery(check, 'payments')).toBe(false);
  });
});

describe('status colours and groups (seed 000 section 4)', () => {
  it('maps statuses to colours', () => {
    expect(['degraded', 'missing', 'unhealthy'].map(healthColour)).toEqual(['red', 'red', 'red']);
    expect(['unknown', 'suspended', null].map(healthColour)).toEqual(['grey', 'grey', 'grey']);
    expect(['warning', 'warn', 'mixed'].map(healthColour)).toEqual(['orange', 'orange', 'orange']);
    expect(['healthy', 'anything'].map(healthColour)).toEqual(['green', 'green']);
    expect([50, 76, 91].map(uptimeBarColour)).toEqual(['green', 'orange', 'red']);
  });
  it('calls a group good, mixed or bad', () => {
    expect(groupHealth([{ status: 'healthy' }, { status: 'healthy' }])).toBe('good');
    expect(groupHealth([{ status: 'healthy' }, { status: 'unhealthy' }])).toBe('mixed');
    expect(groupHealth([{ status: 'unhealthy' }, { status: null }])).toBe('bad');
  });
});

describe('check drawer footer (seed 000 section 6)', () => {
  const check: CheckSummary = normaliseCheckSummary({
    id: '7c0f5c1e-0000-4000-8000-000000000001',
    name: 'orders api',
    type: 'http',
    canary_id: '7c0f5c1e-0000-4000-8000-0000000000aa',
    status: 'healthy',
    labels: '{"team":"a"}',
    uptime: { passed: '3', failed: 1 },
    latency: { p95: '120' },
  });
  it('normalises the feed row', () => {
    expect(check.labels).toEqual({ team: 'a' });
    expect(check.uptime).toMatchObject({ passed: 3, failed: 1 });
    expect(check.latency.p95).toBe(120);
  });
  it.each([
    ['admin', true, true, true],
    ['editor', true, true, true],
    ['commander', true, false, true],
    ['responder', false, false, true],
    ['viewer', false, false, false],
  ])('%s: Run Now %s, Playbooks %s, Attach as Evidence %s', (role, runNow, playbooks, evidence) => {
    renderWithProviders(<CheckFooter check={check} />, { roles: [role] });
    expect(screen.queryByRole('button', { name: 'Run Now' }) !== null).toBe(runNow);
    expect(screen.queryByRole('button', { name: /Playbooks/ }) !== null).toBe(playbooks);
    expect(screen.queryByRole('button', { name: 'Attach as Evidence' }) !== null).toBe(evidence);
    expect(screen.getByRole('link', { name: 'Edit' }).getAttribute('href')).toBe(
      `/settings/canaries/${check.canary_id}`,
    );
  });
  it('hides Playbooks and create-evidence in the embedded mode', () => {
    renderWithProviders(<CheckFooter check={check} embedded />, { roles: ['admin'] });
    expect(screen.queryByRole('button', { name: /Playbooks/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Attach as Evidence' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Run Now' })).toBeTruthy();
  });
  it('hides Attach as Evidence when the incidents feature is disabled', () => {
    renderWithProviders(<CheckFooter check={check} />, {
      roles: ['admin'],
      properties: [{ name: 'incidents.disable', value: 'true', source: 'db' }],
    });
    expect(screen.queryByRole('button', { name: 'Attach as Evidence' })).toBeNull();
  });
});

describe('/health header (seed 000: the add-check button needs write on canaries)', () => {
  it.each([
    ['admin', true],
    ['editor', true],
    ['commander', false],
    ['viewer', false],
  ])('%s sees Add Check: %s', (role, shown) => {
    renderWithProviders(<HealthPage />, { roles: [role], path: '/health' });
    expect(screen.queryByRole('button', { name: 'Add check' }) !== null).toBe(shown);
    expect(screen.getByPlaceholderText('Search by name, description, or endpoint')).toBeTruthy();
    expect(screen.getByTestId('passing-failing-counter')).toBeTruthy();
  });
});
