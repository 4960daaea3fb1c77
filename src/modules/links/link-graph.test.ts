import { describe, expect, it } from 'vitest';
import { canonicalEdge, cycleFrom, shortestPath, sideOf } from './link-graph.ts';

describe('link direction', () => {
  it('stores a relationship and its mirror as the same edge', () => {
    expect(canonicalEdge(1, 2, 'blocks')).toEqual(canonicalEdge(2, 1, 'blocked_by'));
    expect(canonicalEdge(1, 2, 'duplicates')).toEqual(canonicalEdge(2, 1, 'duplicated_by'));
    expect(canonicalEdge(7, 3, 'relates_to')).toEqual(canonicalEdge(3, 7, 'relates_to'));
    expect(canonicalEdge(7, 3, 'relates_to')).toEqual({ from_task_id: 3, to_task_id: 7, type: 'relates_to' });
  });

  it('reads each edge from either end', () => {
    for (const kind of ['blocks', 'blocked_by', 'relates_to', 'duplicates', 'duplicated_by'] as const) {
      const edge = canonicalEdge(5, 9, kind);
      expect(sideOf(edge, 5)).toEqual({ type: kind, otherId: 9 });
    }
    expect(sideOf(canonicalEdge(5, 9, 'blocks'), 9)).toEqual({ type: 'blocked_by', otherId: 5 });
    expect(sideOf(canonicalEdge(5, 9, 'duplicated_by'), 9)).toEqual({ type: 'duplicates', otherId: 5 });
    expect(sideOf(canonicalEdge(9, 5, 'relates_to'), 9)).toEqual({ type: 'relates_to', otherId: 5 });
  });
});

describe('cycle path', () => {
  it('finds the shortest path over parent → node edges', () => {
    // 1 → 2 → 3 → 4 and a shortcut 1 → 4.
    const edges = [
      { parent: null, node: 1 },
      { parent: 1, node: 2 },
      { parent: 2, node: 3 },
      { parent: 3, node: 4 },
      { parent: 1, node: 4 },
    ];
    expect(shortestPath(edges, 1, 4)).toEqual([1, 4]);
    expect(shortestPath(edges, 1, 3)).toEqual([1, 2, 3]);
    expect(shortestPath(edges, 2, 1)).toBeNull();
    expect(shortestPath(edges, 1, 1)).toEqual([1]);
  });

  it('writes the loop starting and ending with the task the request was made on', () => {
    // Existing 10 → 20 → 30; new edge 30 blocks 10 closes 30 → 10 → 20 → 30.
    expect(cycleFrom(30, 30, [10, 20, 30])).toEqual([30, 10, 20, 30]);
    // The same edge requested on task 10 as "10 blocked_by 30".
    expect(cycleFrom(10, 30, [10, 20, 30])).toEqual([10, 20, 30, 10]);
  });
});
