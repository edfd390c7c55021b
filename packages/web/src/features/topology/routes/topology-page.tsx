import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import type { TopologyComponent } from '@watchdeck/core';
import { ErrorAlert } from '#web/components/ui/error-alert.tsx';
import { PageTitle } from '#web/components/ui/page-title.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { useSession } from '#web/lib/session.tsx';
import { useLocalStorage } from '#web/lib/storage.ts';
import { cardsFor, useTopology } from '../api/topology.ts';
import { TopologyBreadcrumb } from '../components/breadcrumb.tsx';
import { CardGrid } from '../components/card-grid.tsx';
import { FilterBar } from '../components/filter-bar.tsx';
import { PreferencesMenu } from '../components/preferences.tsx';
import { CARD_WIDTH_MAX, CARD_WIDTH_MIN, DEFAULT_CARD_WIDTH, EMPTY_MESSAGE, STORAGE_KEYS } from '../lib/constants.ts';
import { drillDownPath } from '../lib/links.ts';
import { useTopologySort } from '../lib/sort.ts';

// The sidebar and the dialogs (forms, the playbook runner, the incident linker) load after the
// cards: the first cards of a large topology need none of their code.
const ComponentSidebar = lazy(() =>
  import('../components/component-sidebar.tsx').then((m) => ({ default: m.ComponentSidebar })),
);
const SnapshotModal = lazy(() =>
  import('../components/snapshot-modal.tsx').then((m) => ({ default: m.SnapshotModal })),
);
const LinkCatalogModal = lazy(() =>
  import('../components/link-catalog-modal.tsx').then((m) => ({ default: m.LinkCatalogModal })),
);
const LinkToIncidentDialog = lazy(() =>
  import('#web/components/link-to-incident/index.ts').then((m) => ({ default: m.LinkToIncidentDialog })),
);

const clampWidth = (w: unknown) =>
  typeof w === 'number' && Number.isFinite(w)
    ? Math.min(CARD_WIDTH_MAX, Math.max(CARD_WIDTH_MIN, w))
    : DEFAULT_CARD_WIDTH;

/**
 * The topology dashboard (seed 002 section 2.7), /topology and /topology/{id}: the breadcrumb,
 * filters, sort and preferences, the cards (a component's children, or the roots), and on
 * /topology/{id} the component's sidebar.
 */
export function TopologyPage() {
  const { id } = useParams();
  const [params] = useSearchParams();
  const session = useSession();
  const sort = useTopologySort();
  const [showHidden, setShowHidden] = useLocalStorage<boolean>(STORAGE_KEYS.showHidden, false);
  const [storedWidth, setCardWidth] = useLocalStorage<number>(STORAGE_KEYS.cardWidth, DEFAULT_CARD_WIDTH);
  const cardWidth = clampWidth(storedWidth);
  const query = {
    id,
    status: params.get('status') ?? undefined,
    type: params.get('type') ?? undefined,
    team: params.get('team') ?? undefined,
    labels: params.get('labels') ?? undefined,
    agent_id: params.get('agent_id') ?? undefined,
    sortBy: sort.sortBy,
    sortOrder: sort.sortOrder,
    hidden: showHidden,
  };
  const topology = useTopology(query, { firstPage: true });
  const main = useMemo(() => cardsFor(topology.data, id), [topology.data, id]);
  // The whole component (no filters) when the filtered answer leaves it out or has no children:
  // the sidebar still shows it, and a component without any children shows itself as its card
  // (filters that match none of its children show the empty state instead).
  const needWhole = !!id && !!topology.data && (!main.self || main.cards.length === 0);
  const whole = useTopology({ id, hidden: true }, { enabled: needWhole });
  const wholeCards = useMemo(() => cardsFor(whole.data, id), [whole.data, id]);
  const selected = main.self ?? wholeCards.self;
  const isLeaf = needWhole && !!whole.data && wholeCards.cards.length === 0;
  const cards = useMemo(
    () => (main.cards.length ? main.cards : isLeaf && selected ? [selected] : []),
    [main.cards, isLeaf, selected],
  );
  const settled = !!topology.data && (!needWhole || !!whole.data || !!whole.error);

  const headlineProperties = useMemo(() => {
    const names = new Set<string>();
    for (const c of cards) for (const p of c.properties ?? []) if (p.headline) names.add(p.name);
    return [...names].sort();
  }, [cards]);

  const [snapshotOf, setSnapshotOf] = useState<TopologyComponent>();
  const [linkOf, setLinkOf] = useState<TopologyComponent>();
  const [incidentOf, setIncidentOf] = useState<TopologyComponent>();
  const canLinkIncident = session.isFeatureEnabled('incidents') && session.can('incident', 'write');
  const actions = useMemo(
    () => ({
      onSnapshot: setSnapshotOf,
      onLinkCatalog: setLinkOf,
      onLinkIncident: canLinkIncident ? setIncidentOf : undefined,
    }),
    [canLinkIncident],
  );
  const linkFor = useCallback((c: TopologyComponent) => drillDownPath(c.id, params, id), [params, id]);

  return (
    <div className="flex h-full min-h-0">
      <PageTitle documentTitle={selected ? `${selected.title || selected.name} · Topology` : 'Topology'}>
        <TopologyBreadcrumb id={id} />
      </PageTitle>
      <div className="min-w-0 flex-1 overflow-auto p-4">
        <div className="mb-4 flex flex-wrap items-center gap-2">
          <FilterBar
            types={topology.data?.types ?? []}
            teams={topology.data?.teams ?? []}
            headlineProperties={headlineProperties}
            sort={sort}
          >
            <PreferencesMenu
              showHidden={showHidden}
              onShowHiddenChange={setShowHidden}
              cardWidth={cardWidth}
              onCardWidthChange={setCardWidth}
            />
          </FilterBar>
          {topology.isFetching && !topology.isPending && <Spinner />}
        </div>
        {topology.isPending && (
          <div className="flex items-center gap-2 text-sm text-gray-500" role="status">
            <Spinner /> Loading components…
          </div>
        )}
        {topology.error && <ErrorAlert error={topology.error} />}
        {settled && !cards.length && (
          <p className="py-12 text-center text-sm text-gray-500" data-testid="topology-empty">
            {EMPTY_MESSAGE}
          </p>
        )}
        {cards.length > 0 && (
          <CardGrid cards={cards} width={cardWidth} linkFor={linkFor} actions={actions} selectedId={id} />
        )}
      </div>
      {selected && (
        <div className="flex w-[340px] shrink-0 xl:w-[420px]">
          <Suspense
            fallback={
              <div className="flex w-full justify-center border-l border-gray-200 bg-white p-6" role="status">
                <Spinner />
              </div>
            }
          >
            <ComponentSidebar
              key={selected.id}
              component={selected}
              onSnapshot={() => setSnapshotOf(selected)}
              onLinkCatalog={() => setLinkOf(selected)}
            />
          </Suspense>
        </div>
      )}
      <Suspense fallback={null}>
        {snapshotOf && <SnapshotModal component={snapshotOf} onClose={() => setSnapshotOf(undefined)} />}
        {linkOf && <LinkCatalogModal component={linkOf} onClose={() => setLinkOf(undefined)} />}
        {incidentOf && (
          <LinkToIncidentDialog
            open
            onOpenChange={(o) => !o && setIncidentOf(undefined)}
            title="Link to Incident"
            target={{ type: 'topology', component_id: incidentOf.id, evidence: { componentName: incidentOf.name } }}
            defaultDescription={`${incidentOf.type ?? 'Component'} ${incidentOf.name}`}
          />
        )}
      </Suspense>
    </div>
  );
}
