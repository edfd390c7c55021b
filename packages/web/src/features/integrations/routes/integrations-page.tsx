import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { Plus, RotateCw, Search } from 'lucide-react';
import { DataTable, dataTableColumns } from '#web/components/data-table/index.ts';
import { JobStatusBadge } from '#web/components/job-history/index.ts';
import { inputClass } from '#web/components/forms/index.ts';
import { Button } from '#web/components/ui/button.tsx';
import { PageTitle } from '#web/components/ui/page-title.tsx';
import { useCan } from '#web/lib/session.tsx';
import { usePaginationParams, useSearchParamState, useSortingParams } from '#web/lib/url-state.ts';
import { cn } from '#web/lib/cn.ts';
import { useIntegrations, type IntegrationRow } from '../api/use-integrations.ts';
import { useRefreshIntegrations } from '../api/use-refresh-integrations.ts';
import { AddIntegrationModal } from '../components/add-integration-modal.tsx';
import { INTEGRATION_TYPE_LABELS, type RenderIntegrationForm } from '../types.ts';
import { ErrorAlert } from '#web/components/ui/error-alert.tsx';
import { RelativeTime } from '#web/components/ui/relative-time.tsx';

const SEARCH_DEBOUNCE_MS = 400;
const col = dataTableColumns<IntegrationRow>();

const columns = col.columns([
  col.accessor('name', {
    header: 'Name',
    cell: (c) => <span className="font-medium text-gray-900">{c.getValue()}</span>,
  }),
  col.accessor('integration_type', {
    header: 'Type',
    cell: (c) => INTEGRATION_TYPE_LABELS[c.getValue()] ?? c.getValue(),
  }),
  col.accessor('namespace', { header: 'Namespace' }),
  col.accessor('source', { header: 'Source' }),
  col.accessor((r) => r.agent?.name ?? '', { id: 'agent', header: 'Agent', enableSorting: false }),
  col.accessor('job_status', { header: 'Job Status', cell: (c) => <JobStatusBadge status={c.getValue()} /> }),
  col.accessor('job_time_start', { header: 'Last Run', cell: (c) => <RelativeTime at={c.getValue()} /> }),
  col.accessor((r) => r.created_by?.name ?? '', { id: 'created_by', header: 'Created By', enableSorting: false }),
  col.accessor('created_at', { header: 'Created', cell: (c) => <RelativeTime at={c.getValue()} /> }),
  col.accessor('updated_at', { header: 'Updated', cell: (c) => <RelativeTime at={c.getValue()} /> }),
]);

/**
 * /settings/integrations (seed 002 section 2.9): scrapers, topologies and log backends in one
 * paged list with a search; the add button (write on integrations) opens a full-size dialog;
 * a row goes to /settings/integrations/{type}/{id}.
 */
export function IntegrationsPage({ renderForm }: { renderForm: RenderIntegrationForm }) {
  const navigate = useNavigate();
  const canWrite = useCan('integrations', 'write');
  const [search, setSearch] = useSearchParamState('search');
  const [typed, setTyped] = useState(search);
  const { pageIndex, pageSize, setPagination } = usePaginationParams();
  const { sorting, setSorting } = useSortingParams({ defaultSort: { id: 'name', desc: false } });
  const [adding, setAdding] = useState(false);
  const refresh = useRefreshIntegrations();
  const sort = sorting[0] ?? { id: 'name', desc: false };
  const list = useIntegrations({ search, pageIndex, pageSize, sortBy: sort.id, sortDesc: sort.desc });

  useEffect(() => {
    if (typed === search) return;
    const t = setTimeout(() => setSearch(typed || null, { resetPage: true }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [typed, search, setSearch]);

  return (
    <div className="flex h-full min-h-0 flex-col gap-3 p-4">
      <PageTitle documentTitle="Integrations">
        <nav aria-label="Breadcrumb" className="flex items-center gap-1.5 text-sm">
          <span className="text-gray-500">Settings</span>
          <span className="text-gray-400">/</span>
          <span className="font-semibold text-gray-900">Integrations</span>
        </nav>
        <Button
          variant="ghost"
          size="icon"
          aria-label="Reload integrations"
          onClick={() => void list.refetch()}
          disabled={list.isFetching}
        >
          <RotateCw size={15} className={list.isFetching ? 'animate-spin' : undefined} aria-hidden />
        </Button>
        {canWrite && (
          <Button variant="primary" size="sm" onClick={() => setAdding(true)}>
            <Plus size={14} aria-hidden /> Add Integration
          </Button>
        )}
      </PageTitle>
      <div className="relative max-w-sm">
        <Search
          size={14}
          aria-hidden
          className="pointer-events-none absolute top-1/2 left-2.5 -translate-y-1/2 text-gray-400"
        />
        <input
          type="search"
          aria-label="Search integrations"
          placeholder="Search by name"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          className={cn(inputClass(), 'pl-8')}
        />
      </div>
      {list.error && !list.data ? (
        <ErrorAlert error={list.error} />
      ) : (
        <DataTable
          label="Integrations"
          columns={columns}
          data={list.data?.rows ?? []}
          getRowId={(r) => `${r.integration_type}:${r.id}`}
          isLoading={list.isFetching}
          onRowClick={(r) => void navigate(`/settings/integrations/${r.integration_type}/${r.id}`)}
          enableSorting
          manualSorting
          sorting={sorting}
          onSortingChange={setSorting}
          pageIndex={pageIndex}
          pageSize={pageSize}
          rowCount={list.data?.total ?? 0}
          onPaginationChange={setPagination}
        />
      )}
      <AddIntegrationModal open={adding} onOpenChange={setAdding} renderForm={renderForm} onAdded={refresh} />
    </div>
  );
}
