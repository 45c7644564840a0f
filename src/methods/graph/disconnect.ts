/**
 * The graph disconnection heuristic of paper 001 (§7.4.1–7.4.2), computed on the query–URL bipartite graph:
 * repeatedly remove the query with the highest sorting property, until no two queries share a clicked URL or
 * the density falls to a threshold.
 *
 * - Method 1: property = degree(v).
 * - Method 2: property = degree(v) / frequency(v) (degree times inverse frequency).
 * - Method 3: property = degree(v) / clicks(v) (degree times inverse number of clicks).
 *
 * **Degree, counted per shared URL.** degree(v) = Σ over v's clicked URLs u of (live queries of u − 1): the
 * number of (URL, other query) intersections v is involved in. The paper's query graph joins two queries once
 * however many URLs they share; the two agree unless two live queries share two or more URLs. Exact degrees on
 * the query graph cost its edge count — a URL clicked for n queries makes n(n−1)/2 edges (1.5 billion on the
 * first 3M generated rows) — and no method avoids that in general: knowing every degree tells whether some two
 * URL sets are disjoint, the orthogonal-vectors problem, believed to need quadratic time. Counted per URL, one
 * removal costs its own URLs: a URL shared by n queries costs n, not n². The edges and the density are counted the
 * same way (Σ over URLs of C(live, 2)), never below the paper's, so a release at density ≤ t has the paper's
 * density ≤ t too (the audit recounts it on the written file).
 *
 * **How.** A query whose only URL with other live queries ("active" URLs) is u has degree live(u) − 1: the
 * queries of one active URL share that key's numerator, so they are held as one group per URL, ordered once
 * (by id for Method 1, by frequency or clicks then id for Methods 2 and 3), and only the group's head sits in
 * the max-heap, with an exact key updated when u loses a query. A query with two or more active URLs sits in the
 * heap itself with an upper bound of its key (degrees only fall), recomputed from the URLs' live counts when it
 * reaches the top (lazy evaluation): the top is taken only once its key is exact, so the order is the one exact
 * keys give. Ties go to the query seen first in the log, so the result is deterministic (no randomness is used).
 * Property tests check the order against a naive recomputation of these degrees, and against the paper's query
 * graph on logs where no two queries share two URLs.
 */
import type { Progress } from "../../util/progress.ts";
import { IndexedMaxHeap } from "./max-heap.ts";
import { density, type QueryGraph } from "./query-graph.ts";

/** The paper's three sorting properties. */
export type Variant = 1 | 2 | 3;

export interface DisconnectOptions {
  readonly variant: Variant;
  /** Stop as soon as the density is at or below this (paper: 0, i.e. fully disconnected). */
  readonly densityThreshold: number;
  /** Nodes still in the graph (1) — others were removed before (k-anonymity filters). Default: all. */
  readonly alive?: Uint8Array;
  readonly progress?: Progress;
  /**
   * Live queries from which a URL counts as heavy (its queries are grouped by it); default {@link heavyFrom}. Any
   * value gives the same removals (tests set it low to exercise the groups on small logs).
   */
  readonly heavyAt?: number;
}

export interface DisconnectResult {
  /** Node ids removed, in order of removal. */
  readonly removed: Int32Array;
  readonly nodesBefore: number;
  /** Pairs of live queries sharing a URL, counted once per shared URL (Σ over URLs of C(live, 2)). */
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

/**
 * A URL is heavy when at least this many live queries share it at the start (and at least 64): few URLs are, and
 * each heavy one is shared by many. Its square root of the incidences balances what a removal on a light URL costs
 * (its queries' bounds go stale) against the number of signatures.
 */
export function heavyFrom(incidences: number): number {
  return Math.max(64, Math.ceil(Math.sqrt(incidences)));
}

/** Run the heuristic on `g`. Does not modify `g`; `options.alive` is copied. */
export function disconnect(g: QueryGraph, options: DisconnectOptions): DisconnectResult {
  const n = g.queries.length;
  const m = g.urls.length;
  const variant = options.variant;
  const alive = options.alive ? options.alive.slice() : new Uint8Array(n).fill(1);
  const { nodeUrlStart, nodeUrls } = g;

  const live = new Int32Array(m);
  let incidences = 0;
  let nodes = 0;
  for (let v = 0; v < n; v++) {
    if (!alive[v]) continue;
    nodes++;
    for (let i = nodeUrlStart[v]!, end = nodeUrlStart[v + 1]!; i < end; i++) live[nodeUrls[i]!]!++;
    incidences += nodeUrlStart[v + 1]! - nodeUrlStart[v]!;
  }
  let edges = 0;
  for (let u = 0; u < m; u++) edges += (live[u]! * (live[u]! - 1)) / 2;
  const nodesBefore = nodes;
  const edgesBefore = edges;
  const densityBefore = density(edges, nodes);

  // degree(v) = heavy part (its heavy URLs: its signature, shared by its group) + light part (the rest).
  const heavyAt = options.heavyAt ?? heavyFrom(incidences);
  const heavy = new Uint8Array(m);
  for (let u = 0; u < m; u++) if (live[u]! >= heavyAt) heavy[u] = 1;
  const lightPart = (v: number): number => {
    let d = 0;
    for (let i = nodeUrlStart[v]!, end = nodeUrlStart[v + 1]!; i < end; i++) {
      const u = nodeUrls[i]!;
      if (!heavy[u]) d += live[u]! - 1;
    }
    return d;
  };

  // Groups: queries with the same heavy URLs (and, for Methods 2 and 3, the same divisor), so that their keys
  // order as their light parts do. Each group is a max-heap by (light bound, then smaller id) in its segment of
  // `members`; only its head sits in the global heap.
  const weight = variant === 2 ? g.frequency : variant === 3 ? g.clicks : undefined;
  const signatureOf = new Map<string, number>();
  const sigStart: number[] = [0];
  const sigUrls: number[] = [];
  const groupId = new Map<string, number>();
  const groupSig: number[] = [];
  const groupOf = new Int32Array(n).fill(-1);
  const lightBound = new Float64Array(n);
  const sizes: number[] = [];
  const heavyUrls: number[] = [];
  for (let v = 0; v < n; v++) {
    if (!alive[v]) continue;
    let degree = 0;
    heavyUrls.length = 0;
    for (let i = nodeUrlStart[v]!, end = nodeUrlStart[v + 1]!; i < end; i++) {
      const u = nodeUrls[i]!;
      degree += live[u]! - 1;
      if (heavy[u]) heavyUrls.push(u);
    }
    if (degree === 0) continue;
    const sigKey = heavyUrls.join(",");
    let sig = signatureOf.get(sigKey);
    if (sig === undefined) {
      sig = sigStart.length - 1;
      signatureOf.set(sigKey, sig);
      sigUrls.push(...heavyUrls);
      sigStart.push(sigUrls.length);
    }
    const key = weight === undefined ? `${sig}` : `${sig}:${Math.max(1, weight[v]!)}`;
    let grp = groupId.get(key);
    if (grp === undefined) {
      grp = groupSig.length;
      groupId.set(key, grp);
      groupSig.push(sig);
      sizes.push(0);
    }
    groupOf[v] = grp;
    sizes[grp]!++;
    lightBound[v] = lightPart(v);
  }
  signatureOf.clear();
  groupId.clear();
  const groups = groupSig.length;
  const groupStart = new Int32Array(groups + 1);
  for (let c = 0; c < groups; c++) groupStart[c + 1] = groupStart[c]! + sizes[c]!;
  const groupSize = Int32Array.from(sizes);
  const members = new Int32Array(groupStart[groups]!);
  {
    const put = groupStart.slice(0, groups);
    for (let v = 0; v < n; v++) if (groupOf[v]! >= 0) members[put[groupOf[v]!]!++] = v;
  }
  const above = (a: number, b: number): boolean =>
    lightBound[a]! > lightBound[b]! || (lightBound[a] === lightBound[b] && a < b);
  /** Restore the heap order of group c's segment from its slot `at` down. */
  const siftDown = (c: number, at: number): void => {
    const base = groupStart[c]!;
    const size = groupSize[c]!;
    const x = members[base + at]!;
    let i = at;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= size) break;
      const r = l + 1;
      const best = r < size && above(members[base + r]!, members[base + l]!) ? r : l;
      if (!above(members[base + best]!, x)) break;
      members[base + i] = members[base + best]!;
      i = best;
    }
    members[base + i] = x;
  };
  for (let c = 0; c < groups; c++) for (let i = (groupSize[c]! >> 1) - 1; i >= 0; i--) siftDown(c, i);
  const heavyPart = (sig: number): number => {
    let d = 0;
    for (let j = sigStart[sig]!, end = sigStart[sig + 1]!; j < end; j++) d += live[sigUrls[j]!]! - 1;
    return d;
  };
  const heap = new IndexedMaxHeap(n);
  /** Put group c's head in the heap, keyed by its light bound and the current heavy part. */
  const enter = (c: number): void => {
    if (groupSize[c] === 0) return;
    const h = members[groupStart[c]!]!;
    heap.set(h, priority(g, variant, h, heavyPart(groupSig[c]!) + lightBound[h]!));
  };
  for (let c = 0; c < groups; c++) enter(c);

  const removed: number[] = [];
  const progress = options.progress;
  progress?.start("graph: disconnecting", nodes);
  while (edges > 0 && density(edges, nodes) > options.densityThreshold) {
    const v = heap.peek();
    if (v < 0) break;
    const c = groupOf[v]!;
    // The key is an upper bound until checked: take v only once its light part and its heavy part are exact.
    const light = lightPart(v);
    if (light !== lightBound[v]) {
      lightBound[v] = light;
      siftDown(c, 0);
      heap.delete(v);
      enter(c);
      continue;
    }
    const key = priority(g, variant, v, heavyPart(groupSig[c]!) + light);
    if (key !== heap.keyOf(v)) {
      heap.set(v, key);
      continue;
    }
    heap.pop();
    const last = --groupSize[c]!;
    if (last > 0) {
      members[groupStart[c]!] = members[groupStart[c]! + last]!;
      siftDown(c, 0);
    }
    alive[v] = 0;
    removed.push(v);
    nodes--;
    for (let i = nodeUrlStart[v]!, end = nodeUrlStart[v + 1]!; i < end; i++) {
      const u = nodeUrls[i]!;
      edges -= --live[u]!;
    }
    enter(c);
    progress?.tick();
  }
  progress?.stop();
  return {
    removed: Int32Array.from(removed),
    nodesBefore,
    edgesBefore,
    densityBefore,
    nodesAfter: nodes,
    edgesAfter: edges,
    densityAfter: density(edges, nodes),
  };
}
