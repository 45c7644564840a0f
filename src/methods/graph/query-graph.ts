/**
 * The query-click graph of paper 001 (Poblete et al., §7.4.1), held implicitly.
 *
 * A node is a distinct query with the set of URLs clicked for any of its occurrences; two nodes are joined when
 * their URL sets intersect. The edges are never materialised: a popular URL clicked for n queries makes an
 * n-clique (the shared AOL subset has URLs clicked for 1,694 distinct queries), so the graph is kept as the
 * bipartite query–URL incidence in two compressed (CSR) arrays and neighbourhoods are enumerated through the
 * URLs. Node ids are assigned in order of first appearance, which makes every tie-break reproducible.
 */
import { IntBuffer } from "../../util/int-buffer.ts";

/** Compressed incidence between queries (nodes) and clicked URLs. */
export interface QueryGraph {
  /** Node id → query text. */
  readonly queries: readonly string[];
  /** URL id → URL as logged. */
  readonly urls: readonly string[];
  /** Node id → number of query events (paper: frequency(v), times any instance of v was submitted). */
  readonly frequency: Int32Array;
  /** Node id → number of clicks on any of its URLs (paper: clicks(v)). */
  readonly clicks: Int32Array;
  /** URLs of node v: `nodeUrls[nodeUrlStart[v] .. nodeUrlStart[v+1])`, distinct. */
  readonly nodeUrlStart: Int32Array;
  readonly nodeUrls: Int32Array;
  /** Nodes of URL u: `urlNodes[urlNodeStart[u] .. urlNodeStart[u+1])`, distinct, ascending. */
  readonly urlNodeStart: Int32Array;
  readonly urlNodes: Int32Array;
}

/** Collects events and clicks, then freezes them into a {@link QueryGraph}. */
export class QueryGraphBuilder {
  private readonly nodeOf = new Map<string, number>();
  private readonly urlOf = new Map<string, number>();
  private readonly queries: string[] = [];
  private readonly urls: string[] = [];
  private frequency = new IntBuffer();
  private clicks = new IntBuffer();
  /** One (node, url) entry per click, repeats included until {@link compact} drops them. */
  private pairNodes = new IntBuffer();
  private pairUrls = new IntBuffer();
  /** Pairs held after the last compaction: the next one runs when there are twice as many. */
  private compactAt: number;

  /** `compactAt`: pairs held before the first compaction (tests set it low). */
  constructor(compactAt = 1 << 20) {
    this.compactAt = compactAt;
  }

  /** The node id of `query`, created on first sight. */
  node(query: string): number {
    let id = this.nodeOf.get(query);
    if (id === undefined) {
      id = this.queries.length;
      this.nodeOf.set(query, id);
      this.queries.push(query);
      this.frequency.push(0);
      this.clicks.push(0);
    }
    return id;
  }

  /** A node with its summed frequency and clicks (aggregates summed elsewhere; call in order of first appearance). */
  addNode(query: string, frequency: number, clicks: number): number {
    const v = this.node(query);
    this.frequency.data[v]! += frequency;
    this.clicks.data[v]! += clicks;
    return v;
  }

  /** The URL id of `url`, created on first sight. */
  url(url: string): number {
    let u = this.urlOf.get(url);
    if (u === undefined) {
      u = this.urls.length;
      this.urlOf.set(url, u);
      this.urls.push(url);
    }
    return u;
  }

  /** That some click on `url` was for `query`, both already added (clicks counted by {@link addNode}). */
  addPair(query: string, url: string): void {
    this.pairNodes.push(this.idOf(query));
    this.pairUrls.push(this.url(url));
    if (this.pairNodes.length >= this.compactAt) {
      this.compact();
      this.compactAt = Math.max(this.compactAt, 2 * this.pairNodes.length);
    }
  }

  /** The node id of `query`, or -1 when it was never added. */
  idOf(query: string): number {
    return this.nodeOf.get(query) ?? -1;
  }

  /** One query event (one submission of `query`). Returns its node id. */
  addEvent(query: string): number {
    const v = this.node(query);
    this.frequency.data[v]!++;
    return v;
  }

  /** One click on `url` for `query`. */
  addClick(query: string, url: string): void {
    this.clicks.data[this.node(query)]!++;
    this.url(url);
    this.addPair(query, url);
  }

  /**
   * The distinct (node, url) pairs so far, sorted as numbers node·m + url (exact below 2^53, m = URLs so far):
   * each node's URLs come out ascending, and each URL's nodes too. Repeated clicks (a user's repeated query, many
   * users' popular one) so cost memory only until the next compaction.
   */
  private compact(): Float64Array {
    const m = this.urls.length;
    const n = this.pairNodes.length;
    const keys = new Float64Array(n);
    const nodes = this.pairNodes.data;
    const urls = this.pairUrls.data;
    for (let i = 0; i < n; i++) keys[i] = nodes[i]! * m + urls[i]!;
    keys.sort();
    let pairs = 0;
    for (let i = 0; i < n; i++) {
      if (i > 0 && keys[i] === keys[i - 1]) continue;
      const k = keys[i]!;
      const v = Math.floor(k / m);
      keys[pairs] = k;
      nodes[pairs] = v;
      urls[pairs++] = k - v * m;
    }
    this.pairNodes.length = pairs;
    this.pairUrls.length = pairs;
    return keys.subarray(0, pairs);
  }

  build(): QueryGraph {
    const n = this.queries.length;
    const m = this.urls.length;
    const keys = this.compact();
    const pairs = keys.length;
    const nodeUrlStart = new Int32Array(n + 1);
    const urlNodeStart = new Int32Array(m + 1);
    for (let i = 0; i < pairs; i++) {
      const k = keys[i]!;
      const v = Math.floor(k / m);
      nodeUrlStart[v + 1]!++;
      urlNodeStart[k - v * m + 1]!++;
    }
    for (let v = 0; v < n; v++) nodeUrlStart[v + 1]! += nodeUrlStart[v]!;
    for (let u = 0; u < m; u++) urlNodeStart[u + 1]! += urlNodeStart[u]!;
    const nodeUrls = new Int32Array(pairs);
    const urlNodes = new Int32Array(pairs);
    const urlFill = urlNodeStart.slice(0, m);
    for (let i = 0; i < pairs; i++) {
      const k = keys[i]!;
      const v = Math.floor(k / m);
      const u = k - v * m;
      nodeUrls[i] = u;
      urlNodes[urlFill[u]!++] = v;
    }
    const graph: QueryGraph = {
      queries: this.queries,
      urls: this.urls,
      frequency: this.frequency.data.slice(0, n),
      clicks: this.clicks.data.slice(0, n),
      nodeUrlStart,
      nodeUrls,
      urlNodeStart,
      urlNodes,
    };
    this.pairNodes = new IntBuffer();
    this.pairUrls = new IntBuffer();
    this.frequency = new IntBuffer();
    this.clicks = new IntBuffer();
    return graph;
  }
}

/** Graph density (Definition 1): 2|E| / (|V|(|V|−1)); 0 for fewer than two nodes. */
export function density(edges: number, nodes: number): number {
  return nodes < 2 ? 0 : (2 * edges) / (nodes * (nodes - 1));
}
