import { useId, useState } from 'react';
import { Download, Link2, Unlink } from 'lucide-react';
import {
  INCIDENT_STATUSES,
  INCIDENT_STATUS_LABELS,
  INCIDENT_TYPES,
  INCIDENT_TYPE_LABELS,
  type TopologyComponent,
} from '@watchdeck/core';
import { AttachAsEvidenceButton } from '#web/components/link-to-incident/index.ts';
import { PlaybooksDropdown } from '#web/components/playbook-run/index.ts';
import { AccessGuard, FeatureGuard } from '#web/components/auth/index.ts';
import { Button } from '#web/components/ui/button.tsx';
import { RelativeTime } from '#web/components/ui/relative-time.tsx';
import { RouteLink } from '#web/components/ui/route-link.tsx';
import { ViewLogsLink } from '#web/components/view-logs/index.tsx';
import { toastError, toastSuccess } from '#web/lib/toast.ts';
import {
  useComponentChanges,
  useComponentChecks,
  useComponentConfigs,
  useComponentIncidents,
  useComponentInsights,
  useComponentRuns,
  useComponentTeams,
} from '../api/panels.ts';
import { useUnlinkConfig } from '../api/config-links.ts';
import { PROPERTY_LIST_SIZE, SIDE_LIST_SIZE, SIDE_LIST_SIZE_NO_PROPERTIES, UNLINK_SUCCESS } from '../lib/constants.ts';
import { isVisibleProperty } from '../lib/format.ts';
import { checkPath, configPath, incidentPath, runPath, teamPath, topologySettingsPath } from '../lib/links.ts';
import { ComponentIcon } from './component-icon.tsx';
import { Panel, PanelList } from './panel.tsx';
import { PropertyValue } from './property-value.tsx';
import { StatusDot } from './status.tsx';

const rowClass = 'flex min-w-0 items-center gap-2 text-sm';
const linkClass = 'min-w-0 truncate text-gray-800 hover:text-blue-700 hover:underline';

function Details({
  c,
  onSnapshot,
  onLinkCatalog,
}: {
  c: TopologyComponent;
  onSnapshot: () => void;
  onLinkCatalog: () => void;
}) {
  const [allProps, setAllProps] = useState(false);
  const props = (c.properties ?? []).filter(isVisibleProperty);
  const shownProps = allProps ? props : props.slice(0, PROPERTY_LIST_SIZE);
  const labels = Object.entries(c.labels ?? {});
  return (
    <Panel title="Details">
      <div className="space-y-3">
        <div className="flex flex-wrap gap-2">
          <Button onClick={onSnapshot}>
            <Download size={14} aria-hidden /> Snapshot
          </Button>
          <AccessGuard resource="topologies" action="write">
            <Button onClick={onLinkCatalog}>
              <Link2 size={14} aria-hidden /> Link to Catalog
            </Button>
          </AccessGuard>
          <AttachAsEvidenceButton
            label="Link to Incident"
            title="Link to Incident"
            target={{ type: 'topology', component_id: c.id, evidence: { componentName: c.name } }}
            defaultDescription={`${c.type ?? 'Component'} ${c.name}`}
          />
          <PlaybooksDropdown resource={{ component_id: c.id }} />
          {c.logs?.length > 0 && (
            <ViewLogsLink
              componentId={c.id}
              className="inline-flex h-8 items-center gap-1 rounded-md border border-gray-300 px-2 text-sm hover:bg-gray-50"
            />
          )}
        </div>
        <dl className="grid grid-cols-[7rem_1fr] gap-x-2 gap-y-1 text-sm">
          <dt className="text-gray-500">Name</dt>
          <dd className="min-w-0 truncate">{c.name}</dd>
          {c.type && (
            <>
              <dt className="text-gray-500">Type</dt>
              <dd>{c.type}</dd>
            </>
          )}
          <dt className="text-gray-500">Status</dt>
          <dd className="flex items-center gap-1.5">
            <StatusDot status={c.status} />
            {c.status}
            {c.status_reason && <span className="truncate text-gray-500">· {c.status_reason}</span>}
          </dd>
          {c.description && (
            <>
              <dt className="text-gray-500">Description</dt>
              <dd>{c.description}</dd>
            </>
          )}
          {c.topology_id && (
            <>
              <dt className="text-gray-500">Topology</dt>
              <dd>
                <RouteLink to={topologySettingsPath(c.topology_id)} className={linkClass}>
                  View spec
                </RouteLink>
              </dd>
            </>
          )}
          <dt className="text-gray-500">Created</dt>
          <dd>
            <RelativeTime at={c.created_at} />
          </dd>
          <dt className="text-gray-500">Updated</dt>
          <dd>
            <RelativeTime at={c.updated_at} />
          </dd>
          {labels.length > 0 && (
            <>
              <dt className="text-gray-500">Labels</dt>
              <dd className="flex flex-wrap gap-1">
                {labels.map(([k, v]) => (
                  <span key={k} className="rounded bg-gray-100 px-1.5 text-xs text-gray-700">
                    {k}={v}
                  </span>
                ))}
              </dd>
            </>
          )}
        </dl>
        {props.length > 0 && (
          <div data-testid="properties">
            <h4 className="mb-1 text-xs font-semibold text-gray-500 uppercase">Properties</h4>
            <dl className="grid grid-cols-[7rem_1fr] gap-x-2 gap-y-1 text-sm">
              {shownProps.map((p) => (
                <div key={p.name} className="contents">
                  <dt className="truncate text-gray-500">{p.name}</dt>
                  <dd className="min-w-0">
                    <PropertyValue property={p} />
                  </dd>
                </div>
              ))}
            </dl>
            {props.length > PROPERTY_LIST_SIZE && (
              <button
                type="button"
                onClick={() => setAllProps((a) => !a)}
                className="mt-1 text-xs font-medium text-blue-700 hover:underline"
              >
                {allProps ? 'show less' : 'show more'}
              </button>
            )}
          </div>
        )}
      </div>
    </Panel>
  );
}

function CatalogPanel({ id, size, onLink }: { id: string; size: number; onLink: () => void }) {
  const configs = useComponentConfigs(id);
  const unlink = useUnlinkConfig(id);
  return (
    <Panel
      title="Catalog"
      count={configs.data?.total}
      actions={
        <AccessGuard resource="topologies" action="write">
          <Button variant="ghost" size="icon" aria-label="Link to Catalog" onClick={onLink}>
            <Link2 size={14} aria-hidden />
          </Button>
        </AccessGuard>
      }
    >
      <PanelList
        query={configs}
        size={size}
        render={(c) => (
          <li key={`${c.id}/${c.selector_id}`} className={rowClass}>
            <StatusDot status={c.health ?? 'unknown'} />
            <RouteLink to={configPath(c.id)} className={linkClass}>
              {c.name}
            </RouteLink>
            <span className="ml-auto shrink-0 text-xs text-gray-500">{c.type}</span>
            {c.selector_id === 'manual' && (
              <AccessGuard resource="topologies" action="write">
                <button
                  type="button"
                  aria-label={`Unlink ${c.name}`}
                  className="rounded p-0.5 text-gray-400 hover:text-red-600"
                  onClick={() =>
                    unlink.mutate(c.id, { onSuccess: () => toastSuccess(UNLINK_SUCCESS), onError: toastError })
                  }
                >
                  <Unlink size={13} aria-hidden />
                </button>
              </AccessGuard>
            )}
          </li>
        )}
      />
    </Panel>
  );
}

function IncidentsPanel({ id, size }: { id: string; size: number }) {
  // seed 002 section 2.7: the filter defaults to status open and type all
  const [status, setStatus] = useState('open');
  const [type, setType] = useState('all');
  const statusId = useId();
  const typeId = useId();
  const incidents = useComponentIncidents(id, status, type, true);
  const selectClass = 'h-7 rounded border border-gray-300 bg-white px-1 text-xs';
  return (
    <Panel title="Incidents" count={incidents.data?.total}>
      <div className="mb-2 flex flex-wrap gap-2 text-xs">
        <label htmlFor={statusId} className="sr-only">
          Incident status
        </label>
        <select id={statusId} value={status} onChange={(e) => setStatus(e.target.value)} className={selectClass}>
          <option value="all">All statuses</option>
          {INCIDENT_STATUSES.map((s) => (
            <option key={s} value={s}>
              {INCIDENT_STATUS_LABELS[s]}
            </option>
          ))}
        </select>
        <label htmlFor={typeId} className="sr-only">
          Incident type
        </label>
        <select id={typeId} value={type} onChange={(e) => setType(e.target.value)} className={selectClass}>
          <option value="all">All types</option>
          {INCIDENT_TYPES.map((t) => (
            <option key={t} value={t}>
              {INCIDENT_TYPE_LABELS[t]}
            </option>
          ))}
        </select>
      </div>
      <PanelList
        query={incidents}
        size={size}
        render={(i) => (
          <li key={i.id} className={rowClass}>
            <RouteLink to={incidentPath(i.id)} className={linkClass}>
              {i.title}
            </RouteLink>
            <span className="ml-auto shrink-0 text-xs text-gray-500">
              <RelativeTime at={i.created_at} />
            </span>
          </li>
        )}
      />
    </Panel>
  );
}

function ChangesPanel({ id, size }: { id: string; size: number }) {
  const changes = useComponentChanges(id);
  return (
    <Panel title="Changes" count={changes.data?.total}>
      <PanelList
        query={changes}
        size={size}
        render={(ch) => (
          <li key={ch.id} className={rowClass}>
            <RouteLink to={`${configPath(ch.config_id)}/changes`} className={linkClass}>
              <span className="font-medium">{ch.change_type}</span> {ch.summary ?? ch.name}
            </RouteLink>
            <span className="ml-auto shrink-0 text-xs text-gray-500">
              <RelativeTime at={ch.created_at} />
            </span>
          </li>
        )}
      />
    </Panel>
  );
}

function ChecksPanel({ id, size }: { id: string; size: number }) {
  const checks = useComponentChecks(id);
  return (
    <Panel title="Checks" count={checks.data?.total}>
      <PanelList
        query={checks}
        size={size}
        render={(ch) => (
          <li key={ch.id} className={rowClass}>
            <StatusDot status={ch.status ?? 'unknown'} />
            <RouteLink to={checkPath(ch.id)} className={linkClass}>
              {ch.name}
            </RouteLink>
            <span className="ml-auto shrink-0 text-xs text-gray-500">{ch.type}</span>
          </li>
        )}
      />
    </Panel>
  );
}

function PlaybooksPanel({ id, size }: { id: string; size: number }) {
  const runs = useComponentRuns(id);
  return (
    <Panel title="Playbooks" count={runs.data?.total}>
      <PanelList
        query={runs}
        size={size}
        render={(r) => (
          <li key={r.id} className={rowClass}>
            <RouteLink to={runPath(r.id)} className={linkClass}>
              {r.playbooks?.title || r.playbooks?.name || 'Playbook run'}
            </RouteLink>
            <span className="ml-auto shrink-0 text-xs text-gray-500">
              {r.status} · <RelativeTime at={r.created_at} />
            </span>
          </li>
        )}
      />
    </Panel>
  );
}

function TeamsPanel({ id, size }: { id: string; size: number }) {
  const teams = useComponentTeams(id);
  return (
    <Panel title="Teams" count={teams.data?.total}>
      <PanelList
        query={teams}
        size={size}
        render={(t) => (
          <li key={t.team_id} className={rowClass}>
            <RouteLink to={teamPath(t.team_id)} className={linkClass}>
              {t.teams?.name ?? t.team_id}
            </RouteLink>
            {t.role && <span className="ml-auto text-xs text-gray-500">{t.role}</span>}
          </li>
        )}
      />
    </Panel>
  );
}

function InsightsPanel({ id, size }: { id: string; size: number }) {
  const insights = useComponentInsights(id);
  return (
    <Panel title="Insights" count={insights.data?.total}>
      <PanelList
        query={insights}
        size={size}
        render={(a) => (
          <li key={a.id} className={rowClass}>
            <RouteLink to={`${configPath(a.config_id)}/insights`} className={linkClass}>
              {a.analyzer}
            </RouteLink>
            <span className="ml-auto shrink-0 text-xs text-gray-500">
              {a.severity} · {a.config_name}
            </span>
          </li>
        )}
      />
    </Panel>
  );
}

/**
 * The selected component's sidebar (seed 002 section 2.7): Details, Catalog, Incidents, Changes,
 * Checks, Playbooks, Teams, Insights. Lists show 10 items, 5 when there are no properties.
 */
export function ComponentSidebar({
  component: c,
  onSnapshot,
  onLinkCatalog,
}: {
  component: TopologyComponent;
  onSnapshot: () => void;
  onLinkCatalog: () => void;
}) {
  const size = (c.properties ?? []).some(isVisibleProperty) ? SIDE_LIST_SIZE : SIDE_LIST_SIZE_NO_PROPERTIES;
  return (
    <aside
      aria-label={`${c.title || c.name} details`}
      className="flex w-full flex-col overflow-y-auto border-l border-gray-200 bg-white"
      data-testid="component-sidebar"
    >
      <div className="flex items-center gap-2 border-b border-gray-200 px-3 py-3">
        <ComponentIcon icon={c.icon} size={20} />
        <h2 className="min-w-0 truncate text-base font-semibold">{c.title || c.name}</h2>
        <StatusDot status={c.status} className="ml-auto" />
      </div>
      <Details c={c} onSnapshot={onSnapshot} onLinkCatalog={onLinkCatalog} />
      <CatalogPanel id={c.id} size={size} onLink={onLinkCatalog} />
      <FeatureGuard feature="incidents">
        <IncidentsPanel id={c.id} size={size} />
      </FeatureGuard>
      <ChangesPanel id={c.id} size={size} />
      <ChecksPanel id={c.id} size={size} />
      <PlaybooksPanel id={c.id} size={size} />
      <TeamsPanel id={c.id} size={size} />
      <InsightsPanel id={c.id} size={size} />
    </aside>
  );
}
