import { graphlib, layout } from '@dagrejs/dagre';
import { GRAPH } from './constants.ts';

/** What the graph needs of a config (seed 002 section 3, graph config node). */
export interface GraphConfig {
  id: string;
  name: string;
  type: string;
  status: string | null;
  health: string | null;
  deleted_at: string | null;
  tags: Record<string, string> | null;
}

export interface GraphLink {
  from: string;
  to: string;
  relation: string;
  manual: boolean;
}

export type GraphNodeData =
  | { kind: 'config'; config: GraphConfig; root: boolean }
  | { kind: 'group'; type: string; count: number; expanded: boolean; key: string };

export interface LaidOutNode {
  id: string;
  data: GraphNodeData;
  position: { x: number; y: number };
}

export interface LaidOutEdge {
  id: string;
  source: string;
  target: string;
  manual: boolean;
  label?: string;
}

export type GraphDirection = 'horizontal' | 'vertical';

/** A group's key: the node it hangs from and the type of its configs. */
const groupKey = (near: string, type: string) => `group:${near}:${type}`;

/**
 * The relationship graph around `rootId`: configs of one type hanging from the same node are
 * grouped when there are 3 or more of them; a group with 3 or fewer starts expanded, a larger one
 * collapsed (`toggled` flips a group from its default). Nodes are placed by dagre (rank
 * separation 120, node separation 100, 400 x 100 nodes) left to right or top to bottom.
 */
export function buildGraph(
  rootId: string,
  configs: readonly GraphConfig[],
  links: readonly GraphLink[],
  toggled: ReadonlySet<string>,
  direction: GraphDirection,
): { nodes: LaidOutNode[]; edges: LaidOutEdge[] } {
  const byId = new Map(configs.map((c) => [c.id, c]));
  const usable = links.filter((l) => byId.has(l.from) && byId.has(l.to) && l.from !== l.to);

  // distance from the root, over links in either direction: each link is read from its nearer end
  const adjacent = new Map<string, string[]>();
  for (const l of usable) {
    adjacent.set(l.from, [...(adjacent.get(l.from) ?? []), l.to]);
    adjacent.set(l.to, [...(adjacent.get(l.to) ?? []), l.from]);
  }
  const depth = new Map<string, number>([[rootId, 0]]);
  const queue = [rootId];
  while (queue.length) {
    const id = queue.shift()!;
    for (const next of adjacent.get(id) ?? [])
      if (!depth.has(next)) {
        depth.set(next, depth.get(id)! + 1);
        queue.push(next);
      }
  }

  // one tree edge per reached config: from a nearer node (the first met), so each config hangs once
  const parentOf = new Map<string, GraphLink>();
  for (const l of usable) {
    const df = depth.get(l.from);
    const dt = depth.get(l.to);
    if (df === undefined || dt === undefined) continue;
    const [near, far] = df <= dt ? [l.from, l.to] : [l.to, l.from];
    if (far === rootId || depth.get(far)! <= depth.get(near)!) continue;
    if (!parentOf.has(far)) parentOf.set(far, { ...l, from: near, to: far });
  }

  // groups: siblings of one type under one node
  const siblings = new Map<string, string[]>();
  for (const [far, l] of parentOf) {
    const key = groupKey(l.from, byId.get(far)!.type);
    siblings.set(key, [...(siblings.get(key) ?? []), far]);
  }
  const groupOf = new Map<string, string>();
  const groups = new Map<string, { near: string; type: string; members: string[]; expanded: boolean }>();
  for (const [key, members] of siblings) {
    if (members.length < GRAPH.groupMin) continue;
    const near = parentOf.get(members[0])!.from;
    const byDefault = members.length <= GRAPH.autoExpandMax;
    groups.set(key, {
      near,
      type: byId.get(members[0])!.type,
      members,
      expanded: toggled.has(key) ? !byDefault : byDefault,
    });
    for (const m of members) groupOf.set(m, key);
  }

  // what shows: walk down from the root, stopping at collapsed groups
  const visible = new Set<string>([rootId]);
  const children = new Map<string, string[]>();
  for (const [far, l] of parentOf) children.set(l.from, [...(children.get(l.from) ?? []), far]);
  const walk = [rootId];
  while (walk.length) {
    const id = walk.pop()!;
    for (const child of children.get(id) ?? []) {
      const g = groupOf.get(child);
      if (g && !groups.get(g)!.expanded) continue;
      if (!visible.has(child)) {
        visible.add(child);
        walk.push(child);
      }
    }
  }

  const nodes: { id: string; data: GraphNodeData }[] = [];
  for (const id of visible) nodes.push({ id, data: { kind: 'config', config: byId.get(id)!, root: id === rootId } });
  const edges: LaidOutEdge[] = [];
  for (const [key, g] of groups) {
    if (!visible.has(g.near)) continue;
    nodes.push({ id: key, data: { kind: 'group', type: g.type, count: g.members.length, expanded: g.expanded, key } });
    edges.push({ id: `${g.near}->${key}`, source: g.near, target: key, manual: false });
  }
  for (const l of usable) {
    if (!visible.has(l.from) || !visible.has(l.to)) continue;
    // a grouped config hangs from its group, not from the node the group hangs from
    const tree = parentOf.get(l.to)?.from === l.from ? l.to : parentOf.get(l.from)?.from === l.to ? l.from : undefined;
    const g = tree ? groupOf.get(tree) : undefined;
    if (g) {
      edges.push({ id: `${g}->${tree}`, source: g, target: tree!, manual: l.manual, label: l.relation || undefined });
      continue;
    }
    edges.push({
      id: `${l.from}->${l.to}:${l.relation}`,
      source: l.from,
      target: l.to,
      manual: l.manual,
      label: l.relation || undefined,
    });
  }
  const uniqueEdges = [...new Map(edges.map((e) => [e.id, e])).values()];

  const g = new graphlib.Graph();
  g.setGraph({ rankdir: direction === 'horizontal' ? 'LR' : 'TB', ranksep: GRAPH.rankSep, nodesep: GRAPH.nodeSep });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of nodes) g.setNode(n.id, { width: GRAPH.nodeWidth, height: GRAPH.nodeHeight });
  for (const e of uniqueEdges) g.setEdge(e.source, e.target);
  layout(g);
  return {
    nodes: nodes.map((n) => {
      const p = g.node(n.id);
      return { ...n, position: { x: p.x - GRAPH.nodeWidth / 2, y: p.y - GRAPH.nodeHeight / 2 } };
    }),
    edges: uniqueEdges,
  };
}
