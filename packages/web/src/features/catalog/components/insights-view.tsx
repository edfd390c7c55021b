import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useVirtualizer } from '@tanstack/react-virtual';
import { ErrorAlert } from '#web/components/ui/error-alert.tsx';
import { RelativeTime } from '#web/components/ui/relative-time.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { useUpdateSearchParams } from '#web/lib/url-state.ts';
import { cn } from '#web/lib/cn.ts';
import { useInsights } from '../api/insights.ts';
import { useAnalyzers, useConfigTypes } from '../api/filter-values.ts';
import {
  ANALYSIS_TYPES,
  INSIGHT_MESSAGE_MAX,
  INSIGHT_STATUSES,
  INSIGHTS_LOAD_MORE_PX,
  INSIGHTS_OVERSCAN,
  INSIGHTS_ROW_ESTIMATE,
  SEVERITIES,
} from '../lib/constants.ts';
import { typeLabel } from '../lib/format.ts';
import { SeverityBadge } from './badges.tsx';
import { InsightDetailDialog } from './insight-detail-dialog.tsx';
import { FIELD_CLASS } from './field-class.ts';

/** An insight message cut at 500 characters (seed 002 section 2.5). */
const truncateMessage = (text: string | null | undefined) =>
  !text ? '' : text.length > INSIGHT_MESSAGE_MAX ? `${text.slice(0, INSIGHT_MESSAGE_MAX)}…` : text;

function FilterSelect({
  label,
  param,
  options,
}: {
  label: string;
  param: string;
  options: readonly { value: string; label?: string }[];
}) {
  const [params] = useSearchParams();
  const update = useUpdateSearchParams();
  return (
    <label className="flex items-center gap-1.5 text-sm whitespace-nowrap text-gray-600">
      {label}
      <select
        aria-label={label}
        value={params.get(param) ?? ''}
        onChange={(e) => update({ [param]: e.target.value || null })}
        className={cn(FIELD_CLASS, 'w-40')}
      >
        <option value="">All</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label ?? o.value}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * Insights (seed 002 section 2.5): 50 a page, the next asked for within 300 px of the end of the
 * scroll; only the rows in view are drawn; messages cut at 500 characters; a click opens the
 * insight's detail. Filters (type, severity, analyzer, component, configType, status) are in the
 * URL; a config's tab shows its own.
 */
export function InsightsView({ configId }: { configId?: string }) {
  const [params] = useSearchParams();
  const update = useUpdateSearchParams();
  // the open insight is in the URL (insightId), so an incident's evidence can link to it
  const openId = params.get('insightId') ?? undefined;
  const setOpenId = (id: string | undefined) => update({ insightId: id ?? null }, { push: !!id });
  const query = {
    configId,
    type: params.get('type') ?? undefined,
    severity: params.get('severity') ?? undefined,
    analyzer: params.get('analyzer') ?? undefined,
    component: params.get('component') ?? undefined,
    configType: params.get('configType') ?? undefined,
    status: params.get('status') ?? undefined,
  };
  const insights = useInsights(query);
  const analyzers = useAnalyzers();
  const configTypes = useConfigTypes();
  const rows = insights.data?.pages.flatMap((p) => p.rows) ?? [];
  const total = insights.data?.pages[0]?.total ?? 0;

  const scrollRef = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read in this render only
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => INSIGHTS_ROW_ESTIMATE,
    overscan: INSIGHTS_OVERSCAN,
  });

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = insights;
  const maybeLoadMore = () => {
    const el = scrollRef.current;
    if (!el || !hasNextPage || isFetchingNextPage) return;
    if (el.scrollHeight - el.scrollTop - el.clientHeight <= INSIGHTS_LOAD_MORE_PX) void fetchNextPage();
  };
  // a first page shorter than the box leaves nothing to scroll: ask for the next one at once
  useEffect(maybeLoadMore, [rows.length, hasNextPage, isFetchingNextPage]); // eslint-disable-line react-hooks/exhaustive-deps

  const items = virtualizer.getVirtualItems();
  return (
    <div className="flex min-h-0 flex-1 flex-col gap-3">
      <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Insight filters">
        <FilterSelect
          label="Type"
          param="type"
          options={ANALYSIS_TYPES.map((t) => ({ value: t, label: t.replace('_', ' ') }))}
        />
        <FilterSelect label="Severity" param="severity" options={SEVERITIES.map((s) => ({ value: s }))} />
        <FilterSelect
          label="Analyzer"
          param="analyzer"
          options={[...new Set((analyzers.data ?? []).map((a) => a.analyzer))].map((a) => ({ value: a }))}
        />
        {!configId && (
          <FilterSelect
            label="Config Type"
            param="configType"
            options={(configTypes.data ?? []).map((t) => ({ value: t.type }))}
          />
        )}
        <FilterSelect label="Status" param="status" options={INSIGHT_STATUSES.map((s) => ({ value: s }))} />
        <span className="ml-auto text-sm text-gray-500" aria-live="polite">
          {insights.data ? `${rows.length} of ${total}` : ''}
        </span>
      </div>
      {insights.error && !insights.data ? (
        <ErrorAlert error={insights.error} />
      ) : (
        <div
          ref={scrollRef}
          onScroll={maybeLoadMore}
          className="min-h-0 flex-1 overflow-auto rounded-lg border border-gray-200 bg-white"
          style={{ maxHeight: 'calc(100vh - 12rem)' }}
          role="list"
          aria-label="Insights"
          aria-busy={insights.isFetching || undefined}
        >
          {rows.length === 0 ? (
            <p className="px-3 py-12 text-center text-sm text-gray-500">
              {insights.isPending ? 'Loading…' : 'No data available'}
            </p>
          ) : (
            <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
              {items.map((item) => {
                const a = rows[item.index];
                return (
                  <div
                    key={a.id}
                    role="listitem"
                    data-index={item.index}
                    ref={virtualizer.measureElement}
                    className="absolute inset-x-0 flex cursor-pointer items-start gap-3 border-b border-gray-100 px-3 py-2 text-sm hover:bg-blue-50/50"
                    style={{ transform: `translateY(${item.start}px)` }}
                    onClick={() => setOpenId(a.id)}
                    onKeyDown={(e) => e.key === 'Enter' && setOpenId(a.id)}
                    tabIndex={0}
                  >
                    <span className="w-20 shrink-0">
                      <SeverityBadge severity={a.severity} />
                    </span>
                    <span className="min-w-0 flex-1">
                      <span className="flex flex-wrap items-baseline gap-x-2">
                        <span className="font-medium text-gray-900">{a.analyzer}</span>
                        {!configId && (
                          <Link
                            to={`/catalog/${a.config_id}`}
                            onClick={(e) => e.stopPropagation()}
                            className="text-blue-700 hover:underline"
                          >
                            {a.config.name}
                          </Link>
                        )}
                        <span className="text-xs text-gray-500">{typeLabel(a.config.type)}</span>
                        <span className="text-xs text-gray-500 capitalize">{a.analysis_type.replace('_', ' ')}</span>
                        {a.status !== 'open' && <span className="text-xs text-gray-500 capitalize">{a.status}</span>}
                      </span>
                      <span className="block text-gray-600 [overflow-wrap:anywhere]" data-message>
                        {truncateMessage(a.message ?? a.summary)}
                      </span>
                    </span>
                    <RelativeTime at={a.last_observed} className="shrink-0 text-xs text-gray-500" />
                  </div>
                );
              })}
            </div>
          )}
          {isFetchingNextPage && (
            <div className="flex items-center justify-center gap-2 py-2 text-xs text-gray-500">
              <Spinner size={14} /> Loading more…
            </div>
          )}
        </div>
      )}
      <InsightDetailDialog id={openId} onClose={() => setOpenId(undefined)} />
    </div>
  );
}
