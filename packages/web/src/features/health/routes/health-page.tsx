import { lazy, Suspense, useMemo, useState, type ReactNode } from 'react';
import { Plus } from 'lucide-react';
import { PageTitle } from '#web/components/ui/page-title.tsx';
import { AccessGuard } from '#web/components/auth/index.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Modal } from '#web/components/ui/modal.tsx';
import { errorMessage } from '#web/lib/http.ts';
import { useLocalStorage } from '#web/lib/storage.ts';
import { useChecksSummary } from '../api/summary.ts';
import { useAgentNames } from '../api/agents.ts';
import type { CheckSummary } from '../api/types.ts';
import { labelKeys, labelOptions, labelsFilterParam, matchesLabels, matchesQuery } from '../lib/filters.ts';
import { ALL_TAB, groupByChoices, tabByChoices, tabValue, tabsFor } from '../lib/grouping.ts';
import { DEFAULT_REFRESH, REFRESH_STORAGE_KEY, refreshIntervalMs } from '../lib/time-ranges.ts';
import { useHealthParams } from '../lib/use-health-params.ts';
import { FilterPanel } from '../components/filter-panel.tsx';
import { HealthTabs, Toolbar } from '../components/toolbar.tsx';
import { PivotControls } from '../components/pivot-controls.tsx';
import { ChecksTable } from '../components/checks-table.tsx';
import { ChecksCards } from '../components/checks-cards.tsx';
import { PivotTable } from '../components/pivot-table.tsx';
import { PassingCounter } from '../components/passing-counter.tsx';
import { RefreshSelect } from '../components/refresh-select.tsx';
import { TimeRangeSelect } from '../components/time-range-select.tsx';
import { SummaryProgress } from '../components/summary-progress.tsx';

// The drawer brings the chart library and the code editor: loaded when a check is opened, so the
// dashboard's first rows don't wait for them.
const CheckDrawer = lazy(() =>
  import('../components/check-drawer/check-drawer.tsx').then((m) => ({ default: m.CheckDrawer })),
);

export interface HealthPageProps {
  /**
   * The canary spec form for the add-check dialog. The settings area owns it, and features do
   * not import each other, so app/ composes it in (see app/health-route.tsx).
   */
  canaryForm?: (props: { onSaved: () => void }) => ReactNode;
  /** Embedded mode hides Playbooks and create-evidence in the drawer. */
  embedded?: boolean;
}

/** The health dashboard (/health), seed 000 "Health dashboard". */
export function HealthPage({ canaryForm, embedded }: HealthPageProps) {
  const [p, set] = useHealthParams();
  const [refresh, setRefresh] = useLocalStorage<string>(REFRESH_STORAGE_KEY, DEFAULT_REFRESH);
  const [adding, setAdding] = useState(false);
  const summary = useChecksSummary(
    { timeRange: p.timeRange, labels: labelsFilterParam(p.labels) },
    refreshIntervalMs(refresh, p.timeRange),
  );
  const agentIds = useMemo(
    () => [...new Set((summary.data ?? []).filter((c) => !c.agent?.name && c.agent_id).map((c) => c.agent_id!))],
    [summary.data],
  );
  const agents = useAgentNames(agentIds);
  // The feed names agents by id; the badge and the Agent tabs want their names.
  const all = useMemo(() => {
    const names = agents.data;
    if (!summary.data || !names) return summary.data;
    return summary.data.map((c) =>
      !c.agent?.name && c.agent_id && names[c.agent_id]
        ? { ...c, agent: { id: c.agent_id, name: names[c.agent_id] } }
        : c,
    );
  }, [summary.data, agents.data]);

  const view = useMemo(() => {
    const checks = all ?? [];
    const labelOpts = labelOptions(checks);
    const keys = labelKeys(checks);
    const matched = checks.filter((c) => matchesQuery(c, p.query) && matchesLabels(c, p.labels));
    const tabs = tabsFor(matched, p.tabBy);
    const tab = tabs.includes(p.tab) ? p.tab : ALL_TAB;
    const visible = (c: CheckSummary) => !p.hidePassing || c.status !== 'healthy';
    const counts: Record<string, number> = { [ALL_TAB]: 0 };
    for (const c of matched) {
      if (!visible(c)) continue;
      counts[ALL_TAB]++;
      const t = tabValue(c, p.tabBy);
      counts[t] = (counts[t] ?? 0) + 1;
    }
    const inTab = tab === ALL_TAB ? matched : matched.filter((c) => tabValue(c, p.tabBy) === tab);
    const passing = inTab.filter((c) => c.status === 'healthy').length;
    return {
      labelOpts,
      keys,
      tabs,
      tab,
      counts,
      passing,
      failing: inTab.length - passing,
      shown: inTab.filter(visible),
    };
  }, [all, p.query, p.labels, p.tabBy, p.tab, p.hidePassing]);

  const listed = p.checkId ? all?.find((c) => c.id === p.checkId) : undefined;
  const open = (c: CheckSummary) => set({ checkId: c.id }, { push: true });
  const pivoting = p.layout === 'table' && p.pivotBy === 'labels' && !!p.pivotLabel;

  return (
    // The filters stand beside the checks from 1280 px; narrower, above them, so the table keeps
    // the width its columns need (at 1024 px beside it, names were squeezed out).
    <div className="flex min-h-full flex-col gap-4 p-4 lg:p-6 xl:flex-row" data-testid="health-page">
      <PageTitle documentTitle="Health">
        {/* narrow windows: the controls wrap onto more lines of the top bar rather than
            squeezing the selects to their icons */}
        <div
          className="flex min-w-0 flex-1 flex-wrap items-center gap-2 [&>*]:shrink-0"
          data-testid="health-header-controls"
        >
          <h1 className="mr-1 text-sm font-semibold text-gray-900">Health</h1>
          <AccessGuard resource="canaries" action="write">
            <Button variant="primary" onClick={() => setAdding(true)} aria-label="Add check">
              <Plus size={15} aria-hidden /> Add Check
            </Button>
          </AccessGuard>
          <PassingCounter passing={view.passing} failing={view.failing} />
          <RefreshSelect value={refresh} onChange={setRefresh} timeRange={p.timeRange} />
          <TimeRangeSelect value={p.timeRange} onChange={(timeRange) => set({ timeRange })} />
        </div>
      </PageTitle>
      <FilterPanel
        hidePassing={p.hidePassing}
        onHidePassingChange={(hidePassing) => set({ hidePassing })}
        labelOptions={view.labelOpts}
        labels={p.labels}
        onLabelsChange={(labels) => set({ labels })}
      />
      <div className="flex min-w-0 flex-1 flex-col gap-3">
        <Toolbar
          query={p.query}
          onQueryChange={(query) => set({ query })}
          groupBy={p.groupBy}
          groupChoices={groupByChoices(view.keys)}
          onGroupByChange={(groupBy) => set({ groupBy })}
          tabBy={p.tabBy}
          tabChoices={tabByChoices(view.keys)}
          onTabByChange={(tabBy) => set({ tabBy, tab: ALL_TAB })}
          layout={p.layout}
          onLayoutChange={(layout) => set({ layout })}
        />
        {p.layout === 'table' && (
          <PivotControls
            pivotBy={p.pivotBy}
            pivotLabel={p.pivotLabel}
            cellType={p.pivotCellType}
            labelKeys={view.keys}
            onChange={(changes) => set(changes)}
          />
        )}
        <HealthTabs tabs={view.tabs} active={view.tab} counts={view.counts} onChange={(tab) => set({ tab })} />
        {summary.error && (
          <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">
            {errorMessage(summary.error)}
          </p>
        )}
        {summary.data === undefined && !summary.error ? (
          <SummaryProgress />
        ) : pivoting ? (
          <PivotTable checks={view.shown} pivotLabel={p.pivotLabel!} cellType={p.pivotCellType} onOpen={open} />
        ) : p.layout === 'card' ? (
          <ChecksCards checks={view.shown} groupBy={p.groupBy} selectedId={p.checkId} onOpen={open} />
        ) : (
          <ChecksTable
            checks={view.shown}
            groupBy={p.groupBy}
            isLoading={summary.isFetching}
            sortBy={p.sortBy}
            sortDesc={p.sortDesc}
            onSortChange={(sortBy, sortDesc) => set({ sortBy, sortDesc })}
            selectedId={p.checkId}
            onOpen={open}
          />
        )}
      </div>
      {p.checkId && (
        <Suspense fallback={null}>
          <CheckDrawer
            checkId={p.checkId}
            listed={listed}
            onClose={() => set({ checkId: undefined }, { push: true })}
            embedded={embedded}
          />
        </Suspense>
      )}
      <Modal open={adding} onOpenChange={setAdding} title="Add Health Check" size="large">
        {canaryForm ? (
          canaryForm({
            onSaved: () => {
              setAdding(false);
              void summary.refetch();
            },
          })
        ) : (
          <p className="text-sm text-gray-500">The canary form is not available.</p>
        )}
      </Modal>
    </div>
  );
}
