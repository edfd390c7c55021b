import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import {
  Background,
  Controls,
  Handle,
  Position,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  type Edge,
  type Node,
  type NodeProps,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { ChevronDown, ChevronRight } from 'lucide-react';
import { cn } from '#web/lib/cn.ts';
import { buildGraph, type GraphConfig, type GraphDirection, type GraphLink, type GraphNodeData } from '../lib/graph.ts';
import { GRAPH } from '../lib/constants.ts';
import { typeLabel } from '../lib/format.ts';
import { HEALTH_DOT } from './badges.tsx';
import type { Health } from '../api/types.ts';

export type EdgeStyle = 'bezier' | 'smoothstep';

type FlowNode = Node<{ graph: GraphNodeData; direction: GraphDirection; onToggle: (key: string) => void }>;

function ConfigNode({ data }: NodeProps<FlowNode>) {
  const horizontal = data.direction === 'horizontal';
  const handles = (
    <>
      <Handle type="target" position={horizontal ? Position.Left : Position.Top} className="!bg-gray-400" />
      <Handle type="source" position={horizontal ? Position.Right : Position.Bottom} className="!bg-gray-400" />
    </>
  );
  const g = data.graph;
  if (g.kind === 'group')
    return (
      <button
        type="button"
        onClick={() => data.onToggle(g.key)}
        aria-expanded={g.expanded}
        aria-label={`${g.count} ${g.type}`}
        data-graph-group={g.type}
        className="flex h-full w-full items-center gap-2 rounded-lg border-2 border-dashed border-gray-300 bg-gray-50 px-4 text-left hover:border-blue-400"
        style={{ width: GRAPH.nodeWidth, height: GRAPH.nodeHeight }}
      >
        {handles}
        {g.expanded ? <ChevronDown size={16} aria-hidden /> : <ChevronRight size={16} aria-hidden />}
        <span className="text-lg font-semibold text-gray-800">{g.count}</span>
        <span className="truncate text-sm text-gray-600">{g.type}</span>
      </button>
    );
  const c = g.config;
  const health = (c.health ?? 'unknown') as Health;
  return (
    <div
      data-graph-node={c.name}
      className={cn(
        'flex flex-col justify-center gap-1 rounded-lg border bg-white px-4 shadow-sm',
        g.root ? 'border-blue-500 ring-2 ring-blue-200' : 'border-gray-200',
        c.deleted_at && 'opacity-60',
      )}
      style={{ width: GRAPH.nodeWidth, height: GRAPH.nodeHeight }}
    >
      {handles}
      <span className="flex items-center gap-2">
        <span className={cn('size-2.5 shrink-0 rounded-full', HEALTH_DOT[health])} aria-hidden />
        <Link to={`/catalog/${c.id}`} className="truncate text-sm font-semibold text-gray-900 hover:underline">
          {c.name}
        </Link>
      </span>
      <span className="truncate text-xs text-gray-500">
        {typeLabel(c.type)}
        {c.status ? ` · ${c.status}` : ''}
        {c.tags?.namespace ? ` · ${c.tags.namespace}` : ''}
        {c.tags?.cluster ? ` · ${c.tags.cluster}` : ''}
      </span>
    </div>
  );
}

const nodeTypes = { config: ConfigNode };

/** Fits the view again (animated, 300 ms) whenever the drawn nodes change: a group opened or closed. */
function FitOnChange({ signature }: { signature: string }) {
  const { fitView } = useReactFlow();
  useEffect(() => {
    const t = window.setTimeout(() => void fitView({ duration: GRAPH.animationMs, padding: 0.1 }), 0);
    return () => window.clearTimeout(t);
  }, [signature, fitView]);
  return null;
}

/**
 * The relationship graph (seed 002 section 2.6) on @xyflow/react, laid out by dagre: a layout
 * toggle (horizontal or vertical), an edge style toggle (bezier or smooth-step), groups of 3 or
 * more configs of one type that expand and collapse on click. Manual links are dashed.
 */
export function RelationshipsGraph({
  rootId,
  configs,
  links,
  direction,
  edgeStyle,
}: {
  rootId: string;
  configs: readonly GraphConfig[];
  links: readonly GraphLink[];
  direction: GraphDirection;
  edgeStyle: EdgeStyle;
}) {
  const [toggled, setToggled] = useState<ReadonlySet<string>>(new Set());
  const onToggle = (key: string) =>
    setToggled((prev) => {
      const next = new Set(prev);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  const graph = useMemo(
    () => buildGraph(rootId, configs, links, toggled, direction),
    [rootId, configs, links, toggled, direction],
  );
  const nodes: FlowNode[] = graph.nodes.map((n) => ({
    id: n.id,
    type: 'config',
    position: n.position,
    data: { graph: n.data, direction, onToggle },
    draggable: false,
    style: { transition: `transform ${GRAPH.animationMs}ms` },
  }));
  const edges: Edge[] = graph.edges.map((e) => ({
    id: e.id,
    source: e.source,
    target: e.target,
    type: edgeStyle === 'smoothstep' ? 'smoothstep' : 'default',
    label: e.label,
    style: e.manual ? { strokeDasharray: '6 4' } : undefined,
  }));
  return (
    <div
      className="h-full min-h-[480px] w-full rounded-lg border border-gray-200 bg-white"
      data-testid="relationship-graph"
    >
      <ReactFlowProvider>
        <ReactFlow
          key={`${direction}`}
          nodes={nodes}
          edges={edges}
          nodeTypes={nodeTypes}
          fitView
          minZoom={0.1}
          nodesConnectable={false}
          proOptions={{ hideAttribution: true }}
        >
          <Background />
          <Controls showInteractive={false} />
          <FitOnChange signature={nodes.map((n) => n.id).join(',')} />
        </ReactFlow>
      </ReactFlowProvider>
    </div>
  );
}
