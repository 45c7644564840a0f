/**
 * `querymask simulate-clientside <log…> [-o view.log]`: paper 002's client-side protection, simulated. Each node
 * of a social network (an edge-list file, or a seeded small-world or scale-free graph) takes the personality of
 * one log user and sends that user's queries; the protocol forwards each one to a friend or not; the engine's
 * view (every query under the id it was filed under) goes to `-o`, in the input's format, so every attack and
 * yardstick applies to it. Prints the profile exposure level (PEL) distribution, the share of users above 70%
 * and 80% of uncertainty (100 − PEL) by number of neighbours, the cost, and with `--worst-case N` the synthetic worst case.
 */
import type { Command } from "commander";
import { simulateClientside, UNCERTAINTY_THRESHOLDS } from "../../clientside/simulate.ts";
import { loadLog } from "../../log/read.ts";
import { RejectSink } from "../../log/rejects.ts";
import { writeLog } from "../../log/write.ts";
import { buildNetwork, withCategories } from "../../methods/clientside/index.ts";
import { clientsideParams } from "../../methods/clientside/meta.ts";
import { methodRng } from "../../methods/method.ts";
import {
  addInputOptions,
  checkOutputs,
  DEFAULT_SEED,
  fileOutputs,
  formatNumber,
  type InputFlags,
  parseSeed,
  printTable,
  readOptions,
  reportRejects,
} from "../shared.ts";

interface Flags extends InputFlags {
  out?: string;
  edges?: string;
  graph: string;
  degree: string;
  rewire: string;
  nodes: string;
  maxHops: string;
  selfish: string;
  colluding: string;
  hopMs: string;
  depth: string;
  worstCase: string;
  seed: number;
  json?: boolean;
}

const fmt = (v: number | null | undefined, digits = 1) => (v == null ? "n/a" : v.toFixed(digits));

export function register(program: Command): void {
  const cmd = program
    .command("simulate-clientside")
    .description(
      "simulate client-side protection (Erola et al. 2011): queries forwarded through a social network",
    )
    .argument("<log...>", "log files or glob patterns whose users the network's nodes impersonate")
    .option(
      "-o, --out <file>",
      "the engine's view: every query under the id it was filed under (input's format)",
    )
    .option(
      "--edges <file>",
      "social network as an edge list (two node names per line) instead of a generated one",
    )
    .option("--graph <model>", "generated network: small-world or scale-free", "small-world")
    .option("--degree <n>", "mean number of neighbours of a generated network", "6")
    .option("--rewire <p>", "small-world rewiring probability", "0.2")
    .option("--nodes <n>", "nodes of a generated network (0 = one per log user)", "0")
    .option("--max-hops <n>", "most hops a query travels (1 = as published; 0 = nobody forwards)", "1")
    .option("--selfish <share>", "share of nodes that submit their own queries directly", "0")
    .option("--colluding <share>", "share of nodes that report the authors of queries they receive", "0")
    .option("--hop-ms <ms>", "one-way delay of one hop between friends (cost model)", "100")
    .option("--depth <n>", "category depth of the profiles PEL compares (1 = top-level)", "1")
    .option(
      "--worst-case <copies>",
      "also run the worst case: each user sends one unique query this many times",
      "0",
    )
    .option("--seed <n>", "random seed (network, placement, roles, routes)", parseSeed, DEFAULT_SEED)
    .option("--json", "print the summary as JSON")
    .addHelpText(
      "after",
      `\nExamples:\n  querymask simulate-clientside data/excite/excite-small.log --seed 7 -o view.log\n  querymask simulate-clientside log.tsv --edges friends.txt --selfish 0.1 --worst-case 100 --json`,
    );
  addInputOptions(cmd).action(async (inputs: string[], flags: Flags) => {
    const params = clientsideParams.parse({
      graph: flags.graph,
      ...(flags.edges === undefined ? {} : { edges: flags.edges }),
      degree: flags.degree,
      rewire: flags.rewire,
      nodes: flags.nodes,
      maxHops: flags.maxHops,
      selfish: flags.selfish,
      colluding: flags.colluding,
      hopMs: flags.hopMs,
      depth: flags.depth,
      worstCase: flags.worstCase,
    });
    const opts = readOptions(flags, flags.out);
    const edgeRejectsPath = flags.lenient ? `${flags.out ?? "clientside"}.edges.rejects.tsv` : undefined;
    await checkOutputs(
      [...inputs, ...(flags.edges === undefined ? [] : [{ path: flags.edges, role: "edge list" }])],
      [
        ...fileOutputs(flags.out, opts.rejectsPath),
        edgeRejectsPath === undefined ? undefined : { path: edgeRejectsPath, role: "edge reject file" },
      ],
    );
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    opts.progress.start("reading");
    const log = await loadLog(inputs, opts);
    opts.progress.stop();
    const { records, note } = await withCategories(log.records, opts.progress);
    const notes = note ? [note] : [];
    const edgeRejects = edgeRejectsPath === undefined ? undefined : new RejectSink(edgeRejectsPath);
    // The stream `anonymize --method clientside` uses, so the same seed gives the same view through either.
    const rng = methodRng(flags.seed);
    const users = new Set(records.map((r) => r.user)).size;
    const net = await buildNetwork(params, users, rng.derive("network"), edgeRejects);
    await edgeRejects?.close();
    const sim = simulateClientside(
      { ...log, records },
      net.graph,
      params,
      rng.derive("simulation"),
      opts.progress,
    );
    if (flags.out !== undefined) await writeLog(flags.out, sim.view);
    const cpu = process.cpuUsage(cpu0);
    const s = sim.summary;
    reportRejects(log.rejected, opts.rejectsPath);
    if (net.rejected > 0) reportRejects(net.rejected, edgeRejects?.path);
    const summary = {
      network: net.source,
      seed: flags.seed,
      params,
      out: flags.out ?? null,
      rejected: log.rejected,
      edgesRejected: net.rejected,
      duplicateEdges: net.duplicates,
      seconds: (performance.now() - t0) / 1000,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      notes,
      ...s,
    };
    if (flags.json) {
      process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
      return;
    }
    for (const n of notes) process.stderr.write(`note: ${n}\n`);
    printTable([
      ["network", net.source],
      [
        "users / nodes / friendships",
        `${s.users} / ${s.nodes} / ${s.edges} (mean ${fmt(s.meanNeighbours)} neighbours)`,
      ],
      ["selfish / colluding nodes", `${s.selfishNodes} / ${s.colludingNodes}`],
      ["query events", s.events],
      ["forwarded", `${fmt(s.forwarded)}%`],
      ["reported by colluders", s.reported],
      ["hops: mean / max", `${fmt(s.meanHops, 3)} / ${s.maxHops}`],
      ["added latency: mean / p95", `${fmt(s.meanLatencyMs)} / ${fmt(s.p95LatencyMs)} ms`],
      [
        "users with a PEL (no PEL)",
        `${s.pelUsers} (${s.pelUndefined}: one-category or unclassified profile)`,
      ],
      ["PEL mean", fmt(s.meanPel)],
      [
        "PEL p10 / p25 / p50 / p75 / p90",
        [s.pelP10, s.pelP25, s.pelP50, s.pelP75, s.pelP90].map((v) => fmt(v)).join(" / "),
      ],
      [
        `uncertainty (100 − PEL) > ${UNCERTAINTY_THRESHOLDS[0]} / > ${UNCERTAINTY_THRESHOLDS[1]}`,
        `${fmt(s.uncertaintyAbove70)}% / ${fmt(s.uncertaintyAbove80)}% of users`,
      ],
      ...(s.worstCase
        ? ([
            ["worst case: copies per user", s.worstCase.copies],
            ["worst case: own id's share", `${fmt(100 * s.worstCase.meanOwnShare)}%`],
            ["worst case: ids per user", fmt(s.worstCase.meanIds, 2)],
            ["worst case: author = top id", `${fmt(s.worstCase.attributed)}%`],
          ] as [string, string | number][])
        : []),
      ["output", flags.out ?? "(none: -o not given)"],
      ["seconds (CPU)", `${summary.seconds.toFixed(2)} (${summary.cpuSeconds.toFixed(2)})`],
    ]);
    process.stdout.write("\nneighbours  users  with PEL  mean PEL  % users with uncertainty >70 / >80\n");
    for (const r of s.byNeighbours) {
      process.stdout.write(
        `${r.neighbours.padEnd(10)}  ${formatNumber(r.users).padStart(5)}  ${formatNumber(r.measured).padStart(8)}  ${fmt(r.meanPel).padStart(8)}  ${fmt(r.uncertaintyAbove70).padStart(6)}  ${fmt(r.uncertaintyAbove80).padStart(6)}\n`,
      );
    }
  });
}
