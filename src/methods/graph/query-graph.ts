/**
 * The query-click graph of paper 001 (Poblete et al., §7.4.1), held implicitly.
 *
 * A node is a distinct query with the set of URLs clicked for any of its occurrences; two nodes are joined when
 * their URL sets intersect. The edges are never materialised: a popular URL clicked for n queries makes an
 * n-clique (the shared AOL subset has URLs clicked for 1,694 distinct queries), so the graph is kept as the
 * bipartite query–URL incidence in two compressed (CSR) arrays and neighbourhoods are enumerated through the
 * URLs. Node ids are assigned in order of first appearance, which makes every tie-break reproducible.
 */

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
  private frequency: number[] = [];
  private clicks: number[] = [];
  /** One (node, url) entry per click, duplicates included; deduplicated by {@link build}. */
  private pairNodes: number[] = [];
  private pairUrls: number[] = [];

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

  /** One query event (one submission of `query`). Returns its node id. */
  addEvent(query: string): number {
    const v = this.node(query);
    this.frequency[v] = (this.frequency[v] ?? 0) + 1;
    return v;
  }

  /** One click on `url` for `query`. */
  addClick(query: string, url: string): void {
    const v = this.node(query);
    this.clicks[v] = (this.clicks[v] ?? 0) + 1;
    let u = this.urlOf.get(url);
    if (u === undefined) {
      u = this.urls.length;
      this.urlOf.set(url, u);
      this.urls.push(url);
    }
    this.pairNodes.push(v);
    this.pairUrls.push(u);
  }

  build(): QueryGraph {
    const n = this.queries.length;
    const m = this.urls.length;
    // Sort the (node, url) pairs as numbers node·m + url (exact below 2^53) and drop repeats: each node's URLs
    // come out ascending, and each URL's nodes too.
    const keys = new Float64Array(this.pairNodes.length);
    for (let i = 0; i < keys.length; i++) keys[i] = this.pairNodes[i]! * m + this.pairUrls[i]!;
    keys.sort();
    const nodeUrlStart = new Int32Array(n + 1);
    const urlNodeStart = new Int32Array(m + 1);
    let pairs = 0;
    for (let i = 0; i < keys.length; i++) {
      if (i > 0 && keys[i] === keys[i - 1]) continue;
      const k = keys[i]!;
      const v = Math.floor(k / m);
      keys[pairs++] = k;
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
      frequency: Int32Array.from(this.frequency),
      clicks: Int32Array.from(this.clicks),
      nodeUrlStart,
      nodeUrls,
      urlNodeStart,
      urlNodes,
    };
    this.pairNodes = [];
    this.pairUrls = [];
    this.frequency = [];
    this.clicks = [];
    return graph;
  }
}

/** Graph density (Definition 1): 2|E| / (|V|(|V|−1)); 0 for fewer than two nodes. */
export function density(edges: number, nodes: number): number {
  return nodes < 2 ? 0 : (2 * edges) / (nodes * (nodes - 1));
}
