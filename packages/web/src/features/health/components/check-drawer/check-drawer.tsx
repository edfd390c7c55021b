import { useId, useState } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import * as Tabs from '@radix-ui/react-tabs';
import { X } from 'lucide-react';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { cn } from '#web/lib/cn.ts';
import { useMediaQuery } from '#web/lib/storage.ts';
import { useCheckSummary } from '#web/features/health/api/summary.ts';
import { useCheckGraph } from '#web/features/health/api/graph.ts';
import { useCheckDetails } from '#web/features/health/api/check-details.ts';
import { useCheckRelationships } from '#web/features/health/api/check-relationships.ts';
import type { CheckSummary } from '#web/features/health/api/types.ts';
import { defaultCheckTimeRange, type HealthTimeRange } from '#web/features/health/lib/time-ranges.ts';
import { CheckHeader } from './check-header.tsx';
import { CheckStats } from './check-stats.tsx';
import { HealthOverviewChart } from './health-overview-chart.tsx';
import { CheckHistory } from './check-history.tsx';
import { CheckSpec } from './check-spec.tsx';
import { CheckRelationships } from './check-relationships.tsx';
import { CheckFooter } from './check-footer.tsx';
import { ignoreToastInteraction } from '#web/lib/toast.ts';

/** Below this height the chart moves from above the tabs into a Graph tab of its own. */
const SHORT_SCREEN_QUERY = '(max-height: 760px)';

type DrawerTab = 'history' | 'graph' | 'spec' | 'relationships';

const tabClass =
  '-mb-px border-b-2 border-transparent px-3 py-1.5 text-sm font-medium text-gray-500 hover:text-gray-800 data-[state=active]:border-blue-600 data-[state=active]:text-blue-700';

function CloseButton() {
  return (
    <Dialog.Close
      className="-mr-2 rounded-md p-1.5 text-gray-400 hover:bg-gray-100 hover:text-gray-600 focus-visible:outline-2 focus-visible:outline-blue-600"
      aria-label="Close"
    >
      <X size={18} aria-hidden />
    </Dialog.Close>
  );
}

function DrawerBody({
  checkId,
  listed,
  embedded,
}: {
  checkId: string;
  listed: CheckSummary | undefined;
  embedded?: boolean;
}) {
  const titleId = useId();
  const short = useMediaQuery(SHORT_SCREEN_QUERY);
  const [chosenRange, setChosenRange] = useState<HealthTimeRange | undefined>(undefined);
  // Until the user picks one, the range follows the age of the last run (seed 000 section 9).
  const initial = useCheckSummary(chosenRange || listed ? undefined : checkId, '1h');
  const base = listed ?? initial.data ?? undefined;
  const timeRange = chosenRange ?? defaultCheckTimeRange(base?.last_runtime);
  const stats = useCheckSummary(base ? checkId : undefined, timeRange);
  const graph = useCheckGraph(checkId, timeRange);
  const details = useCheckDetails(checkId);
  const relationships = useCheckRelationships(checkId);
  const [tab, setTab] = useState<DrawerTab>('history');
  const activeTab = tab === 'graph' && !short ? 'history' : tab;

  // The range's own figures when they are in; the listed row meanwhile.
  const check = stats.data ?? base;
  if (!check) {
    // loading, or an id that names no check: the close button is there all the same
    return (
      <>
        <div className="flex items-start justify-end border-b border-gray-200 px-6 py-4">
          <Dialog.Title className="sr-only">Check</Dialog.Title>
          <CloseButton />
        </div>
        <div className="flex flex-1 items-center justify-center gap-2 text-sm text-gray-500">
          {initial.isError || (initial.isSuccess && !initial.data) ? 'Check not found' : <Spinner />}
        </div>
      </>
    );
  }
  const chart = <HealthOverviewChart points={graph.data} isLoading={graph.isLoading} error={graph.error} />;
  return (
    <>
      <div className="flex items-start justify-between gap-4 border-b border-gray-200 px-6 py-4">
        <Dialog.Title asChild>
          <div className="min-w-0 flex-1">
            <CheckHeader check={check} titleId={titleId} />
          </div>
        </Dialog.Title>
        <CloseButton />
      </div>
      <div className="min-h-0 flex-1 space-y-5 overflow-auto px-6 py-4">
        <CheckStats check={check} timeRange={timeRange} onTimeRangeChange={setChosenRange} />
        {!short && (
          <section aria-label="Health Overview">
            <h3 className="mb-1 text-sm font-semibold text-gray-700">Health Overview</h3>
            {chart}
          </section>
        )}
        <Tabs.Root value={activeTab} onValueChange={(v) => setTab(v as DrawerTab)}>
          <Tabs.List className="mb-3 flex gap-1 border-b border-gray-200" aria-label="Check details">
            <Tabs.Trigger value="history" className={tabClass}>
              History
            </Tabs.Trigger>
            {short && (
              <Tabs.Trigger value="graph" className={tabClass}>
                Graph
              </Tabs.Trigger>
            )}
            <Tabs.Trigger value="spec" className={tabClass}>
              Spec
            </Tabs.Trigger>
            <Tabs.Trigger value="relationships" className={tabClass}>
              Relationships
              <span
                className="ml-1.5 rounded-full bg-gray-100 px-1.5 text-xs text-gray-600"
                data-testid="relationships-count"
              >
                {relationships.data?.length ?? 0}
              </span>
            </Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="history">
            <CheckHistory checkId={checkId} timeRange={timeRange} />
          </Tabs.Content>
          {short && <Tabs.Content value="graph">{chart}</Tabs.Content>}
          <Tabs.Content value="spec">
            <CheckSpec details={details.data} isLoading={details.isLoading} error={details.error} />
          </Tabs.Content>
          <Tabs.Content value="relationships">
            <CheckRelationships rows={relationships.data ?? []} isLoading={relationships.isLoading} />
          </Tabs.Content>
        </Tabs.Root>
      </div>
      <div className="border-t border-gray-200 bg-gray-50 px-6 py-3">
        <CheckFooter check={check} embedded={embedded} />
      </div>
    </>
  );
}

/**
 * The check detail drawer (seed 000 "Check detail drawer (full size)"): a sheet from the right
 * over the dashboard, opened by the `checkId` parameter. Escape or the close button clears it.
 */
export function CheckDrawer({
  checkId,
  listed,
  onClose,
  embedded,
}: {
  checkId: string | undefined;
  listed: CheckSummary | undefined;
  onClose: () => void;
  embedded?: boolean;
}) {
  return (
    <Dialog.Root open={!!checkId} onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        {/* below the shared Modal (z-40/50), so a dialog opened from the drawer dims it */}
        <Dialog.Overlay className="fixed inset-0 z-30 bg-gray-900/30" />
        <Dialog.Content
          aria-describedby={undefined}
          onInteractOutside={ignoreToastInteraction}
          className={cn(
            'fixed inset-y-0 right-0 z-40 flex w-[min(72rem,100vw)] flex-col bg-white shadow-2xl focus:outline-none',
          )}
          data-testid="check-drawer"
        >
          {checkId && <DrawerBody key={checkId} checkId={checkId} listed={listed} embedded={embedded} />}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
