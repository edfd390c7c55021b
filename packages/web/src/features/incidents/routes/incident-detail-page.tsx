import { useMemo, useState, type ReactNode } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import * as Tabs from '@radix-ui/react-tabs';
import { ChevronDown, ChevronRight, Network, PanelRightClose, PanelRightOpen, Paperclip } from 'lucide-react';
import { Button } from '#web/components/ui/button.tsx';
import { FullPageLoader } from '#web/components/ui/full-page-state.tsx';
import { PageTitle } from '#web/components/ui/page-title.tsx';
import { RouteLink } from '#web/components/ui/route-link.tsx';
import { tabClass } from '#web/components/ui/tabs.ts';
import { cn } from '#web/lib/cn.ts';
import { formatRelative } from '#web/lib/format.ts';
import { useCan } from '#web/lib/session.tsx';
import { useLocalStorage } from '#web/lib/storage.ts';
import { useUpdateSearchParams } from '#web/lib/url-state.ts';
import { useComments } from '../api/use-comments.ts';
import { useIncident } from '../api/use-incident.ts';
import { useRefreshIncident } from '../api/use-refresh-incident.ts';
import { AddEvidenceWizard } from '../components/add-evidence-wizard.tsx';
import { SeverityBadge, StatusBadge, TypeLabel } from '../components/badges.tsx';
import { ChangelogSection } from '../components/changelog-section.tsx';
import { CommentsPanel } from '../components/comments-panel.tsx';
import { DefinitionOfDoneSection } from '../components/definition-of-done.tsx';
import { DetailsSection } from '../components/details-section.tsx';
import { HypothesisTree } from '../components/hypothesis-tree.tsx';
import { RespondersSection } from '../components/responders.tsx';
import { CloseReopenToggle, StatusDropdown } from '../components/status-control.tsx';
import { allEvidences, rootHypothesis } from '../lib/evidence.ts';
import { ErrorAlert } from '#web/components/ui/error-alert.tsx';

/** seed 001 section 8 */
const INCIDENT_NOT_FOUND = 'Incident not found';
const PANEL_KEY = 'incidents.sidePanelOpen';
const BADGE =
  'inline-flex items-center gap-1 rounded-full border border-gray-200 bg-white px-2 py-0.5 text-xs text-gray-700';

function PanelSection({
  title,
  children,
  defaultOpen = true,
}: {
  title: string;
  children: ReactNode;
  defaultOpen?: boolean;
}) {
  const [open, setOpen] = useState(defaultOpen);
  return (
    <section className="border-b border-gray-200 px-4 py-3" aria-label={title}>
      <button
        type="button"
        onClick={() => setOpen((o) => !o)}
        aria-expanded={open}
        className="flex w-full items-center gap-1 text-left text-sm font-semibold text-gray-900"
      >
        {open ? <ChevronDown size={15} aria-hidden /> : <ChevronRight size={15} aria-hidden />}
        {title}
      </button>
      {open && <div className="mt-2">{children}</div>}
    </section>
  );
}

/**
 * /incidents/{id} (seed 001 section 2): breadcrumb, component badges, the status controls, the
 * Comments and Action Plan tabs, and a collapsible side panel with Details (and responders),
 * Definition of done and Changelog. `comments=true` in the URL expands every hypothesis's comments.
 */
export function IncidentDetailPage() {
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const update = useUpdateSearchParams();
  const incident = useIncident(id);
  const comments = useComments(id);
  const refresh = useRefreshIncident(id);
  const canWrite = useCan('incident', 'write');
  const canWriteEvidence = useCan('evidences', 'write');
  const canComment = useCan('comments', 'write');
  const canRespond = useCan('responder', 'write');
  const [panelOpen, setPanelOpen] = useLocalStorage(PANEL_KEY, true);
  const [addingEvidence, setAddingEvidence] = useState(false);
  const tab = params.get('tab') === 'actions' ? 'actions' : 'comments';
  const expandComments = params.get('comments') === 'true';

  const data = incident.data;
  const evidences = useMemo(() => allEvidences(data?.hypotheses ?? []), [data]);
  const components = useMemo(() => {
    const seen = new Map<string, NonNullable<(typeof evidences)[number]['component']>>();
    for (const e of evidences) if (e.type === 'topology' && e.component) seen.set(e.component.id, e.component);
    return [...seen.values()];
  }, [evidences]);

  if (incident.isLoading) return <FullPageLoader />;
  if (incident.error) return <ErrorAlert error={incident.error} className="m-4" />;
  if (!data)
    return (
      <div className="flex h-full flex-col items-center justify-center gap-3 p-8 text-center">
        <PageTitle documentTitle={INCIDENT_NOT_FOUND}>
          <Link to="/incidents" className="text-sm text-gray-500 hover:text-gray-900">
            Incidents
          </Link>
        </PageTitle>
        <p className="text-lg font-medium text-gray-900">{INCIDENT_NOT_FOUND}</p>
        <Link to="/incidents" className="text-sm text-blue-700 hover:underline">
          Back to incidents
        </Link>
      </div>
    );

  const togglePanel = () => setPanelOpen(!panelOpen);

  return (
    <div className="flex h-full min-h-0">
      <PageTitle documentTitle={`${data.incident_id} ${data.title}`}>
        <nav aria-label="Breadcrumb" className="flex min-w-0 items-center gap-1.5 text-sm">
          <Link to="/incidents" className="text-gray-500 hover:text-gray-900">
            Incidents
          </Link>
          <span className="text-gray-400">/</span>
          <span className="truncate font-semibold text-gray-900">
            {data.incident_id} {data.title}
          </span>
        </nav>
      </PageTitle>

      <div className="min-w-0 flex-1 overflow-auto p-4">
        <header className="mb-4 space-y-2">
          {/* The title asks for 20rem before it shares its line: on a narrow main column the
              controls wrap below it rather than squeezing it into a one-word column. */}
          <div className="flex flex-wrap items-start gap-x-3 gap-y-2">
            <div className="min-w-0 flex-[1_1_20rem]">
              <h1 className="text-xl font-semibold break-words text-gray-900">{data.title}</h1>
              <div className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-gray-500">
                <span className="font-mono text-xs">{data.incident_id}</span>
                <StatusBadge status={data.status} />
                <SeverityBadge severity={data.severity} />
                <TypeLabel type={data.type} />
                <span className="whitespace-nowrap">opened {formatRelative(data.created_at)}</span>
              </div>
            </div>
            <div className="flex shrink-0 items-center gap-2">
              <StatusDropdown
                incidentId={data.id}
                status={data.status}
                evidences={evidences}
                disabled={!canWrite}
                onSaved={refresh}
              />
              {canWrite && <CloseReopenToggle incidentId={data.id} status={data.status} onSaved={refresh} />}
              <Button
                variant="ghost"
                size="icon"
                aria-label={panelOpen ? 'Hide side panel' : 'Show side panel'}
                onClick={togglePanel}
              >
                {panelOpen ? <PanelRightClose size={16} aria-hidden /> : <PanelRightOpen size={16} aria-hidden />}
              </Button>
            </div>
          </div>
          {data.description && (
            <p className="max-w-3xl text-sm whitespace-pre-wrap text-gray-700">{data.description}</p>
          )}
          {components.length > 0 && (
            <div className="flex flex-wrap gap-1.5" aria-label="Components">
              {/* a link once the topology screen of a component exists; its name until then */}
              {components.map((c) => (
                <RouteLink
                  key={c.id}
                  to={`/topology/${c.id}`}
                  className={cn(BADGE, 'hover:bg-gray-50')}
                  textClassName={BADGE}
                >
                  <Network
                    size={11}
                    className={
                      c.status === 'healthy'
                        ? 'text-green-600'
                        : c.status === 'unhealthy'
                          ? 'text-red-600'
                          : 'text-gray-400'
                    }
                    aria-hidden
                  />
                  {c.name}
                </RouteLink>
              ))}
            </div>
          )}
        </header>

        <Tabs.Root value={tab} onValueChange={(v) => update({ tab: v === 'actions' ? 'actions' : null })}>
          <div className="mb-3 flex flex-wrap items-center gap-x-3 border-b border-gray-200">
            <Tabs.List className="flex gap-1 whitespace-nowrap" aria-label="Incident">
              <Tabs.Trigger value="comments" className={tabClass}>
                Comments {comments.data ? <span className="text-xs text-gray-400">{comments.data.length}</span> : null}
              </Tabs.Trigger>
              <Tabs.Trigger value="actions" className={tabClass}>
                Action Plan
              </Tabs.Trigger>
            </Tabs.List>
            {tab === 'actions' && (
              <div className="ml-auto flex items-center gap-3 pb-1 whitespace-nowrap">
                <label className="flex items-center gap-1.5 text-sm text-gray-600">
                  <input
                    type="checkbox"
                    checked={expandComments}
                    onChange={(e) => update({ comments: e.target.checked ? 'true' : null })}
                  />
                  Expand All
                </label>
                {canWriteEvidence && data.hypotheses.length > 0 && (
                  <Button size="sm" onClick={() => setAddingEvidence(true)}>
                    <Paperclip size={13} aria-hidden /> Add Evidence
                  </Button>
                )}
              </div>
            )}
          </div>
          <Tabs.Content value="comments">
            <CommentsPanel
              incidentId={data.id}
              comments={comments.data ?? []}
              hypotheses={data.hypotheses}
              defaultHypothesisId={rootHypothesis(data.hypotheses)?.id}
              canWrite={canComment}
              onChanged={refresh}
            />
          </Tabs.Content>
          <Tabs.Content value="actions">
            <HypothesisTree
              incidentId={data.id}
              hypotheses={data.hypotheses}
              comments={comments.data ?? []}
              expandComments={expandComments}
              canWrite={canWrite}
              canWriteEvidence={canWriteEvidence}
              onChanged={refresh}
            />
          </Tabs.Content>
        </Tabs.Root>
      </div>

      {/* narrower below 1280 px so the main column keeps room for the action plan */}
      <aside
        aria-label="Incident side panel"
        className={cn('w-80 shrink-0 overflow-auto border-l border-gray-200 bg-white xl:w-96', !panelOpen && 'hidden')}
      >
        <PanelSection title="Details">
          <DetailsSection
            incident={data}
            canWrite={canWrite}
            onChanged={refresh}
            responders={<RespondersSection incident={data} canWrite={canRespond} onChanged={refresh} />}
          />
        </PanelSection>
        <PanelSection title="Definition of done">
          <DefinitionOfDoneSection hypotheses={data.hypotheses} canWrite={canWriteEvidence} onChanged={refresh} />
        </PanelSection>
        <PanelSection title="Changelog">
          <ChangelogSection incidentId={data.id} />
        </PanelSection>
      </aside>
      {addingEvidence && (
        <AddEvidenceWizard
          incidentId={data.id}
          hypotheses={data.hypotheses}
          onClose={() => setAddingEvidence(false)}
          onAdded={refresh}
        />
      )}
    </div>
  );
}
