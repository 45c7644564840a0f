/**
 * "clientside": paper 002's client-side protection as a method, so the experiment runner and `anonymize` can put
 * it beside the server-side methods. It is not an anonymization the engine runs: its release is the engine's
 * view — the log the engine would keep if every user forwarded queries through a social network by the
 * protocol (src/clientside/). Every server-side attack and yardstick then applies unchanged; the counts carry the
 * profile exposure level (PEL) distribution for the report. `querymask simulate-clientside` is the full
 * simulator (edge lists, the worst case, the by-neighbours table).
 */
import { readEdgeList } from "../../clientside/edge-list.ts";
import { generateGraph, type SocialGraph } from "../../clientside/graph.ts";
import { type ClientsideSummary, simulateClientside } from "../../clientside/simulate.ts";
import type { LogRecord } from "../../log/record.ts";
import type { RejectSink } from "../../log/rejects.ts";
import { type Progress, silentProgress } from "../../util/progress.ts";
import type { Rng } from "../../util/random.ts";
import { type Method, NO_GUARANTEE, ParamError, type Release } from "../method.ts";
import { type ClientsideParams, clientsideDeclaration } from "./meta.ts";

export type { ClientsideParams } from "./meta.ts";

/** The social network of a run: the edge list when given, else a generated graph of `nodes` (or `users`) nodes. */
export async function buildNetwork(
  params: ClientsideParams,
  users: number,
  rng: Rng,
  rejects?: RejectSink,
): Promise<{ graph: SocialGraph; source: string; duplicates: number; rejected: number }> {
  if (params.edges !== undefined) {
    const r = await readEdgeList(params.edges, rejects);
    return { ...r, source: params.edges };
  }
  const nodes = params.nodes || users;
  if (nodes > 0 && params.degree >= nodes)
    throw new ParamError(
      "clientside",
      "degree",
      `must be below the number of nodes (${nodes}${params.nodes ? "" : ", one per log user"}), got ${params.degree}`,
    );
  const graph = generateGraph(
    { model: params.graph, nodes, degree: params.degree, rewire: params.rewire },
    rng,
  );
  return {
    graph,
    source: `${params.graph} (${nodes} nodes, degree ${params.degree})`,
    duplicates: 0,
    rejected: 0,
  };
}

/**
 * The records with a category each, for the profiles PEL compares: as they are when the log is classified,
 * else copies classified by the project classifier (loaded on demand, as the swap does). The queries are left
 * as they are — the engine sees what users type. Without a classifier the records come back as they are, with
 * a note, and PEL is n/a (`pelUsers` 0).
 */
export async function withCategories(
  records: LogRecord[],
  progress: Progress = silentProgress,
): Promise<{ records: LogRecord[]; note?: string }> {
  if (records.every((r) => r.category !== undefined)) return { records };
  const spec = "../../classify/classifier.ts";
  let classifier: { classify(q: string): { category: string } };
  try {
    const mod = await import(spec);
    classifier = await mod.Classifier.create();
  } catch (err) {
    return {
      records,
      note: `classifier not available (${(err as Error).message.split("\n")[0]}): PEL is n/a`,
    };
  }
  const memo = new Map<string, string>();
  progress.start("classify", records.length);
  const out = records.map((r, i) => {
    if ((i & 4095) === 4095) progress.tick(4096);
    if (r.category !== undefined) return r;
    let c = memo.get(r.query);
    if (c === undefined) {
      c = r.query === "" ? "" : classifier.classify(r.query).category;
      memo.set(r.query, c);
    }
    return { ...r, category: c };
  });
  progress.tick(records.length & 4095);
  progress.stop();
  return { records: out };
}

/** The summary's numbers as method counts (the report reads the PEL ones). */
export function summaryCounts(s: ClientsideSummary): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(s)) if (typeof v === "number") out[k] = v;
  return out;
}

export const clientside: Method<ClientsideParams> = {
  ...clientsideDeclaration,
  parse: (raw) => clientsideDeclaration.params.parse(raw),
  async anonymize(input, params, ctx): Promise<Release> {
    const users = new Set(input.records.map((r) => r.user)).size;
    const { graph } = await buildNetwork(params, users, ctx.rng.derive("network"));
    const log = { ...input, records: (await withCategories(input.records, ctx.progress)).records };
    const sim = simulateClientside(log, graph, params, ctx.rng.derive("simulation"), ctx.progress);
    return { log: sim.view, origin: sim.origin, counts: summaryCounts(sim.summary), guarantee: NO_GUARANTEE };
  },
};
