/**
 * The extension towards k-anonymity of paper 001 (§7.4.3): before disconnecting the graph, remove
 * (a) vulnerable queries, (b) queries with fewer than k results and (c) queries with results from fewer than K
 * sites.
 *
 * The paper counts the results the search engine *displays* for a query. A log has no result lists, so the
 * clicked URLs stand in for them: results(v) = distinct URLs clicked for v, sites(v) = distinct hosts among
 * them. This proxy undercounts (unclicked results are invisible), so it removes more queries than the paper's
 * rule would. In the AOL layout ClickURL is already the site (e.g. `http://www.google.com`), so there
 * results(v) and sites(v) nearly coincide.
 *
 * A query is *vulnerable* when it names a site clicked for it: the site's name (the registrable label of the
 * host, e.g. `bankofamerica` for `http://www.bankofamerica.com/`, `bbc` for `news.bbc.co.uk`) equals a run of
 * consecutive words of the query written together (`bank of america online` → `bankofamerica`). Such a query
 * discloses which site the clicks went to even when URLs are withheld (paper §7.3.4, ATTACK 1a).
 */
import { hostOf } from "../../log/host.ts";
import type { QueryGraph } from "./query-graph.ts";

/** Why a node was removed before the disconnection, in the paper's order (first reason wins). */
export const Reason = { Kept: 0, Vulnerable: 1, FewResults: 2, FewSites: 3 } as const;

export interface KAnonymityOptions {
  /** Remove queries that name a clicked site. */
  readonly vulnerable: boolean;
  /** Minimum distinct results (clicked URLs); 0 = no rule. */
  readonly k: number;
  /** Minimum distinct sites (hosts) among them; 0 = no rule. */
  readonly K: number;
}

/** Second-level labels under which the registrable name is one level further left (bbc.co.uk). */
const GENERIC_SECOND_LEVEL = new Set(["co", "com", "org", "net", "ac", "gov", "edu", "ne", "or", "go"]);

/** The site's name: its registrable label (`bankofamerica.com` → `bankofamerica`); "" for an IP or a bare TLD. */
export function siteName(url: string): string {
  const host = hostOf(url);
  if (/^[\d.]+$/.test(host)) return "";
  const labels = host.split(".").filter((x) => x !== "");
  if (labels.length < 2) return labels[0] ?? "";
  let i = labels.length - 2;
  if (i > 0 && GENERIC_SECOND_LEVEL.has(labels[i]!) && labels[labels.length - 1]!.length === 2) i--;
  return labels[i]!.replace(/[^a-z0-9]/g, "");
}

/** All concatenations of runs of consecutive words of `query` (letters and digits only). */
export function wordRuns(query: string): Set<string> {
  const words = query
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== "");
  const runs = new Set<string>();
  const max = Math.min(words.length, 12);
  for (let i = 0; i < words.length; i++) {
    let run = "";
    for (let j = i; j < words.length && j < i + max; j++) {
      run += words[j]!;
      runs.add(run);
    }
  }
  return runs;
}

/** Whether `query` names the site of one of `urls` (names shorter than 3 characters are ignored). */
export function namesClickedSite(query: string, urls: Iterable<string>): boolean {
  let runs: Set<string> | undefined;
  for (const url of urls) {
    const name = siteName(url);
    if (name.length < 3) continue;
    runs ??= wordRuns(query);
    if (runs.has(name)) return true;
  }
  return false;
}

/** The reason each node is removed by the extension (Reason.Kept when it stays). */
export function kAnonymityFilter(g: QueryGraph, options: KAnonymityOptions): Uint8Array {
  const n = g.queries.length;
  const reasons = new Uint8Array(n);
  if (!options.vulnerable && options.k <= 0 && options.K <= 0) return reasons;
  const hosts = g.urls.map(hostOf);
  for (let v = 0; v < n; v++) {
    const start = g.nodeUrlStart[v]!;
    const end = g.nodeUrlStart[v + 1]!;
    if (options.vulnerable) {
      const urls: string[] = [];
      for (let i = start; i < end; i++) urls.push(g.urls[g.nodeUrls[i]!]!);
      if (namesClickedSite(g.queries[v]!, urls)) {
        reasons[v] = Reason.Vulnerable;
        continue;
      }
    }
    if (end - start < options.k) {
      reasons[v] = Reason.FewResults;
      continue;
    }
    if (options.K > 0) {
      const sites = new Set<string>();
      for (let i = start; i < end && sites.size < options.K; i++) sites.add(hosts[g.nodeUrls[i]!]!);
      if (sites.size < options.K) reasons[v] = Reason.FewSites;
    }
  }
  return reasons;
}
