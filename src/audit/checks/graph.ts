/**
 * The query-click graph of paper 001, rebuilt from the released file: one node per distinct query, an edge
 * between two queries whose sets of clicked URLs intersect. The release keeps the density at or below
 * `--density` (0: no two released queries share a clicked URL) and, with the k-anonymity extension, every
 * released query has ≥ k distinct clicked URLs on ≥ K distinct sites (hosts without `www.`).
 */
import { type AuditCheck, n, Violations } from "../check.ts";

export const clickGraph: AuditCheck = {
  name: "click graph",
  promise: "graph density ≤ --density; with --k/--K, ≥ k clicked URLs on ≥ K sites per query",
  applies: (s) => s.declared.model === "graph-disconnection" && s.released !== undefined,
  run(s, limit) {
    const threshold = typeof s.params.density === "number" ? s.params.density : 0;
    const k = typeof s.params.k === "number" ? s.params.k : 0;
    const K = typeof s.params.K === "number" ? s.params.K : 0;
    const urls = new Map<string, Set<string>>();
    for (const r of s.released!.records) {
      let set = urls.get(r.query);
      if (!set) {
        set = new Set();
        urls.set(r.query, set);
      }
      if (r.clickUrl) set.add(r.clickUrl);
    }
    const queries = [...urls.keys()];
    const byUrl = new Map<string, number[]>();
    queries.forEach((q, i) => {
      for (const u of urls.get(q)!) {
        const list = byUrl.get(u);
        if (list) list.push(i);
        else byUrl.set(u, [i]);
      }
    });
    // Edges counted without storing them (a dense release has too many for a set): each query marks the later
    // queries it shares a URL with.
    const V = queries.length;
    const mark = new Int32Array(V).fill(-1);
    let edges = 0;
    for (let q = 0; q < V; q++) {
      for (const u of urls.get(queries[q]!)!) {
        for (const q2 of byUrl.get(u)!) {
          if (q2 > q && mark[q2] !== q) {
            mark[q2] = q;
            edges++;
          }
        }
      }
    }
    const shared = [...byUrl].filter(([, list]) => list.length > 1);
    const density = V < 2 ? 0 : (2 * edges) / (V * (V - 1));
    const v = new Violations(limit);
    if (density > threshold + 1e-12) {
      for (const [url, list] of shared) {
        v.add(
          () =>
            `${url}: clicked for ${list.length} released queries (${list
              .slice(0, 4)
              .map((i) => JSON.stringify(queries[i]))
              .join(", ")})`,
        );
      }
    }
    if (k > 0 || K > 0) {
      for (const [q, set] of urls) {
        const sites = new Set([...set].map(site)).size;
        if (set.size < k || sites < K) {
          v.add(
            () =>
              `${JSON.stringify(q)}: ${set.size} clicked URL(s) on ${sites} site(s), needs k = ${k}, K = ${K}`,
          );
        }
      }
    }
    return v.outcome(
      `${n(V)} queries, ${n(edges)} edges, density ${density.toPrecision(3)} (≤ ${threshold})`,
    );
  },
};

/** The host of a URL without scheme, port, path and a leading `www.`. */
function site(url: string): string {
  let s = url.trim().toLowerCase();
  const scheme = s.indexOf("://");
  if (scheme >= 0) s = s.slice(scheme + 3);
  const cut = s.search(/[/:?#]/);
  if (cut >= 0) s = s.slice(0, cut);
  return s.replace(/^www\d*\./, "");
}
