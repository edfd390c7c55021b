/**
 * /agents and /settings/agents (seed 000 section 2, Agents screen): breadcrumb 'Agents', the plus
 * button (agents write), the table paged and sorted on the server with pageIndex, pageSize (50,
 * 100, 200), sortBy and sortOrder in the URL; addAgent=true opens the create form and id= the
 * edit form. After create, the installation instructions with the token, shown once.
 */
import { useMemo, useState } from 'react';
import { Plus } from 'lucide-react';
import {
  AGENT_PAGE_SIZES,
  LOCAL_AGENT_ID,
  agentOnline,
  type AgentForm,
  type AgentSummary,
  type GeneratedAgent,
} from '@watchdeck/core';
import { DataTable, dataTableColumns } from '#web/components/data-table/index.ts';
import { Button } from '#web/components/ui/button.tsx';
import { PageTitle } from '#web/components/ui/page-title.tsx';
import { ErrorAlert } from '#web/components/ui/error-alert.tsx';
import { RelativeTime } from '#web/components/ui/relative-time.tsx';
import { useCan } from '#web/lib/session.tsx';
import {
  usePaginationParams,
  useSearchParamState,
  useSortingParams,
  useUpdateSearchParams,
} from '#web/lib/url-state.ts';
import { useAgent, useAgents } from '../api/agents.ts';
import { CreateAgentModal, EditAgentModal } from '../components/agent-modal.tsx';
import { DeleteAgentFlow } from '../components/delete-agent-flow.tsx';
import { InstallDialog } from '../components/install-dialog.tsx';

const col = dataTableColumns<AgentSummary>();
const DEFAULT_PAGE_SIZE = AGENT_PAGE_SIZES[0];

function Properties({ properties }: { properties: Record<string, string> }) {
  const entries = Object.entries(properties ?? {});
  if (!entries.length) return <span className="text-gray-400">—</span>;
  return (
    <span className="flex flex-wrap gap-1">
      {entries.map(([k, v]) => (
        <span key={k} className="rounded bg-gray-100 px-1.5 py-0.5 text-xs text-gray-700">
          {k}: {v}
        </span>
      ))}
    </span>
  );
}

function OnlineStatus({ lastSeen }: { lastSeen: string | null }) {
  const online = agentOnline(lastSeen);
  return (
    <span
      className={
        online ? 'inline-flex items-center gap-1.5 text-green-700' : 'inline-flex items-center gap-1.5 text-gray-500'
      }
    >
      <span aria-hidden className={`h-2 w-2 rounded-full ${online ? 'bg-green-500' : 'bg-gray-400'}`} />
      {online ? 'Online' : 'Offline'}
    </span>
  );
}

/** Rows the agent holds parked (refused here): the agent's page lists them. */
function ParkedCount({ n }: { n: number }) {
  if (!n) return null;
  return (
    <span className="rounded bg-amber-100 px-1.5 py-0.5 text-xs whitespace-nowrap text-amber-800">{n} parked</span>
  );
}

const count = (label: string) => (c: { getValue: () => unknown }) => (
  <span className="tabular-nums" aria-label={label}>
    {Number(c.getValue() ?? 0)}
  </span>
);

export function AgentsPage() {
  const { pageIndex, pageSize, setPagination } = usePaginationParams({ defaultPageSize: DEFAULT_PAGE_SIZE });
  const { sorting, setSorting } = useSortingParams({ defaultSort: { id: 'name', desc: false } });
  const sort = sorting[0] ?? { id: 'name', desc: false };
  const size = (AGENT_PAGE_SIZES as readonly number[]).includes(pageSize) ? pageSize : DEFAULT_PAGE_SIZE;
  const agents = useAgents(pageIndex, size, sort.id, sort.desc);
  const canWrite = useCan('agents', 'write');
  const update = useUpdateSearchParams();
  const [addAgent] = useSearchParamState('addAgent');
  const [editId] = useSearchParamState('id');
  const editing = useAgent(editId || null);
  const [created, setCreated] = useState<{ agent: GeneratedAgent; form: AgentForm } | null>(null);
  const [deleting, setDeleting] = useState<AgentSummary | null>(null);

  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('name', {
          header: 'Name',
          cell: ({ row }) => <span className="font-medium text-gray-900">{row.original.name}</span>,
        }),
        col.accessor('description', { header: 'Description', cell: (c) => c.getValue() ?? '' }),
        col.accessor('properties', {
          header: 'Properties',
          enableSorting: false,
          cell: (c) => <Properties properties={c.getValue()} />,
        }),
        col.display({
          id: 'status',
          header: 'Status',
          cell: ({ row }) => (
            <span className="flex flex-wrap items-center gap-1.5">
              <OnlineStatus lastSeen={row.original.last_seen} />
              <ParkedCount n={Number(row.original.parked_count ?? 0)} />
            </span>
          ),
        }),
        col.accessor('config_count', { header: 'Catalog', cell: count('Catalog items') }),
        col.accessor('checks_count', { header: 'Checks', cell: count('Checks') }),
        col.accessor('config_scrapper_count', { header: 'Scrapers', cell: count('Scrapers') }),
        col.accessor('playbook_runs_count', { header: 'Playbook Runs', cell: count('Playbook runs') }),
        col.accessor('last_seen', {
          header: 'Last Seen',
          cell: (c) => <RelativeTime at={c.getValue()} fallback={<span className="text-gray-400">Never</span>} />,
        }),
        col.accessor('created_by', {
          header: 'Created By',
          enableSorting: false,
          cell: (c) => c.getValue()?.name ?? <span className="text-gray-400">—</span>,
        }),
        col.accessor('created_at', { header: 'Created', cell: (c) => <RelativeTime at={c.getValue()} /> }),
      ]),
    [],
  );

  const closeForm = () => update({ addAgent: null, id: null });

  return (
    <div className="flex h-full min-h-0 flex-col gap-3 p-4">
      <PageTitle documentTitle="Agents">
        <nav aria-label="Breadcrumb" className="flex items-center gap-1.5 text-sm">
          <span className="font-semibold text-gray-900">Agents</span>
        </nav>
        {canWrite && (
          <Button
            variant="primary"
            size="icon"
            aria-label="Add Agent"
            onClick={() => update({ addAgent: 'true', id: null }, { push: true })}
          >
            <Plus size={16} aria-hidden />
          </Button>
        )}
      </PageTitle>
      {agents.error && !agents.data ? (
        <ErrorAlert error={agents.error} />
      ) : (
        <DataTable
          label="Agents"
          columns={columns}
          data={agents.data?.rows ?? []}
          getRowId={(a) => a.id}
          isLoading={agents.isPending}
          manualSorting
          sorting={sorting}
          onSortingChange={setSorting}
          pageIndex={pageIndex}
          pageSize={size}
          pageSizes={AGENT_PAGE_SIZES}
          rowCount={agents.data?.total ?? 0}
          onPaginationChange={setPagination}
          onRowClick={(a) => {
            // the local agent is this server: nothing to edit
            if (a.id !== LOCAL_AGENT_ID) update({ id: a.id, addAgent: null }, { push: true });
          }}
        />
      )}
      {addAgent === 'true' && canWrite && (
        <CreateAgentModal
          onClose={closeForm}
          onCreated={(agent, form) => {
            closeForm();
            setCreated({ agent, form });
          }}
        />
      )}
      {editId && editing.data && !deleting && (
        <EditAgentModal
          key={editing.data.id}
          agent={editing.data}
          canWrite={canWrite}
          onClose={closeForm}
          onDelete={() => setDeleting(editing.data)}
        />
      )}
      {created && <InstallDialog agent={created.agent} form={created.form} onClose={() => setCreated(null)} />}
      {deleting && (
        <DeleteAgentFlow
          agent={deleting}
          onDone={(deleted) => {
            setDeleting(null);
            if (deleted) closeForm();
          }}
        />
      )}
    </div>
  );
}
