/**
 * "clientside": paper 002's client-side protection as a method, so the experiment runner and `anonymize` can put
 * it beside the server-side methods. It is not an anonymization the engine runs: its release is the engine's
 * view — the log the engine would keep if every user forwarded queries through a social network by the
 * protocol (src/clientside/). Every server-side attack and yardstick then applies unchanged; the counts carry the
 * profile exposure level (PEL) distribution for the report. `querymask simulate-clientside` is the full
 * simulator (edge lists, the worst case, the by-neighbours table).
 */
import { readEdgeList } from "../../clientside/edge-list.ts";
import { GRAPH_MODELS, type GraphModel, generateGraph, type SocialGraph } from "../../clientside/graph.ts";
import {
  type ClientsideSummary,
  type ProtocolParams,
  simulateClientside,
} from "../../clientside/simulate.ts";
import type { LogRecord } from "../../log/record.ts";
import type { RejectSink } from "../../log/rejects.ts";
import { type Progress, silentProgress } from "../../util/progress.ts";
import type { Rng } from "../../util/random.ts";
import { intParam, type Method, NO_GUARANTEE, numberParam, ParamError, type Release } from "../method.ts";
import { clientsideInfo } from "./meta.ts";

export interface ClientsideParams extends ProtocolParams {
  /** Generated network model (ignored when `edges` is given). */
  readonly graph: GraphModel;
  /** An edge-list file to use instead of a generated network. */
  readonly edges?: string;
  /** Mean number of neighbours of a generated network. */
  readonly degree: number;
  /** Small-world rewiring probability. */
  readonly rewire: number;
  /** Nodes of a generated network (0 = one per log user). */
  readonly nodes: number;
}

const NAME = "clientside";
const share = (n: number) => (n < 0 || n > 1 ? `must be in [0, 1], got ${n}` : undefined);

export function parseClientside(raw: Readonly<Record<string, unknown>>): ClientsideParams {
  const graph = raw.graph ?? "small-world";
  if (typeof graph !== "string" || !GRAPH_MODELS.includes(graph as GraphModel)) {
    throw new ParamError(
      NAME,
      "graph",
      `must be one of ${GRAPH_MODELS.join(", ")}, got ${JSON.stringify(graph)}`,
    );
  }
  const edges = raw.edges;
  if (edges !== undefined && (typeof edges !== "string" || edges === "")) {
    throw new ParamError(NAME, "edges", "must be a file path");
  }
  const selfish = numberParam(NAME, raw, "selfish", 0, share);
  const colluding = numberParam(NAME, raw, "colluding", 0, share);
  if (selfish + colluding > 1)
    throw new ParamError(NAME, "colluding", "selfish + colluding must be at most 1");
  const worstCase = intParam(NAME, raw, "worstCase", 0, 0, 1_000_000);
  return {
    graph: graph as GraphModel,
    ...(edges === undefined ? {} : { edges: edges as string }),
    degree: intParam(NAME, raw, "degree", 6, 1),
    rewire: numberParam(NAME, raw, "rewire", 0.2, share),
    nodes: intParam(NAME, raw, "nodes", 0, 0),
    maxHops: intParam(NAME, raw, "maxHops", 1, 0, 1000),
    selfish,
    colluding,
    hopMs: numberParam(NAME, raw, "hopMs", 100, (n) => (n < 0 ? `must be ≥ 0, got ${n}` : undefined)),
    depth: intParam(NAME, raw, "depth", 1, 1, 20),
    worstCase,
  };
}

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
  ...clientsideInfo,
  parse: parseClientside,
  async anonymize(input, params, ctx): Promise<Release> {
    const users = new Set(input.records.map((r) => r.user)).size;
    const { graph } = await buildNetwork(params, users, ctx.rng.derive("network"));
    const log = { ...input, records: (await withCategories(input.records, ctx.progress)).records };
    const sim = simulateClientside(log, graph, params, ctx.rng.derive("simulation"), ctx.progress);
    return { log: sim.view, origin: sim.origin, counts: summaryCounts(sim.summary), guarantee: NO_GUARANTEE };
  },
};
