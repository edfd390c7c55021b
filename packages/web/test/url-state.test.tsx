// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { DataTable, dataTableColumns } from '../src/components/data-table/index.ts';
import { usePaginationParams, useSearchParamState, useSortingParams } from '../src/lib/url-state.ts';
import { renderWithProviders, searchOf } from './helpers.tsx';

afterEach(cleanup);

interface Row {
  id: string;
  name: string;
}
const col = dataTableColumns<Row>();
const columns = col.columns([col.accessor('name', { header: 'Name' })]);
const rows: Row[] = Array.from({ length: 30 }, (_, i) => ({ id: String(i), name: `agent-${i}` }));

/** A server-paged list the way a feature screen wires it: paging and sorting in the URL. */
function AgentsLike() {
  const { pageIndex, pageSize, setPagination } = usePaginationParams();
  const { sorting, setSorting } = useSortingParams();
  const [query, setQuery] = useSearchParamState('query');
  return (
    <div>
      <input aria-label="Search" value={query} onChange={(e) => setQuery(e.target.value, { resetPage: true })} />
      <DataTable
        columns={columns}
        data={rows.slice(pageIndex * pageSize, (pageIndex + 1) * pageSize)}
        manualSorting
        sorting={sorting}
        onSortingChange={setSorting}
        pageIndex={pageIndex}
        pageSize={pageSize}
        rowCount={1000}
        onPaginationChange={setPagination}
      />
    </div>
  );
}

describe('URL state', () => {
  it('keeps pageIndex (default 0) and pageSize (default 50) in the URL', () => {
    const { router } = renderWithProviders(<AgentsLike />, { path: '/agents' });
    expect(screen.getByText('Page 1 of 20')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(searchOf(router).get('pageIndex')).toBe('1');
    expect(searchOf(router).get('pageSize')).toBeNull();
    expect(screen.getByText('Page 2 of 20')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Page size'), { target: { value: '100' } });
    expect(searchOf(router).get('pageSize')).toBe('100');
    expect(searchOf(router).get('pageIndex')).toBeNull();
    expect(screen.getByText('Page 1 of 10')).toBeTruthy();
  });

  it('reads paging from the URL and ignores nonsense', () => {
    renderWithProviders(<AgentsLike />, { path: '/agents?pageIndex=3&pageSize=25' });
    expect(screen.getByText('Page 4 of 40')).toBeTruthy();
    cleanup();
    renderWithProviders(<AgentsLike />, { path: '/agents?pageIndex=-2&pageSize=abc' });
    expect(screen.getByText('Page 1 of 20')).toBeTruthy();
  });

  it('keeps sortBy and sortOrder in the URL and resets the page when sorting changes', () => {
    const { router } = renderWithProviders(<AgentsLike />, { path: '/agents?pageIndex=2&pageSize=5' });
    fireEvent.click(screen.getByRole('button', { name: /Name/ }));
    expect(searchOf(router).get('sortBy')).toBe('name');
    expect(searchOf(router).get('sortOrder')).toBe('asc');
    expect(searchOf(router).get('pageIndex')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /Name/ }));
    expect(searchOf(router).get('sortOrder')).toBe('desc');
    expect(screen.getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort')).toBe('descending');
  });

  it('resets the page when a filter changes', () => {
    const { router } = renderWithProviders(<AgentsLike />, { path: '/agents?pageIndex=2' });
    fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'kube' } });
    expect(searchOf(router).get('query')).toBe('kube');
    expect(searchOf(router).get('pageIndex')).toBeNull();
  });
});
