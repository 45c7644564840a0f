/**
 * The graph disconnection heuristic of paper 001 (§7.4.1–7.4.2): repeatedly remove the node with the highest
 * sorting property and its edges, until the density is 0 or falls to a threshold.
 *
 * - Method 1: property = degree(v).
 * - Method 2: property = degree(v) / frequency(v) (degree times inverse frequency).
 * - Method 3: property = degree(v) / clicks(v) (degree times inverse number of clicks).
 *
 * Degrees are kept incrementally: removing v lowers by one the degree of each neighbour (step 5 of the paper
 * recalculates only the neighbours), and an indexed max-heap gives the next node in O(log n). Ties go to the
 * query seen first in the log.
 */
import type { Progress } from "../../util/progress.ts";
import { IndexedMaxHeap } from "./max-heap.ts";
import { degrees, density, type QueryGraph } from "./query-graph.ts";

/** The paper's three sorting properties. */
export type Variant = 1 | 2 | 3;

export interface DisconnectOptions {
  readonly variant: Variant;
  /** Stop as soon as the density is at or below this (paper: 0, i.e. fully disconnected). */
  readonly densityThreshold: number;
  /** Nodes still in the graph (1) — others were removed before (k-anonymity filters). Default: all. */
  readonly alive?: Uint8Array;
  readonly progress?: Progress;
}

export interface DisconnectResult {
  /** Node ids removed, in order of removal. */
  readonly removed: Int32Array;
  readonly nodesBefore: number;
  readonly edgesBefore: number;
  readonly densityBefore: number;
  readonly nodesAfter: number;
  readonly edgesAfter: number;
  readonly densityAfter: number;
}

/** The sorting property of node v under `variant`, given its current degree. */
export function priority(g: QueryGraph, variant: Variant, v: number, degree: number): number {
  switch (variant) {
    case 1:
      return degree;
    case 2:
      return degree / Math.max(1, g.frequency[v]!);
    case 3:
      return degree / Math.max(1, g.clicks[v]!);
  }
}

/** Run the heuristic on `g`. Does not modify `g`; `options.alive` is copied. */
export function disconnect(g: QueryGraph, options: DisconnectOptions): DisconnectResult {
  const n = g.queries.length;
  const alive = options.alive ? options.alive.slice() : new Uint8Array(n).fill(1);
  const deg = degrees(g, alive);
  let nodes = 0;
  let twiceEdges = 0;
  const heap = new IndexedMaxHeap(n);
  for (let v = 0; v < n; v++) {
    if (!alive[v]) continue;
    nodes++;
    twiceEdges += deg[v]!;
    if (deg[v]! > 0) heap.set(v, priority(g, options.variant, v, deg[v]!));
  }
  const nodesBefore = nodes;
  const edgesBefore = twiceEdges / 2;
  const densityBefore = density(edgesBefore, nodes);

  // Each URL's live node list is compacted in place as nodes die: live entries first, `live[u]` of them.
  const urlNodes = g.urlNodes.slice();
  const live = new Int32Array(g.urls.length);
  for (let u = 0; u < g.urls.length; u++) {
    let w = g.urlNodeStart[u]!;
    for (let j = w, end = g.urlNodeStart[u + 1]!; j < end; j++) {
      if (alive[urlNodes[j]!]) urlNodes[w++] = urlNodes[j]!;
    }
    live[u] = w - g.urlNodeStart[u]!;
  }
  const stamp = new Int32Array(n).fill(-1);
  const removed: number[] = [];
  const progress = options.progress;
  progress?.start("graph: disconnecting", heap.size);

  while (twiceEdges > 0 && density(twiceEdges / 2, nodes) > options.densityThreshold) {
    const v = heap.pop();
    if (v < 0) break;
    alive[v] = 0;
    removed.push(v);
    nodes--;
    twiceEdges -= 2 * deg[v]!;
    deg[v] = 0;
    stamp[v] = v;
    for (let i = g.nodeUrlStart[v]!, end = g.nodeUrlStart[v + 1]!; i < end; i++) {
      const u = g.nodeUrls[i]!;
      const start = g.urlNodeStart[u]!;
      let last = start + live[u]! - 1;
      for (let j = start; j <= last; j++) {
        const x = urlNodes[j]!;
        if (x === v) {
          // Swap v out of the live part and look at the entry moved into slot j.
          urlNodes[j] = urlNodes[last]!;
          urlNodes[last] = v;
          last--;
          j--;
          continue;
        }
        if (stamp[x] === v) continue;
        stamp[x] = v;
        const d = --deg[x]!;
        if (d === 0) heap.delete(x);
        else heap.set(x, priority(g, options.variant, x, d));
      }
      live[u] = last - start + 1;
    }
    progress?.tick();
  }
  progress?.stop();
  return {
    removed: Int32Array.from(removed),
    nodesBefore,
    edgesBefore,
    densityBefore,
    nodesAfter: nodes,
    edgesAfter: twiceEdges / 2,
    densityAfter: density(twiceEdges / 2, nodes),
  };
}
