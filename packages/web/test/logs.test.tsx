// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import type { Property } from '@watchdeck/core';
import { ViewLogsLink } from '../src/components/view-logs/index.tsx';
import { formatLogTime } from '../src/features/logs/components/log-table.tsx';
import { RouteRegistryProvider } from '../src/lib/route-registry.tsx';
import { renderWithProviders } from './helpers.tsx';

afterEach(cleanup);

describe('View Logs', () => {
  it('links a component to /logs?topologyId={id}', () => {
    renderWithProviders(
      <RouteRegistryProvider exists={(path) => path === '/logs'}>
        <ViewLogsLink componentId="c-1" />
      </RouteRegistryProvider>,
    );
    expect(screen.getByRole('link', { name: 'View Logs' }).getAttribute('href')).toBe('/logs?topologyId=c-1');
  });

  it('is hidden when the logs feature is disabled', () => {
    const off: Property = { name: 'logs.disable', value: 'true', source: 'db' };
    renderWithProviders(<ViewLogsLink componentId="c-1" />, { properties: [off] });
    expect(screen.queryByText('View Logs')).toBeNull();
  });
});

describe('log timestamps', () => {
  it('are shown as YYYY-MM-DD HH:mm.ss.SSS (seed 001 "/logs")', () => {
    // the local time of the browser, as the seed's format has no zone
    const ts = new Date(2026, 10, 26, 9, 5, 7, 42).toISOString();
    expect(formatLogTime(ts)).toBe('2026-11-26 09:05.07.042');
  });
});
