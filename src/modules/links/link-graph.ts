import type { LinkType } from '../../db/schema.ts';
import type { LinkKind } from './links.schemas.ts';

/** A stored edge: one row per relationship, in canonical direction (see migration 0003). */
export interface Edge {
  from_task_id: number;
  to_task_id: number;
  type: LinkType;
}

/**
 * The stored form of "`taskId` <kind> `otherId`": `blocked_by` and `duplicated_by` are
 * stored reversed, and the symmetric `relates_to` with the lower task id first, so a
 * relationship and its mirror map to the same row.
 */
export function canonicalEdge(taskId: number, otherId: number, kind: LinkKind): Edge {
  switch (kind) {
    case 'blocks':
      return { from_task_id: taskId, to_task_id: otherId, type: 'blocks' };
    case 'blocked_by':
      return { from_task_id: otherId, to_task_id: taskId, type: 'blocks' };
    case 'duplicates':
      return { from_task_id: taskId, to_task_id: otherId, type: 'duplicates' };
    case 'duplicated_by':
      return { from_task_id: otherId, to_task_id: taskId, type: 'duplicates' };
    case 'relates_to':
      return { from_task_id: Math.min(taskId, otherId), to_task_id: Math.max(taskId, otherId), type: 'relates_to' };
  }
}

/** The edge as seen from one of its ends: its type from that side and the task at the other end. */
export function sideOf(edge: Edge, taskId: number): { type: LinkKind; otherId: number } {
  const outgoing = edge.from_task_id === taskId;
  const otherId = outgoing ? edge.to_task_id : edge.from_task_id;
  if (edge.type === 'relates_to') return { type: 'relates_to', otherId };
  if (edge.type === 'blocks') return { type: outgoing ? 'blocks' : 'blocked_by', otherId };
  return { type: outgoing ? 'duplicates' : 'duplicated_by', otherId };
}

/**
 * Shortest path `start` → ... → `goal` over `edges` (parent → node pairs of the reachable
 * subgraph), or null. Breadth-first, so the reported cycle is a shortest one through the new edge.
 */
export function shortestPath(
  edges: Array<{ parent: number | null; node: number }>,
  start: number,
  goal: number,
): number[] | null {
  const next = new Map<number, number[]>();
  for (const { parent, node } of edges) {
    if (parent === null) continue;
    const targets = next.get(parent);
    if (targets) targets.push(node);
    else next.set(parent, [node]);
  }
  const cameFrom = new Map<number, number>([[start, start]]);
  let frontier = [start];
  while (frontier.length && !cameFrom.has(goal)) {
    const following: number[] = [];
    for (const node of frontier) {
      for (const target of next.get(node) ?? []) {
        if (cameFrom.has(target)) continue;
        cameFrom.set(target, node);
        following.push(target);
      }
    }
    frontier = following;
  }
  if (!cameFrom.has(goal)) return null;
  const path = [goal];
  while (path.at(-1) !== start) path.push(cameFrom.get(path.at(-1)!)!);
  return path.reverse();
}

/**
 * The loop a new `blocks` edge `from → to` would close, given the existing path `to → ... → from`,
 * written as the API reports it: each task blocks the next, starting and ending with `start`
 * (the task the request was made on, one of the edge's two ends).
 */
export function cycleFrom(start: number, from: number, existingPath: number[]): number[] {
  const loop = [from, ...existingPath]; // from → to → ... → from
  if (start === from) return loop;
  // start is `to`: rotate so the loop begins there (to → ... → from → to).
  return [...existingPath, existingPath[0]!];
}
