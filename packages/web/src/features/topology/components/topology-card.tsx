import { memo, type MouseEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { EllipsisVertical, Network, ScrollText, Users } from 'lucide-react';
import type { TopologyComponent } from '@watchdeck/core';
import { cn } from '#web/lib/cn.ts';
import { RouteLink } from '#web/components/ui/route-link.tsx';
import { FeatureGuard } from '#web/components/auth/index.ts';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '#web/components/ui/dropdown-menu.tsx';
import { CARD_SIZES, CARD_WIDTHS, type CardSize } from '../lib/constants.ts';
import { isVisibleProperty } from '../lib/format.ts';
import { healthPath, incidentsPath, insightsPath, logsPath, teamPath, topologySettingsPath } from '../lib/links.ts';
import { summaryRows, type SummaryRow } from '../lib/summary.ts';
import { ComponentIcon } from './component-icon.tsx';
import { PropertyValue } from './property-value.tsx';
import { StatusDot, statusBorder } from './status.tsx';

/** The card menu's actions; the page holds the dialogs they open. */
export interface CardActions {
  onSnapshot: (c: TopologyComponent) => void;
  onLinkCatalog: (c: TopologyComponent) => void;
  onLinkIncident?: (c: TopologyComponent) => void;
}

/** How many properties besides the headline ones each size shows. */
const PROPERTIES_BY_SIZE: Record<CardSize, number> = { small: 0, medium: 2, large: 4, extra_large: 8 };

/** The largest preset a width holds (the slider's widths fall between the presets). */
export function sizeForWidth(width: number): CardSize {
  let size: CardSize = 'small';
  for (const s of CARD_SIZES) if (CARD_WIDTHS[s] <= width) size = s;
  return size;
}

const STATUS_ORDER = ['unhealthy', 'warning', 'healthy', 'unknown'] as const;

function CountLink({ to, n, tone, label }: { to: string; n: number; tone: string; label: string }) {
  if (!n) return null;
  return (
    <RouteLink
      to={to}
      className={cn('rounded px-1.5 py-0.5 text-xs font-medium hover:underline', tone)}
      textClassName={cn('rounded px-1.5 py-0.5 text-xs font-medium', tone)}
    >
      <span aria-label={label} title={label}>
        {n}
      </span>
    </RouteLink>
  );
}

function SummaryRows({
  title,
  rows,
  href,
}: {
  title: string;
  rows: SummaryRow[];
  href: (type: string, severity: string) => string;
}) {
  if (!rows.length) return null;
  return (
    <div className="space-y-0.5" data-testid={`card-${title.toLowerCase()}`}>
      {rows.map((r) => (
        <div key={r.type} className="flex items-center gap-1 text-xs text-gray-600">
          <span className="min-w-0 flex-1 truncate capitalize">
            {title === 'Insights' ? r.type.replace(/_/g, ' ') : `${r.type} incidents`}
          </span>
          <CountLink
            to={href(r.type, r.redSeverity)}
            n={r.red}
            tone="bg-red-50 text-red-700"
            label={`${r.red} ${r.redSeverity} ${r.type}`}
          />
          <CountLink
            to={href(r.type, r.orangeSeverity)}
            n={r.orange}
            tone="bg-orange-50 text-orange-700"
            label={`${r.orange} ${r.orangeSeverity} ${r.type}`}
          />
          <CountLink
            to={href(r.type, r.graySeverity)}
            n={r.gray}
            tone="bg-gray-100 text-gray-700"
            label={`${r.gray} ${r.graySeverity} ${r.type}`}
          />
        </div>
      ))}
    </div>
  );
}

/** Clicks on links, buttons and menus inside a card are theirs, not a drill-down. */
const isInteractive = (e: MouseEvent) =>
  e.target instanceof Element && !!e.target.closest('a,button,[role="menuitem"],[role="menu"]');

export interface TopologyCardProps {
  component: TopologyComponent;
  /** a preset size; `width` (the slider) overrides its width */
  size?: CardSize;
  width?: number;
  /** where a click goes; no drill-down without it */
  to?: string;
  actions?: CardActions;
  selected?: boolean;
}

/**
 * A topology card (seed 002 section 2.7): name and status, the top border by health, headline
 * properties and more as the card grows, the children, checks, insights and incidents summary
 * with their links, teams and the topology it comes from.
 */
export const TopologyCard = memo(function TopologyCard({
  component: c,
  size,
  width,
  to,
  actions,
  selected,
}: TopologyCardProps) {
  const navigate = useNavigate();
  const w = width ?? CARD_WIDTHS[size ?? 'medium'];
  const layout = size ?? sizeForWidth(w);
  const visible = (c.properties ?? []).filter(isVisibleProperty);
  const headline = visible.filter((p) => p.headline);
  const others = visible.filter((p) => !p.headline).slice(0, PROPERTIES_BY_SIZE[layout]);
  const summary = c.summary ?? {};
  const checks = summary.checks ?? {};
  const insights = summaryRows(summary.insights);
  const incidents = summaryRows(summary.incidents);
  // children by status: the summary's counts, else counted from the nested children
  const counted = (s: string) => c.components?.filter((k) => k.status === s).length ?? 0;
  const hasCounts = STATUS_ORDER.some((s) => summary[s] !== undefined);
  const children = STATUS_ORDER.map((s) => [s, hasCounts ? (summary[s] ?? 0) : counted(s)] as const).filter(
    ([, n]) => n > 0,
  );
  const title = c.title || c.name;

  return (
    <article
      aria-label={title}
      data-testid="topology-card"
      data-id={c.id}
      data-status={c.status}
      data-size={layout}
      style={{ width: w }}
      onClick={(e) => {
        if (to && !isInteractive(e)) void navigate(to);
      }}
      className={cn(
        'flex shrink-0 flex-col gap-2 rounded-md border border-t-4 border-gray-200 bg-white p-3 shadow-sm',
        statusBorder(c.status),
        to && 'cursor-pointer hover:shadow-md',
        selected && 'ring-2 ring-blue-500',
      )}
    >
      <header className="flex min-w-0 items-start gap-2">
        <ComponentIcon icon={c.icon} size={layout === 'small' ? 16 : 20} />
        <div className="min-w-0 flex-1">
          <h3 className="truncate text-sm font-semibold text-gray-900" title={title}>
            {to ? (
              <Link to={to} className="hover:underline focus-visible:outline-2 focus-visible:outline-blue-600">
                {title}
              </Link>
            ) : (
              title
            )}
          </h3>
          {c.type && layout !== 'small' && <p className="truncate text-xs text-gray-500">{c.type}</p>}
        </div>
        <StatusDot status={c.status} className="mt-1" />
        {actions && (
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <button
                type="button"
                aria-label={`Actions for ${title}`}
                className="-mr-1 rounded p-0.5 text-gray-400 hover:bg-gray-100 hover:text-gray-700 focus-visible:outline-2 focus-visible:outline-blue-600"
              >
                <EllipsisVertical size={16} aria-hidden />
              </button>
            </DropdownMenuTrigger>
            <DropdownMenuContent align="end">
              <DropdownMenuItem onSelect={() => actions.onSnapshot(c)}>Snapshot</DropdownMenuItem>
              <DropdownMenuItem onSelect={() => actions.onLinkCatalog(c)}>Link to Catalog</DropdownMenuItem>
              {actions.onLinkIncident && (
                <DropdownMenuItem onSelect={() => actions.onLinkIncident?.(c)}>Link to Incident</DropdownMenuItem>
              )}
            </DropdownMenuContent>
          </DropdownMenu>
        )}
      </header>

      {headline.length > 0 && (
        <dl className="flex flex-wrap gap-x-4 gap-y-1" data-testid="headline-properties">
          {headline.map((p) => (
            <div key={p.name} className="min-w-0">
              <dt className="text-[11px] tracking-wide text-gray-500 uppercase">{p.name}</dt>
              <dd className="text-base font-semibold text-gray-900">
                <PropertyValue property={p} />
              </dd>
            </div>
          ))}
        </dl>
      )}

      {others.length > 0 && (
        <dl className="grid grid-cols-[auto_1fr] gap-x-2 gap-y-0.5 text-xs">
          {others.map((p) => (
            <div key={p.name} className="contents">
              <dt className="truncate text-gray-500">{p.name}</dt>
              <dd className="min-w-0 text-gray-800">
                <PropertyValue property={p} />
              </dd>
            </div>
          ))}
        </dl>
      )}

      {(children.length > 0 || Object.values(checks).some(Boolean)) && (
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-gray-600">
          {children.length > 0 && (
            <span className="flex items-center gap-1.5" aria-label="Components by status">
              {children.map(([s, n]) => (
                <span key={s} className="flex items-center gap-0.5">
                  <StatusDot status={s} className="h-2 w-2" />
                  {n}
                </span>
              ))}
            </span>
          )}
          {Object.values(checks).some(Boolean) && (
            <span className="flex items-center gap-1" data-testid="card-checks">
              Checks
              <CountLink
                to={healthPath('healthy')}
                n={checks.healthy ?? 0}
                tone="bg-green-50 text-green-700"
                label="healthy checks"
              />
              <CountLink
                to={healthPath('unhealthy')}
                n={checks.unhealthy ?? 0}
                tone="bg-red-50 text-red-700"
                label="unhealthy checks"
              />
              <CountLink
                to={healthPath('warning')}
                n={checks.warning ?? 0}
                tone="bg-orange-50 text-orange-700"
                label="warning checks"
              />
              <CountLink
                to={healthPath('unknown')}
                n={checks.unknown ?? 0}
                tone="bg-gray-100 text-gray-700"
                label="unknown checks"
              />
            </span>
          )}
        </div>
      )}

      {layout !== 'small' && (
        <>
          <SummaryRows title="Insights" rows={insights} href={(t, s) => insightsPath(c.id, t, s)} />
          <SummaryRows title="Incidents" rows={incidents} href={(t, s) => incidentsPath(c.id, t, s)} />
        </>
      )}

      {(c.teams?.length > 0 || c.topology_id || c.logs?.length > 0) && (
        <footer className="mt-auto flex flex-wrap items-center gap-2 border-t border-gray-100 pt-2 text-xs text-gray-600">
          {c.teams?.map((t) => (
            <RouteLink key={t.id} to={teamPath(t.id)} className="flex items-center gap-1 hover:underline">
              <Users size={12} aria-hidden />
              {t.name}
            </RouteLink>
          ))}
          {c.topology_id && (
            <RouteLink
              to={topologySettingsPath(c.topology_id)}
              className="flex items-center gap-1 hover:underline"
              textClassName="hidden"
            >
              <Network size={12} aria-hidden />
              <span className="sr-only">Topology settings</span>
            </RouteLink>
          )}
          {c.logs?.length > 0 && (
            <FeatureGuard feature="logs">
              <RouteLink to={logsPath(c.id)} className="flex items-center gap-1 hover:underline" textClassName="hidden">
                <ScrollText size={12} aria-hidden />
                Logs
              </RouteLink>
            </FeatureGuard>
          )}
        </footer>
      )}
    </article>
  );
});
