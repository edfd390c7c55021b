// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { decodeTriState } from '@watchdeck/core';
import { TriStateFilter, UrlTriStateFilter } from '../src/components/filters/index.ts';
import { renderWithProviders, searchOf } from './helpers.tsx';

afterEach(cleanup);

const options = [{ value: 'healthy' }, { value: 'unhealthy' }, { value: 'team:a,b', label: 'Team A,B' }];

describe('UrlTriStateFilter', () => {
  it('includes, excludes and clears options in the URL with encodeTriState, resetting pagination', () => {
    const { router } = renderWithProviders(<UrlTriStateFilter label="Status" paramKey="status" options={options} />, {
      path: '/health?pageIndex=4&query=api',
    });
    fireEvent.click(screen.getByRole('button', { name: 'Status' }));
    fireEvent.click(screen.getByRole('button', { name: 'Include healthy' }));
    expect(searchOf(router).get('status')).toBe('healthy:1');
    expect(searchOf(router).get('pageIndex')).toBeNull();
    expect(searchOf(router).get('query')).toBe('api');

    fireEvent.click(screen.getByRole('button', { name: 'Exclude unhealthy' }));
    expect(searchOf(router).get('status')).toBe('healthy:1,unhealthy:-1');

    // commas and colons in values are escaped
    fireEvent.click(screen.getByRole('button', { name: 'Exclude Team A,B' }));
    const raw = searchOf(router).get('status')!;
    expect(raw).toBe('healthy:1,unhealthy:-1,team\\:a\\,b:-1');
    expect(decodeTriState(raw)).toEqual({ healthy: 1, unhealthy: -1, 'team:a,b': -1 });

    // pressing an active state again returns the option to none
    fireEvent.click(screen.getByRole('button', { name: 'Include healthy' }));
    expect(decodeTriState(searchOf(router).get('status'))).toEqual({ unhealthy: -1, 'team:a,b': -1 });
    expect(screen.getByRole('button', { name: 'Exclude unhealthy' }).getAttribute('aria-pressed')).toBe('true');

    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect(searchOf(router).has('status')).toBe(false);
  });

  it('reads its state from the URL', () => {
    renderWithProviders(<UrlTriStateFilter label="Status" paramKey="status" options={options} />, {
      path: '/health?status=healthy:-1',
    });
    expect(screen.getByLabelText('1 selected')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /Status/ }));
    expect(screen.getByRole('button', { name: 'Exclude healthy' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: 'Include healthy' }).getAttribute('aria-pressed')).toBe('false');
  });
});

describe('TriStateFilter', () => {
  it("says 'No options found' when the search matches nothing", () => {
    render(<TriStateFilter label="Label" options={options} value={{}} onChange={() => {}} searchable />);
    fireEvent.click(screen.getByRole('button', { name: 'Label' }));
    fireEvent.change(screen.getByLabelText('Search Label'), { target: { value: 'zzz' } });
    expect(screen.getByText('No options found')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Search Label'), { target: { value: 'unh' } });
    expect(screen.getByRole('button', { name: 'Include unhealthy' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Include healthy' })).toBeNull();
  });

  it("says 'Start typing to search' before a required search", () => {
    const onSearchChange = vi.fn();
    render(
      <TriStateFilter
        label="Agent"
        options={[]}
        value={{}}
        onChange={() => {}}
        requireSearch
        onSearchChange={onSearchChange}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Agent' }));
    expect(screen.getByText('Start typing to search')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Search Agent'), { target: { value: 'ku' } });
    expect(onSearchChange).toHaveBeenCalledWith('ku');
    expect(screen.getByText('No options found')).toBeTruthy();
  });
});
