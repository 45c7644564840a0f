/**
 * The social network of the client-side protocol (paper 002, part 1): an undirected simple graph whose nodes
 * are people and whose edges are the friendships a query may travel along. It comes from an edge-list file
 * (`edge-list.ts`) or from one of two seeded generators: a small world (Watts–Strogatz) or a scale-free graph
 * (Barabási–Albert). The same seed always gives the same graph: every random choice goes through {@link Rng}
 * and every adjacency list is sorted.
 */
import type { Rng } from "../util/random.ts";

export interface SocialGraph {
  /** Node names: the labels of an edge-list file, or "0", "1", … for a generated graph. */
  readonly labels: readonly string[];
  /** The labels are people's names (an edge list), so log users may be placed on them by name. */
  readonly named?: boolean;
  /** Sorted neighbour indices of each node (no self-loops, no duplicates; symmetric). */
  readonly adj: readonly (readonly number[])[];
}

export type GraphModel = "small-world" | "scale-free";

export const GRAPH_MODELS: readonly GraphModel[] = ["small-world", "scale-free"];

export interface GraphSpec {
  readonly model: GraphModel;
  readonly nodes: number;
  /** Mean degree: the ring's k for a small world (made even), 2·m for a scale-free graph. */
  readonly degree: number;
  /** Small world only: the probability that a ring edge is rewired to a random node. */
  readonly rewire: number;
}

/** Build a graph from sets of neighbours: sorted, symmetric lists. */
function freeze(labels: readonly string[], sets: readonly Set<number>[]): SocialGraph {
  return { labels, adj: sets.map((s) => [...s].sort((a, b) => a - b)) };
}

const numbered = (n: number) => Array.from({ length: n }, (_, i) => String(i));

/**
 * Watts–Strogatz small world: a ring where each node is joined to its k/2 nearest nodes on each side, then
 * each ring edge (i, i+j) is rewired with probability `rewire` to (i, w) for a uniform w that is neither i nor
 * already a neighbour of i. With n ≤ k the graph is complete.
 */
export function smallWorld(n: number, degree: number, rewire: number, rng: Rng): SocialGraph {
  const sets = Array.from({ length: n }, () => new Set<number>());
  const link = (a: number, b: number) => {
    sets[a]!.add(b);
    sets[b]!.add(a);
  };
  const half = Math.max(1, Math.floor(degree / 2));
  if (n <= 2 * half) {
    for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) link(a, b);
    return freeze(numbered(n), sets);
  }
  for (let i = 0; i < n; i++) for (let j = 1; j <= half; j++) link(i, (i + j) % n);
  for (let j = 1; j <= half; j++) {
    for (let i = 0; i < n; i++) {
      const b = (i + j) % n;
      if (rng.float() >= rewire || !sets[i]!.has(b)) continue;
      if (sets[i]!.size >= n - 1) continue; // i already knows everyone: nowhere to rewire to
      let w = rng.int(n);
      while (w === i || sets[i]!.has(w)) w = rng.int(n);
      sets[i]!.delete(b);
      sets[b]!.delete(i);
      link(i, w);
    }
  }
  return freeze(numbered(n), sets);
}

/**
 * Barabási–Albert scale-free graph: start from a clique of m + 1 nodes, then each new node joins m distinct
 * existing nodes drawn with probability proportional to their degree (the list of edge ends, drawn from
 * uniformly, is the degree-weighted urn). m = max(1, round(degree / 2)).
 */
export function scaleFree(n: number, degree: number, rng: Rng): SocialGraph {
  const m = Math.max(1, Math.round(degree / 2));
  const sets = Array.from({ length: n }, () => new Set<number>());
  const ends: number[] = [];
  const link = (a: number, b: number) => {
    sets[a]!.add(b);
    sets[b]!.add(a);
    ends.push(a, b);
  };
  const seed = Math.min(n, m + 1);
  for (let a = 0; a < seed; a++) for (let b = a + 1; b < seed; b++) link(a, b);
  for (let v = seed; v < n; v++) {
    const chosen = new Set<number>();
    while (chosen.size < Math.min(m, v)) chosen.add(ends[rng.int(ends.length)]!);
    for (const u of [...chosen].sort((a, b) => a - b)) link(v, u);
  }
  return freeze(numbered(n), sets);
}

export function generateGraph(spec: GraphSpec, rng: Rng): SocialGraph {
  return spec.model === "small-world"
    ? smallWorld(spec.nodes, spec.degree, spec.rewire, rng)
    : scaleFree(spec.nodes, spec.degree, rng);
}

/** Number of undirected edges. */
export function edgeCount(g: SocialGraph): number {
  let s = 0;
  for (const a of g.adj) s += a.length;
  return s / 2;
}
