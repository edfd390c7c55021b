import { lazy, Suspense, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Unlink } from 'lucide-react';
import { decodeTriState, encodeTriState, type TriStateMap } from '@watchdeck/core';
import { DataTable, dataTableColumns, type DataTableColumn } from '#web/components/data-table/index.ts';
import { TriStateFilter } from '#web/components/filters/index.ts';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog.tsx';
import { ErrorAlert } from '#web/components/ui/error-alert.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { useUpdateSearchParams } from '#web/lib/url-state.ts';
import { useLocalStorage } from '#web/lib/storage.ts';
import { useCan } from '#web/lib/session.tsx';
import { toastError, toastSuccess } from '#web/lib/toast.ts';
import { cn } from '#web/lib/cn.ts';
import { unlinkConfigs, useRelations } from '../api/relationships.ts';
import { catalogKeys } from '../api/keys.ts';
import type { ConfigDetail, ConfigLink, RelatedConfig } from '../api/types.ts';
import { HEALTH_OPTIONS, HIDE_DELETED_KEY, MESSAGES } from '../lib/constants.ts';
import { parseTagEntry, tagEntry, typeLabel } from '../lib/format.ts';
import { splitTriState } from '../lib/filters.ts';
import type { GraphDirection } from '../lib/graph.ts';
import { HealthStatus, TagChips } from './badges.tsx';
import { Toggle } from './toggle.tsx';
import type { EdgeStyle } from './relationships-graph.tsx';
import { FIELD_CLASS } from './field-class.ts';

// @xyflow/react and dagre load with the graph, not with the catalog
const RelationshipsGraph = lazy(() =>
  import('./relationships-graph.tsx').then((m) => ({ default: m.RelationshipsGraph })),
);

interface Row extends RelatedConfig {
  /** the direct manual link between this config and the page's, if any */
  manual?: ConfigLink;
}

const col = dataTableColumns<Row>();

/** A tri-state include/exclude match of one value. */
function matches(text: string | null, value: string | null | undefined): boolean {
  const { include, exclude } = splitTriState(text);
  const v = value ?? '';
  if (include.length && !include.includes(v)) return false;
  return !exclude.includes(v);
}

function Segmented<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T;
  options: readonly { value: T; label: string }[];
  onChange: (v: T) => void;
}) {
  return (
    <span
      role="radiogroup"
      aria-label={label}
      className="inline-flex overflow-hidden rounded-md border border-gray-300"
    >
      {options.map((o) => (
        <button
          key={o.value}
          type="button"
          role="radio"
          aria-checked={value === o.value}
          onClick={() => onChange(o.value)}
          className={cn(
            'px-2.5 py-1 text-sm',
            value === o.value ? 'bg-blue-600 text-white' : 'bg-white text-gray-700 hover:bg-gray-50',
          )}
        >
          {o.label}
        </button>
      ))}
    </span>
  );
}

/**
 * /catalog/{id}/relationships (seed 002 section 2.6): filters (config types, labels,
 * relationship, status, health), the Outgoing / Incoming / Soft switches (Incoming off forces
 * Outgoing on, and Outgoing can't be switched while Incoming is off), a table grouped by type
 * or the graph, and unlinking of manual links. All of it in the URL.
 */
export function RelationshipsView({ config }: { config: ConfigDetail }) {
  const [params] = useSearchParams();
  const update = useUpdateSearchParams();
  const queryClient = useQueryClient();
  const canWrite = useCan('database', 'write');
  const [hideDeleted] = useLocalStorage(HIDE_DELETED_KEY, true);
  const [unlinking, setUnlinking] = useState<Row>();

  const incoming = params.get('incoming') !== 'false';
  const outgoing = !incoming || params.get('outgoing') !== 'false';
  const soft = params.get('soft') === 'true';
  const view = params.get('view') === 'graph' ? 'graph' : 'table';
  const layout: GraphDirection = params.get('layout') === 'vertical' ? 'vertical' : 'horizontal';
  const edgeStyle: EdgeStyle = params.get('edge') === 'smoothstep' ? 'smoothstep' : 'bezier';
  const direction = incoming && outgoing ? 'all' : incoming ? 'incoming' : 'outgoing';

  const relations = useRelations({ configId: config.id, direction, soft, hideDeleted });

  const rows = useMemo<Row[]>(() => {
    const data = relations.data;
    if (!data) return [];
    const { include: labelIn, exclude: labelOut } = splitTriState(params.get('labels'));
    const relation = params.get('relationship');
    return data.related
      .filter((r) => matches(params.get('configTypes'), r.type))
      .filter((r) => matches(params.get('status'), r.status))
      .filter((r) => matches(params.get('health'), r.health ?? 'unknown'))
      .filter((r) => !relation || r.relation === relation)
      .filter((r) =>
        labelIn.every((e) => {
          const p = parseTagEntry(e);
          return !!p && r.labels?.[p.key] === p.value;
        }),
      )
      .filter((r) =>
        labelOut.every((e) => {
          const p = parseTagEntry(e);
          return !p || r.labels?.[p.key] !== p.value;
        }),
      )
      .map((r) => ({
        ...r,
        manual: data.edges.find(
          (e) =>
            e.selector_id === 'manual' &&
            ((e.config_id === config.id && e.related_id === r.id) ||
              (e.related_id === config.id && e.config_id === r.id)),
        ),
      }));
  }, [relations.data, params, config.id]);

  const columns = useMemo<DataTableColumn<Row>[]>(
    () => [
      col.accessor('name', {
        header: 'Name',
        cell: ({ row }) => (
          <Link
            to={`/catalog/${row.original.id}`}
            onClick={(e) => e.stopPropagation()}
            className={cn(
              'font-medium text-gray-900 hover:underline',
              row.original.deleted_at && 'text-gray-400 line-through',
            )}
          >
            {row.original.name}
          </Link>
        ),
      }),
      col.accessor('type', { header: 'Type', cell: ({ getValue }) => typeLabel(getValue()) }),
      col.accessor('relation_direction', {
        header: 'Relationship',
        cell: ({ row }) => (
          <span className="text-gray-600">
            {row.original.relation_direction === 'incoming' ? '← ' : '→ '}
            {row.original.relation || (row.original.relation_direction === 'incoming' ? 'parent' : 'child')}
            {row.original.depth > 1 && <span className="text-xs text-gray-400"> (depth {row.original.depth})</span>}
            {row.original.manual && (
              <span className="ml-1 rounded bg-purple-50 px-1 text-xs text-purple-700">manual</span>
            )}
          </span>
        ),
      }),
      col.accessor('status', {
        header: 'Status',
        cell: ({ row }) => <HealthStatus health={row.original.health} status={row.original.status} />,
      }),
      col.accessor('tags', {
        header: 'Tags',
        enableSorting: false,
        cell: ({ getValue }) => <TagChips tags={getValue()} max={2} />,
      }),
      col.display({
        id: 'actions',
        header: '',
        cell: ({ row }) =>
          row.original.manual && canWrite ? (
            <Button
              size="sm"
              variant="ghost"
              onClick={(e) => {
                e.stopPropagation();
                setUnlinking(row.original);
              }}
            >
              <Unlink size={13} aria-hidden /> Unlink
            </Button>
          ) : null,
      }),
    ],
    [canWrite],
  );

  const triState = (key: string) => ({
    value: decodeTriState(params.get(key)),
    onChange: (next: TriStateMap) => update({ [key]: encodeTriState(next) || null }),
  });
  const all = relations.data?.related ?? [];
  const uniq = (xs: (string | null | undefined)[]) => [...new Set(xs.filter((x): x is string => !!x))].sort();
  const labelOptions = uniq(all.flatMap((r) => Object.entries(r.labels ?? {}).map(([k, v]) => tagEntry(k, v)))).map(
    (v) => ({
      value: v,
      label: v.replace('____', ': '),
    }),
  );

  const graphConfigs = useMemo(
    () => [
      {
        id: config.id,
        name: config.name,
        type: config.type,
        status: config.status,
        health: config.health,
        deleted_at: config.deleted_at,
        tags: config.tags,
      },
      ...rows,
    ],
    [config, rows],
  );
  const graphLinks = useMemo(
    () =>
      (relations.data?.edges ?? []).map((e) => ({
        from: e.config_id,
        to: e.related_id,
        relation: e.relation === 'parent' ? '' : e.relation,
        manual: e.selector_id === 'manual',
      })),
    [relations.data],
  );

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-3">
      <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Relationship filters">
        <TriStateFilter
          label="Config Types"
          options={uniq(all.map((r) => r.type)).map((value) => ({ value }))}
          {...triState('configTypes')}
        />
        <TriStateFilter label="Labels" options={labelOptions} {...triState('labels')} />
        <label className="flex items-center gap-1.5 text-sm whitespace-nowrap text-gray-600">
          Relationship
          <select
            aria-label="Relationship"
            value={params.get('relationship') ?? ''}
            onChange={(e) => update({ relationship: e.target.value || null })}
            className={cn(FIELD_CLASS, 'w-36')}
          >
            <option value="">All</option>
            {uniq(all.map((r) => r.relation)).map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </label>
        <TriStateFilter
          label="Status"
          options={uniq(all.map((r) => r.status)).map((value) => ({ value }))}
          {...triState('status')}
        />
        <TriStateFilter label="Health" options={HEALTH_OPTIONS} {...triState('health')} />
      </div>
      <div className="flex flex-wrap items-center gap-4">
        <Toggle
          label="Outgoing"
          checked={outgoing}
          disabled={!incoming}
          onChange={(v) => update({ outgoing: v ? null : 'false' })}
        />
        <Toggle
          label="Incoming"
          checked={incoming}
          // switching Incoming off forces Outgoing on
          onChange={(v) => update(v ? { incoming: null } : { incoming: 'false', outgoing: null })}
        />
        <Toggle label="Soft" checked={soft} onChange={(v) => update({ soft: v ? 'true' : null })} />
        <span className="ml-auto flex flex-wrap items-center gap-2">
          {view === 'graph' && (
            <>
              <Segmented
                label="Layout"
                value={layout}
                options={[
                  { value: 'horizontal', label: 'Horizontal' },
                  { value: 'vertical', label: 'Vertical' },
                ]}
                onChange={(v) => update({ layout: v === 'horizontal' ? null : v })}
              />
              <Segmented
                label="Edge style"
                value={edgeStyle}
                options={[
                  { value: 'bezier', label: 'Bezier' },
                  { value: 'smoothstep', label: 'Smooth step' },
                ]}
                onChange={(v) => update({ edge: v === 'bezier' ? null : v })}
              />
            </>
          )}
          <Segmented
            label="View"
            value={view}
            options={[
              { value: 'table', label: 'Table' },
              { value: 'graph', label: 'Graph' },
            ]}
            onChange={(v) => update({ view: v === 'table' ? null : v })}
          />
        </span>
      </div>
      {relations.error && !relations.data ? (
        <ErrorAlert error={relations.error} />
      ) : view === 'graph' ? (
        <div className="min-h-[480px] flex-1" aria-busy={relations.isFetching || undefined}>
          {relations.data && (
            <Suspense
              fallback={
                <span className="inline-flex items-center gap-2 text-sm text-gray-500">
                  <Spinner /> Loading…
                </span>
              }
            >
              <RelationshipsGraph
                rootId={config.id}
                configs={graphConfigs}
                links={graphLinks}
                direction={layout}
                edgeStyle={edgeStyle}
              />
            </Suspense>
          )}
        </div>
      ) : (
        <DataTable
          label="Relationships"
          columns={columns}
          data={rows}
          getRowId={(r) => `${r.id}:${r.relation_direction}`}
          isLoading={relations.isFetching}
          groupBy={['type']}
          groupsExpanded
          pagination={false}
          className="min-h-0 flex-1"
        />
      )}
      <ConfirmDialog
        open={!!unlinking}
        onOpenChange={(o) => !o && setUnlinking(undefined)}
        title="Unlink"
        message={unlinking ? `Remove the manual link between ${config.name} and ${unlinking.name}?` : ''}
        confirmLabel="Unlink"
        onConfirm={async () => {
          if (!unlinking?.manual) return;
          try {
            await unlinkConfigs(unlinking.manual);
            toastSuccess(MESSAGES.unlinked);
            await queryClient.invalidateQueries({ queryKey: catalogKeys.all });
          } catch (err) {
            toastError(err);
            throw err;
          }
        }}
      />
    </div>
  );
}
