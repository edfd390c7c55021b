import { useState, type ReactNode } from 'react';
import { Link, NavLink, useParams } from 'react-router';
import { PanelRight } from 'lucide-react';
import { DataTable, dataTableColumns } from '#web/components/data-table/index.ts';
import { AttachAsEvidenceButton } from '#web/components/link-to-incident/index.ts';
import { PlaybooksDropdown } from '#web/components/playbook-run/index.ts';
import { Button } from '#web/components/ui/button.tsx';
import { ErrorAlert } from '#web/components/ui/error-alert.tsx';
import { PageTitle } from '#web/components/ui/page-title.tsx';
import { RelativeTime } from '#web/components/ui/relative-time.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { Tooltip } from '#web/components/ui/tooltip.tsx';
import { formatDateTime } from '#web/lib/format.ts';
import { useMediaQuery } from '#web/lib/storage.ts';
import { cn } from '#web/lib/cn.ts';
import { useConfigDetail } from '../api/config-detail.ts';
import {
  useConfigChecks,
  useConfigPlaybookRuns,
  type ConfigCheck,
  type ConfigPlaybookRun,
} from '../api/config-tabs.ts';
import type { ConfigDetail } from '../api/types.ts';
import { MESSAGES } from '../lib/constants.ts';
import { typeLabel } from '../lib/format.ts';
import { ChangesView } from '../components/changes-view.tsx';
import { ConfigBody } from '../components/config-body.tsx';
import { ConfigSidebar } from '../components/config-sidebar.tsx';
import { InsightsView } from '../components/insights-view.tsx';
import { RelationshipsView } from '../components/relationships-view.tsx';

/** The config's tabs in the seed's order, each with the summary count that badges it. */
const TABS = [
  { tab: '', label: 'Config', count: undefined },
  { tab: 'changes', label: 'Changes', count: 'changes' },
  { tab: 'insights', label: 'Insights', count: 'analysis' },
  { tab: 'relationships', label: 'Relationships', count: 'relationships' },
  { tab: 'playbooks', label: 'Playbooks', count: 'playbook_runs' },
  { tab: 'checks', label: 'Checks', count: 'checks' },
] as const;
const CONFIG_TABS: readonly string[] = TABS.filter((t) => t.tab).map((t) => t.tab);

const runCol = dataTableColumns<ConfigPlaybookRun>();
const checkCol = dataTableColumns<ConfigCheck>();

function PlaybooksTab({ configId }: { configId: string }) {
  const runs = useConfigPlaybookRuns(configId);
  if (runs.error) return <ErrorAlert error={runs.error} />;
  return (
    <DataTable
      label="Playbook runs"
      data={runs.data ?? []}
      isLoading={runs.isFetching}
      columns={[
        runCol.accessor((r) => r.playbooks?.title || r.playbooks?.name || '', {
          id: 'playbook',
          header: 'Playbook',
          cell: ({ row, getValue }) => (
            <Link to={`/playbooks/runs/${row.original.id}`} className="text-blue-700 hover:underline">
              {getValue() || row.original.id}
            </Link>
          ),
        }),
        runCol.accessor('status', { header: 'Status' }),
        runCol.accessor('start_time', { header: 'Started', cell: ({ getValue }) => <RelativeTime at={getValue()} /> }),
        runCol.accessor('end_time', { header: 'Ended', cell: ({ getValue }) => <RelativeTime at={getValue()} /> }),
      ]}
    />
  );
}

function ChecksTab({ configId }: { configId: string }) {
  const checks = useConfigChecks(configId);
  if (checks.error) return <ErrorAlert error={checks.error} />;
  return (
    <DataTable
      label="Checks"
      data={checks.data ?? []}
      isLoading={checks.isFetching}
      columns={[
        checkCol.accessor('name', {
          header: 'Name',
          cell: ({ row }) => (
            <Link to={`/health?checkId=${row.original.id}`} className="text-blue-700 hover:underline">
              {row.original.name}
            </Link>
          ),
        }),
        checkCol.accessor('type', { header: 'Type' }),
        checkCol.accessor('status', { header: 'Status' }),
        checkCol.accessor('canary_name', { header: 'Canary' }),
        checkCol.accessor('last_runtime', {
          header: 'Last Run',
          cell: ({ getValue }) => <RelativeTime at={getValue()} />,
        }),
      ]}
    />
  );
}

function TabContent({ tab, config }: { tab: string; config: ConfigDetail }) {
  switch (tab) {
    case 'changes':
      return <ChangesView configId={config.id} />;
    case 'insights':
      return <InsightsView configId={config.id} />;
    case 'relationships':
      return <RelationshipsView config={config} />;
    case 'playbooks':
      return <PlaybooksTab configId={config.id} />;
    case 'checks':
      return <ChecksTab configId={config.id} />;
    default:
      return <ConfigBody config={config.config} format={config.format} />;
  }
}

/**
 * /catalog/{id} and its tabs /catalog/{id}/{changes|insights|relationships|playbooks|checks}
 * (seed 002 section 2.3): breadcrumb of type and name with a red marker on a deleted config,
 * the six tabs with their counts, the right sidebar (a button shows it on small screens), the
 * Playbooks dropdown (write on playbook_runs; a run opens its page) and Link to Incident.
 */
export function ConfigDetailPage() {
  const { id = '', tab = '' } = useParams();
  const detail = useConfigDetail(id);
  const wide = useMediaQuery('(min-width: 1280px)');
  const [sidebarOpen, setSidebarOpen] = useState(false);
  const c = detail.data;

  let body: ReactNode;
  if (detail.isPending)
    body = (
      <div className="flex items-center gap-2 p-6 text-sm text-gray-500" role="status">
        <Spinner /> Loading…
      </div>
    );
  else if (detail.error) body = <ErrorAlert error={detail.error} />;
  else if (!c || (tab && !CONFIG_TABS.includes(tab)))
    body = <p className="p-6 text-center text-sm text-gray-500">{MESSAGES.notFound}</p>;
  else {
    const showSidebar = wide || sidebarOpen;
    body = (
      <div className="flex min-h-0 flex-1 gap-4">
        <div className="flex min-h-0 min-w-0 flex-1 flex-col gap-3">
          <div className="flex items-end justify-between gap-2 border-b border-gray-200">
            <nav aria-label="Config sections" className="flex min-w-0 gap-1 overflow-x-auto">
              {TABS.map((t) => {
                const count = t.count ? Number(c.summary?.[t.count] ?? 0) : undefined;
                return (
                  <NavLink
                    key={t.label}
                    to={t.tab ? `/catalog/${c.id}/${t.tab}` : `/catalog/${c.id}`}
                    end
                    className={({ isActive }) =>
                      cn(
                        '-mb-px inline-flex shrink-0 items-center gap-1.5 border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap',
                        isActive
                          ? 'border-blue-600 text-blue-700'
                          : 'border-transparent text-gray-500 hover:text-gray-800',
                      )
                    }
                  >
                    {t.label}
                    {count !== undefined && count > 0 && (
                      <span className="rounded-full bg-gray-100 px-1.5 text-xs text-gray-700" data-count={t.count}>
                        {count}
                      </span>
                    )}
                  </NavLink>
                );
              })}
            </nav>
            <div className="flex shrink-0 items-center gap-2 pb-1.5 whitespace-nowrap">
              <PlaybooksDropdown resource={{ config_id: c.id }} />
              <AttachAsEvidenceButton
                target={{ type: 'config', config_id: c.id, evidence: { configName: c.name } }}
                defaultDescription={`${c.type} ${c.name}`}
                title="Link to Incident"
              />
              {!wide && (
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={sidebarOpen ? 'Hide details' : 'Show details'}
                  aria-pressed={sidebarOpen}
                  onClick={() => setSidebarOpen((o) => !o)}
                >
                  <PanelRight size={16} aria-hidden />
                </Button>
              )}
            </div>
          </div>
          <TabContent tab={tab} config={c} />
        </div>
        {showSidebar && (
          <aside className="w-72 shrink-0 overflow-auto border-l border-gray-200 pl-4" aria-label="Config sidebar">
            <ConfigSidebar config={c} />
          </aside>
        )}
      </div>
    );
  }

  return (
    <div className="flex h-full min-h-0 flex-col gap-3 p-4">
      <PageTitle documentTitle={c ? `${c.name} · Catalog` : 'Catalog'}>
        <nav aria-label="Breadcrumb" className="flex min-w-0 items-center gap-1.5 text-sm">
          <Link to="/catalog" className="text-gray-600 hover:text-gray-900 hover:underline">
            Catalog
          </Link>
          {c && (
            <>
              <span className="text-gray-400">/</span>
              <Link
                to={`/catalog?configType=${encodeURIComponent(c.type)}`}
                className="text-gray-600 hover:text-gray-900 hover:underline"
                title={c.type}
              >
                {typeLabel(c.type)}
              </Link>
              <span className="text-gray-400">/</span>
              <span className="truncate font-semibold text-gray-900">{c.name}</span>
              {c.deleted_at && (
                <Tooltip content={`Deleted: ${formatDateTime(c.deleted_at)}`}>
                  <span
                    className="size-2.5 shrink-0 rounded-full bg-red-600"
                    role="img"
                    aria-label={`Deleted: ${formatDateTime(c.deleted_at)}`}
                    tabIndex={0}
                    data-deleted-marker
                  />
                </Tooltip>
              )}
            </>
          )}
        </nav>
      </PageTitle>
      {body}
    </div>
  );
}
