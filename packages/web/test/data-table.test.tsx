// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { DataTable, dataTableColumns, type DataTablePagination } from '../src/components/data-table/index.ts';

interface Item {
  id: string;
  name: string;
  team: string;
  count: number;
}

const col = dataTableColumns<Item>();
const columns = col.columns([
  col.accessor('name', { header: 'Name' }),
  col.accessor('team', { header: 'Team' }),
  col.accessor('count', { header: 'Count' }),
]);

const items: Item[] = Array.from({ length: 120 }, (_, i) => ({
  id: String(i),
  name: `item-${String(i).padStart(3, '0')}`,
  team: i % 2 ? 'blue' : 'red',
  count: (i * 37) % 101,
}));

const bodyRows = () => within(screen.getAllByRole('rowgroup')[1]).getAllByRole('row');
const firstCellTexts = () => bodyRows().map((r) => within(r).getAllByRole('cell')[0].textContent);

afterEach(cleanup);

describe('DataTable', () => {
  it('shows the empty state', () => {
    render(<DataTable columns={columns} data={[]} />);
    expect(screen.getByText('No data available')).toBeTruthy();
    expect(screen.getByText('Page 1 of 1')).toBeTruthy();
  });

  it('pages client side: Page 1 of 3 with the default page size 50, Next, >>, <<', () => {
    render(<DataTable columns={columns} data={items} getRowId={(r) => r.id} />);
    expect(screen.getByText('Page 1 of 3')).toBeTruthy();
    expect(bodyRows()).toHaveLength(50);
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByTestId('pagination').textContent).toContain('Page 2 of 3');
    expect(firstCellTexts()[0]).toBe('item-050');
    fireEvent.click(screen.getByRole('button', { name: '>>' }));
    expect(screen.getByTestId('pagination').textContent).toContain('Page 3 of 3');
    expect(bodyRows()).toHaveLength(20);
    expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: '<<' }));
    expect(screen.getByTestId('pagination').textContent).toContain('Page 1 of 3');
    expect((screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('offers the page sizes of the specification and changing it goes back to page 1', () => {
    render(<DataTable columns={columns} data={items} />);
    const select = screen.getByLabelText('Page size') as HTMLSelectElement;
    expect([...select.options].map((o) => Number(o.value))).toEqual([
      5, 10, 25, 50, 100, 150, 200, 250, 300, 500, 1000,
    ]);
    expect(select.value).toBe('50');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    fireEvent.change(select, { target: { value: '25' } });
    expect(screen.getByTestId('pagination').textContent).toContain('Page 1 of 5');
    expect(bodyRows()).toHaveLength(25);
  });

  it('goes to a page, clamping to at least 1 and at most the page count', () => {
    render(<DataTable columns={columns} data={items} />);
    const input = screen.getByLabelText('Go to page') as HTMLInputElement;
    expect(input.min).toBe('1');
    fireEvent.change(input, { target: { value: '3' } });
    fireEvent.submit(input.form!);
    expect(screen.getByTestId('pagination').textContent).toContain('Page 3 of 3');
    fireEvent.change(input, { target: { value: '0' } });
    fireEvent.submit(input.form!);
    expect(screen.getByTestId('pagination').textContent).toContain('Page 1 of 3');
    fireEvent.change(input, { target: { value: '99' } });
    fireEvent.submit(input.form!);
    expect(screen.getByTestId('pagination').textContent).toContain('Page 3 of 3');
  });

  it('says when a page number is out of range, instead of the browser silently refusing it', () => {
    render(<DataTable columns={columns} data={items} />);
    const input = screen.getByLabelText('Go to page') as HTMLInputElement;
    // the browser's own min/max check would block the submit and do nothing visible
    expect(input.form!.noValidate).toBe(true);
    for (const [typed, page] of [
      ['999', 3],
      ['-3', 1],
      ['0', 1],
    ] as const) {
      fireEvent.change(input, { target: { value: typed } });
      expect(screen.queryByRole('status')).toBeNull();
      fireEvent.submit(input.form!);
      expect(screen.getByTestId('pagination').textContent).toContain(`Page ${page} of 3`);
      expect(screen.getByRole('status').textContent).toBe(`There is no page ${typed}: pages go from 1 to 3`);
    }
    fireEvent.change(input, { target: { value: '2' } });
    fireEvent.submit(input.form!);
    expect(screen.getByTestId('pagination').textContent).toContain('Page 2 of 3');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('sorts by a column header: ascending, descending, then unsorted', () => {
    const few = items.slice(0, 5);
    render(<DataTable columns={columns} data={few} />);
    const header = screen.getByRole('button', { name: /Count/ });
    const counts = () => bodyRows().map((r) => Number(within(r).getAllByRole('cell')[2].textContent));
    const original = counts();
    fireEvent.click(header);
    const first = counts();
    const sortedAsc = [...original].sort((a, b) => a - b);
    const sortedDesc = [...sortedAsc].reverse();
    // numbers sort descending first, like most tables
    expect([sortedAsc, sortedDesc]).toContainEqual(first);
    expect(screen.getByRole('columnheader', { name: /Count/ }).getAttribute('aria-sort')).toMatch(
      /ascending|descending/,
    );
    fireEvent.click(header);
    expect(counts()).toEqual(first === sortedAsc ? sortedDesc : [...first].reverse());
    fireEvent.click(header);
    expect(counts()).toEqual(original);
  });

  it('sorts text columns ascending on the first click', () => {
    const rows = [
      { id: 'a', name: 'charlie', team: 'x', count: 1 },
      { id: 'b', name: 'alpha', team: 'x', count: 2 },
      { id: 'c', name: 'bravo', team: 'x', count: 3 },
    ];
    render(<DataTable columns={columns} data={rows} />);
    fireEvent.click(screen.getByRole('button', { name: /Name/ }));
    expect(firstCellTexts()).toEqual(['alpha', 'bravo', 'charlie']);
  });

  it('reports server-side sorting and paging to the caller', () => {
    const onSortingChange = vi.fn();
    const onPaginationChange = vi.fn();
    render(
      <DataTable
        columns={columns}
        data={items.slice(0, 10)}
        manualSorting
        sorting={[]}
        onSortingChange={onSortingChange}
        pageIndex={0}
        pageSize={10}
        pageCount={12}
        onPaginationChange={onPaginationChange}
      />,
    );
    expect(screen.getByTestId('pagination').textContent).toContain('Page 1 of 12');
    expect(bodyRows()).toHaveLength(10);
    fireEvent.click(screen.getByRole('button', { name: /Name/ }));
    expect(onSortingChange).toHaveBeenCalledWith([{ id: 'name', desc: false }]);
    fireEvent.click(screen.getByRole('button', { name: '>>' }));
    expect(onPaginationChange).toHaveBeenLastCalledWith({ pageIndex: 11, pageSize: 10 });
    fireEvent.change(screen.getByLabelText('Page size'), { target: { value: '100' } });
    expect(onPaginationChange).toHaveBeenLastCalledWith({ pageIndex: 0, pageSize: 100 });
  });

  it('follows controlled server paging', () => {
    function Server() {
      const [p, setP] = useState<DataTablePagination>({ pageIndex: 0, pageSize: 25 });
      const page = items.slice(p.pageIndex * p.pageSize, (p.pageIndex + 1) * p.pageSize);
      return <DataTable columns={columns} data={page} {...p} rowCount={items.length} onPaginationChange={setP} />;
    }
    render(<Server />);
    expect(screen.getByTestId('pagination').textContent).toContain('Page 1 of 5');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByTestId('pagination').textContent).toContain('Page 2 of 5');
    expect(firstCellTexts()[0]).toBe('item-025');
  });

  it('groups rows into expandable groups', () => {
    render(<DataTable columns={columns} data={items.slice(0, 6)} groupBy={['team']} pagination={false} />);
    const groups = bodyRows();
    expect(groups).toHaveLength(2);
    expect(groups[0].getAttribute('aria-expanded')).toBe('false');
    expect(groups[0].textContent).toContain('red');
    expect(groups[0].textContent).toContain('3');
    fireEvent.click(groups[0]);
    expect(bodyRows()).toHaveLength(5);
    expect(bodyRows()[0].getAttribute('aria-expanded')).toBe('true');
    fireEvent.keyDown(bodyRows()[0], { key: 'Enter' });
    expect(bodyRows()).toHaveLength(2);
  });

  it('calls onRowClick with the row data', () => {
    const onRowClick = vi.fn();
    render(<DataTable columns={columns} data={items.slice(0, 3)} onRowClick={onRowClick} />);
    fireEvent.click(bodyRows()[1]);
    expect(onRowClick).toHaveBeenCalledWith(items[1]);
  });
});
