/**
 * The disconnection heuristic on the paper's query graph (one edge per pair of queries sharing a URL, however many
 * they share), written the direct way, at a cost of the graph's edge count: the oracle the method's per-URL
 * computation is checked against on logs where no two queries share two URLs (where both count the same degrees).
 * Tests only; the method is src/methods/graph/disconnect.ts.
 */
import {
  type DisconnectOptions,
  type DisconnectResult,
  priority,
} from "../../src/methods/graph/disconnect.ts";
import { IndexedMaxHeap } from "../../src/methods/graph/max-heap.ts";
import { density, type QueryGraph } from "../../src/methods/graph/query-graph.ts";

/**
 * Degrees of all nodes among the `alive` ones (all when omitted): the number of other alive nodes sharing at
 * least one URL. Cost Σ over URLs of (nodes of the URL)², which is the edge count up to duplicates.
 */
export function degrees(g: QueryGraph, alive?: Uint8Array): Int32Array {
  const n = g.queries.length;
  const deg = new Int32Array(n);
  const stamp = new Int32Array(n).fill(-1);
  for (let v = 0; v < n; v++) {
    if (alive && !alive[v]) continue;
    let d = 0;
    stamp[v] = v;
    for (let i = g.nodeUrlStart[v]!, end = g.nodeUrlStart[v + 1]!; i < end; i++) {
      const u = g.nodeUrls[i]!;
      for (let j = g.urlNodeStart[u]!, jend = g.urlNodeStart[u + 1]!; j < jend; j++) {
        const x = g.urlNodes[j]!;
        if (stamp[x] === v || (alive && !alive[x])) continue;
        stamp[x] = v;
        d++;
      }
    }
    deg[v] = d;
  }
  return deg;
}

/** Run the heuristic on `g`. Does not modify `g`; `options.alive` is copied. */
export function paperDisconnect(g: QueryGraph, options: DisconnectOptions): DisconnectResult {
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
