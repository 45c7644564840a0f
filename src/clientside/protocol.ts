/**
 * The forwarding rule of the client-side protocol (paper 002, part 1; Erola et al. 2011), one query at a time.
 *
 * A node holding a query draws one member of {itself} ∪ {its neighbours} uniformly at random. If it draws
 * itself it submits the query to the engine; otherwise the query travels one hop to the drawn neighbour. A query
 * travels at most `maxHops` hops: a node that receives it after `maxHops` hops submits it (`maxHops` = 1, the
 * default, is the protocol as published — the chosen friend submits; 0 = nobody forwards, the unprotected
 * baseline). Beyond the first hop the author is left out of the draw, so a query never comes back to its author
 * (ours: letting it come back gave the author's own id a quarter of her queries at 2 hops on degree 6, more
 * than at 1 hop — docs/methods/clientside.md). Nodes that do not follow the protocol (the adversaries of the paper):
 *  - selfish: submits its own queries directly, and submits a query it receives without forwarding it on;
 *  - colluding: routes like an honest node but tells the engine the author of every query that reaches it, so
 *    the engine files that query under its author's id whoever submits it.
 * docs/methods/clientside.md lists each rule with its source.
 */
import type { Rng } from "../util/random.ts";
import type { SocialGraph } from "./graph.ts";

export const HONEST = 0;
export const SELFISH = 1;
export const COLLUDING = 2;
export type Role = typeof HONEST | typeof SELFISH | typeof COLLUDING;

export interface Route {
  /** The node that submits the query to the engine. */
  readonly submitter: number;
  /** The node whose id the engine files the query under (the author when a colluder reported it). */
  readonly filed: number;
  /** Hops travelled (0 = submitted by its author). */
  readonly hops: number;
}

/** Route one query written by node `author`. */
export function routeQuery(
  author: number,
  graph: SocialGraph,
  roles: Uint8Array,
  maxHops: number,
  rng: Rng,
): Route {
  let at = author;
  let hops = 0;
  let reported = false;
  while (hops < maxHops && roles[at] !== SELFISH) {
    const friends = graph.adj[at]!;
    // After the first hop the author is no longer a candidate: a query never comes back to its author.
    const back = hops > 0 ? friends.indexOf(author) : -1;
    const k = rng.int(friends.length + (back >= 0 ? 0 : 1)); // 0 = itself, i > 0 = the i-th friend
    if (k === 0) break;
    at = friends[back >= 0 && k - 1 >= back ? k : k - 1]!;
    hops++;
    if (roles[at] === COLLUDING) reported = true;
  }
  return { submitter: at, filed: reported ? author : at, hops };
}

/**
 * Roles for `n` nodes: round(selfish · n) selfish and round(colluding · n) colluding nodes, drawn without
 * replacement (disjoint), the rest honest.
 */
export function assignRoles(n: number, selfish: number, colluding: number, rng: Rng): Uint8Array {
  const roles = new Uint8Array(n);
  const order = rng.shuffle(Array.from({ length: n }, (_, i) => i));
  const s = Math.round(selfish * n);
  const c = Math.min(n - s, Math.round(colluding * n));
  for (let i = 0; i < s; i++) roles[order[i]!] = SELFISH;
  for (let i = s; i < s + c; i++) roles[order[i]!] = COLLUDING;
  return roles;
}
