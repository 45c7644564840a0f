/**
 * `npm run eval:mdav`: paper 004's comparison (Figs. 2 and 3) on ../shared/data/aol-top1000 — semantic MDAV
 * and its three baselines for k = 2…7, measured by information loss L (Eqs. 8–9; 80 clusters as in the paper,
 * and the Calinski–Harabasz choice) and record linkage RL (Eq. 10), over several seeds (the methods'
 * randomness: query picks and prototypes; the partitions do not depend on the seed).
 *
 * Writes <out>/<name>.tsv (one row per method, k and seed) and <out>/<name>.md (means ± standard deviations over
 * the seeds, the paper's claim checked per k). Aggregates only: no query of the AOL log. Skips with a message
 * when the AOL data is absent.
 *
 *   node --import tsx scripts/eval-mdav.ts [--k 2,3,4,5,6,7] [--methods mdav,mdav-strings,erola,navarro]
 *        [--seeds 1,2,3,4,5] [--users N] [--out docs/results] [--mapper kb|labels] [--sample 10 (navarro)]
 *        [--clusters 80] [--ablation] [--name mdav (output file names)]
 *
 * `--mapper kb` (default) maps queries with the knowledge base (`loadKnowledgeBase`, noun phrases of src/text);
 * `labels` uses the stand-in that matches phrases to ODP category labels.
 *
 * `--ablation` adds diagnostic variants that swap one part of the semantic method (see {@link ablations}), to
 * find which part drives its information loss.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadKnowledgeBase } from "../src/knowledge/knowledge-base.ts";
import { Taxonomy } from "../src/knowledge/taxonomy.ts";
import { loadLog } from "../src/log/read.ts";
import type { QueryLog } from "../src/log/record.ts";
import { erola, wordCategories } from "../src/methods/erola/index.ts";
import type { ConceptMapper } from "../src/methods/mdav/concept-mapper.ts";
import { contextMapper, mdav } from "../src/methods/mdav/index.ts";
import { mdavPartition } from "../src/methods/mdav/mdav-core.ts";
import { meanEvents } from "../src/methods/mdav/microaggregate.ts";
import { booleanDistanceMatrix } from "../src/methods/mdav/multiset-distance.ts";
import { semanticPartition } from "../src/methods/mdav/partition.ts";
import { profileOf } from "../src/methods/mdav/profile.ts";
import { mapLogs } from "../src/methods/mdav/profiles.ts";
import { buildRelease } from "../src/methods/mdav/release.ts";
import { pickQueries, quotas, representativeCategories } from "../src/methods/mdav/representative.ts";
import { semanticUserDistance } from "../src/methods/mdav/semantic-distance.ts";
import { userLogs } from "../src/methods/mdav/user-logs.ts";
import { mdavStrings } from "../src/methods/mdav-strings/index.ts";
import type { Method, MethodContext, Release } from "../src/methods/method.ts";
import { navarro } from "../src/methods/navarro/index.ts";
import { informationLoss } from "../src/metrics/information-loss.ts";
import { recordLinkage } from "../src/metrics/record-linkage.ts";
import { consoleProgress } from "../src/util/progress.ts";
import { Rng } from "../src/util/random.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const AOL = join(ROOT, "../shared/data/aol-top1000/aol_top1000_users.tsv.gz");

const { values } = parseArgs({
  options: {
    k: { type: "string", default: "2,3,4,5,6,7" },
    methods: { type: "string", default: "mdav,mdav-strings,erola,navarro" },
    users: { type: "string" },
    seeds: { type: "string", default: "1,2,3,4,5" },
    clusters: { type: "string", default: "80" },
    mapper: { type: "string", default: "kb" },
    sample: { type: "string", default: "10" },
    out: { type: "string", default: join(ROOT, "docs/results") },
    name: { type: "string", default: "mdav" },
    ablation: { type: "boolean", default: false },
  },
});

// biome-ignore lint/suspicious/noExplicitAny: each method has its own parameter type.
const ALL: Method<any>[] = [mdav, mdavStrings, erola, navarro];

/** The first `n` users of a log (in order of appearance). */
function firstUsers(log: QueryLog, n: number): QueryLog {
  const keep = new Set<string>();
  for (const r of log.records) {
    if (keep.size >= n && !keep.has(r.user)) continue;
    keep.add(r.user);
  }
  return { ...log, records: log.records.filter((r) => keep.has(r.user)) };
}

/** An anonymization of `log` at `k` with a seeded rng. */
type Run = (k: number, rng: Rng) => Promise<Release>;

/**
 * Diagnostic variants of the semantic method, each changing one part (clusters reused across seeds):
 * - `abl:random-prototype`: semantic partition, Erola's prototype (random events of the members);
 * - `abl:own-queries`: semantic representative, but each category's query drawn among the members' own events;
 * - `abl:no-z`: each member's quota of categories drawn at random from her own (no sorting by δs to z), queries
 *   from the whole log as in the paper;
 * - `abl:erola-partition`: Erola's partition (identical word categories) with the semantic representative.
 */

function ablations(log: QueryLog, mapper: ConceptMapper): Map<string, Run> {
  const logs = userLogs(log.records);
  const { profiles, pool } = mapLogs(logs, mapper);
  const space = mapper.space;
  const semantic = new Map<number, Promise<Int32Array[]>>();
  const semanticClusters = (k: number) => {
    if (!semantic.has(k))
      semantic.set(k, semanticPartition(space, profiles, { k, variant: "exact", blockSize: 0 }));
    return semantic.get(k)!;
  };
  let erolaD: Float32Array | undefined;
  const erolaClusters = (k: number) => {
    erolaD ??= booleanDistanceMatrix(
      logs.byUser.map((ev) => profileOf(ev.flatMap((e) => wordCategories(logs.events[e]!.query, mapper)))),
    );
    return mdavPartition({ n: profiles.length, data: erolaD }, k);
  };
  const members = (m: Int32Array) => Array.from(m, (u) => profiles[u]!);
  const release = (k: number, clusters: Int32Array[], syn: (m: Int32Array, rng: Rng) => number[], rng: Rng) =>
    buildRelease(
      log,
      logs,
      clusters,
      clusters.map((m, c) => syn(m, rng.fork(c))),
      {},
      k,
    );
  const randomPrototype = (m: Int32Array, rng: Rng) =>
    rng.shuffle(Array.from(m).flatMap((u) => logs.byUser[u]!)).slice(0, meanEvents(logs, m));
  const semanticRep = (m: Int32Array, rng: Rng) =>
    pickQueries(representativeCategories(space, members(m)), pool, rng);
  const ownQueries = (m: Int32Array, rng: Rng) => {
    const own = new Map<number, number[]>();
    for (const u of m) {
      for (const e of logs.byUser[u]!) {
        for (const c of mapper.map(logs.events[e]!.query)) {
          const l = own.get(c);
          if (l) l.push(e);
          else own.set(c, [e]);
        }
      }
    }
    return pickQueries(representativeCategories(space, members(m)), own, rng);
  };
  const noZ = (m: Int32Array, rng: Rng) => {
    const ps = members(m);
    const q = quotas(ps.map((p) => p.total));
    const cats: number[] = [];
    ps.forEach((p, i) => {
      const all: number[] = [];
      p.cats.forEach((c, j) => {
        for (let r = 0; r < p.weights[j]!; r++) all.push(c);
      });
      cats.push(...rng.shuffle(all).slice(0, q[i]!));
    });
    return pickQueries(cats, pool, rng);
  };
  return new Map<string, Run>([
    ["abl:random-prototype", async (k, rng) => release(k, await semanticClusters(k), randomPrototype, rng)],
    ["abl:own-queries", async (k, rng) => release(k, await semanticClusters(k), ownQueries, rng)],
    ["abl:no-z", async (k, rng) => release(k, await semanticClusters(k), noZ, rng)],
    ["abl:erola-partition", async (k, rng) => release(k, erolaClusters(k), semanticRep, rng)],
  ]);
}

/** Mean over the original users of Ds(user, her released log), on the mapper's profiles (1 for a missing user). */
function meanShift(original: QueryLog, released: QueryLog, mapper: ConceptMapper): number {
  const o = userLogs(original.records);
  const op = mapLogs(o, mapper).profiles;
  const r = userLogs(released.records);
  const rp = mapLogs(r, mapper).profiles;
  const byUser = new Map(r.users.map((u, i) => [u, rp[i]!]));
  let sum = 0;
  o.users.forEach((u, i) => {
    const p = byUser.get(u);
    sum += p ? semanticUserDistance(mapper.space, op[i]!, p) : 1;
  });
  return o.users.length === 0 ? 0 : sum / o.users.length;
}

interface Row {
  readonly method: string;
  readonly k: number;
  readonly seed: number;
  readonly rl: number;
  readonly l: number;
  readonly lch: number;
  readonly shift: number;
}

async function main(): Promise<void> {
  if (!existsSync(AOL)) {
    console.error(
      `eval:mdav: ${AOL} not found; skipping (the AOL data lives in ../shared, never in the project).`,
    );
    return;
  }
  const ks = values.k.split(",").map(Number);
  const seeds = values.seeds.split(",").map(Number);
  const clusters = Number(values.clusters);
  const progress = consoleProgress();
  let log: QueryLog = await loadLog([AOL]);
  if (values.users) log = firstUsers(log, Number(values.users));
  const kb = values.mapper === "labels" ? { taxonomy: Taxonomy.bundled() } : await loadKnowledgeBase();
  const ctxFor = (rng: Rng): MethodContext => ({ rng, progress, knowledge: async () => kb as never });
  const mapper = await contextMapper(ctxFor(Rng.fromSeed(seeds[0]!)));
  const runs = new Map<string, Run>();
  for (const name of values.methods.split(",")) {
    const m = ALL.find((x) => x.name === name);
    if (!m) throw new Error(`unknown method ${name}`);
    runs.set(name, (k, rng) =>
      m.anonymize(log, m.parse(name === "navarro" ? { k, sample: values.sample } : { k }), ctxFor(rng)),
    );
  }
  if (values.ablation) for (const [name, run] of ablations(log, mapper)) runs.set(name, run);

  const users = new Set(log.records.map((r) => r.user)).size;
  let events = 0;
  let mapped = 0;
  for (let i = 0; i < log.records.length; i++) {
    const r = log.records[i]!;
    const prev = log.records[i - 1];
    if (prev && prev.user === r.user && prev.query === r.query && prev.time === r.time) continue;
    events++;
    if (mapper.map(r.query).length > 0) mapped++;
  }
  console.error(
    `eval:mdav: ${users} users, ${events} query events, ${((100 * mapped) / events).toFixed(1)}% mapped`,
  );

  const started = Date.now();
  const chBase = informationLoss(log, log, { mapper });
  console.error(`eval:mdav: Calinski–Harabasz picks ${chBase.clusters} clusters on the original`);
  const tsv: string[] = [
    "method\tk\tseed\tclusters\tRL\tL_fixed\tL_ch\tK_ch\tshift\tseconds\tcpu_seconds\tload1",
  ];
  const results: Row[] = [];
  for (const [name, run] of runs) {
    for (const k of ks) {
      for (const seed of seeds) {
        const t0 = Date.now();
        const c0 = process.cpuUsage();
        const rel = await run(k, Rng.fromSeed(seed));
        const secs = (Date.now() - t0) / 1000;
        const used = process.cpuUsage(c0);
        const cpu = (used.user + used.system) / 1e6;
        const row: Row = {
          method: name,
          k,
          seed,
          rl: recordLinkage(log, rel.log!).rl,
          l: informationLoss(log, rel.log!, { mapper, clusters }).loss,
          lch: informationLoss(log, rel.log!, { mapper }).loss,
          shift: meanShift(log, rel.log!, mapper),
        };
        results.push(row);
        const load = loadavg()[0]!.toFixed(2);
        tsv.push(
          [
            name,
            k,
            seed,
            rel.counts.clusters,
            row.rl.toFixed(2),
            row.l.toFixed(2),
            row.lch.toFixed(2),
            chBase.clusters,
            row.shift.toFixed(4),
            secs.toFixed(1),
            cpu.toFixed(1),
            load,
          ].join("\t"),
        );
        write();
        console.error(
          `eval:mdav: ${name} k=${k} seed=${seed}: RL ${row.rl.toFixed(2)}%, L ${row.l.toFixed(2)}, L_ch ${row.lch.toFixed(2)}, shift ${row.shift.toFixed(4)} (${secs.toFixed(1)} s wall, ${cpu.toFixed(1)} CPU-s, load ${load})`,
        );
      }
    }
  }
  function write(): void {
    mkdirSync(values.out, { recursive: true });
    writeFileSync(join(values.out, `${values.name}.tsv`), `${tsv.join("\n")}\n`);
    writeFileSync(
      join(values.out, `${values.name}.md`),
      summary(results, ks, {
        users,
        events,
        mapped,
        clusters,
        ch: chBase.clusters,
        seeds,
        minutes: (Date.now() - started) / 60000,
        mapper: values.mapper,
        sample: values.sample,
        date: new Date().toISOString().slice(0, 16).replace("T", " "),
        name: values.name,
      }),
    );
  }
  console.error(`eval:mdav: wrote ${join(values.out, values.name)}.tsv and .md`);
}

function mapperText(mapper: string): string {
  return mapper === "labels"
    ? "the *stand-in* mapper: noun phrases (src/text), each phrase's Porter stems matched to ODP category *label* stems of the bundled 4,871-category skeleton, with the paper's progressive removal of the leftmost modifier."
    : "the project's knowledge base (`loadKnowledgeBase`: phrase → ODP categories over the bundled 4,871-category skeleton, Porter stems, progressive removal of the leftmost word) on the noun phrases of src/text.";
}

interface Meta {
  users: number;
  events: number;
  mapped: number;
  clusters: number;
  ch: number;
  seeds: number[];
  minutes: number;
  mapper: string;
  sample: string;
  date: string;
  name: string;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const sd = (xs: number[]) => {
  if (xs.length < 2) return 0;
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1));
};

type Pick = (r: Row) => number;

/** A difference with its sign, to one decimal ("+1.2", "−0.4", "0.0"). */
const signed = (x: number) => {
  const t = Math.abs(x).toFixed(1);
  return t === "0.0" ? t : `${x > 0 ? "+" : "−"}${t}`;
};

function summary(results: Row[], ks: number[], meta: Meta): string {
  const names = [...new Set(results.map((r) => r.method))];
  const cell = (m: string, k: number, pick: Pick) => {
    const xs = results.filter((r) => r.method === m && r.k === k).map(pick);
    return xs.length ? { mean: mean(xs), sd: sd(xs), n: xs.length } : undefined;
  };
  const table = (title: string, pick: Pick, digits = 1) => {
    const head = `| ${title} | ${ks.map((k) => `k=${k}`).join(" | ")} |\n|---|${ks.map(() => "---:").join("|")}|\n`;
    return (
      head +
      names
        .map((m) => {
          const cells = ks.map((k) => {
            const c = cell(m, k, pick);
            if (!c) return "";
            const low =
              !m.startsWith("abl:") &&
              names
                .filter((o) => !o.startsWith("abl:"))
                .every((o) => (cell(o, k, pick)?.mean ?? Number.POSITIVE_INFINITY) >= c.mean);
            const text = `${c.mean.toFixed(digits)}${c.n > 1 ? ` ± ${c.sd.toFixed(digits)}` : ""}`;
            return low && title.startsWith("L") ? `**${text}**` : text;
          });
          return `| ${m} | ${cells.join(" | ")} |`;
        })
        .join("\n")
    );
  };
  const baselines = names.filter((m) => m !== "mdav" && !m.startsWith("abl:"));
  const claim = (pick: Pick, label: string) => {
    const lines = ks.map((k) => {
      const own = cell("mdav", k, pick);
      const others = baselines
        .map((m) => ({ m, c: cell(m, k, pick) }))
        .filter((x) => x.c)
        .sort((a, b) => a.c!.mean - b.c!.mean);
      if (!own || others.length === 0) return `  - k = ${k}: not measured`;
      const best = others[0]!;
      const rank = 1 + others.filter((x) => x.c!.mean < own.mean).length;
      const gap = own.mean - best.c!.mean;
      return `  - k = ${k}: mdav ${own.mean.toFixed(1)}, best baseline ${best.m} ${best.c!.mean.toFixed(1)} (mdav ${rank === 1 ? "lowest" : `rank ${rank} of ${others.length + 1}`}, ${signed(gap)} points)`;
    });
    const wins = ks.filter((k) => {
      const own = cell("mdav", k, pick);
      return own && baselines.every((m) => (cell(m, k, pick)?.mean ?? Number.POSITIVE_INFINITY) >= own.mean);
    });
    return `- ${label}: mdav has the lowest mean L at k = ${wins.join(", ") || "none"} of ${ks.join(", ")}.\n${lines.join("\n")}`;
  };
  const rlLine = ks
    .map((k) => {
      const own = cell("mdav", k, (r) => r.rl);
      const others = baselines.map((m) => cell(m, k, (r) => r.rl)?.mean).filter((x) => x !== undefined);
      if (!own || others.length === 0) return undefined;
      return `k = ${k}: ${own.mean.toFixed(1)} vs ${Math.min(...others).toFixed(1)}–${Math.max(...others).toFixed(1)}`;
    })
    .filter(Boolean)
    .join("; ");
  return `# Semantic microaggregation (paper 004) on AOL top-1000 — Figs. 2 and 3

Generated by \`npm run eval:mdav\` (scripts/eval-mdav.ts) on ${meta.date} UTC, seeds ${meta.seeds.join(", ")}, ${meta.minutes.toFixed(1)} min.
Data: ../shared/data/aol-top1000 — ${meta.users} users, ${meta.events} query events (aggregates only here; the
paper's 1000 random AOL users had about 56,000 queries, these top-1000 users ${Math.round(meta.events / meta.users)} each).
Cells are mean ± standard deviation over the seeds (the seed drives query picks and prototypes; partitions are
deterministic). Per-seed rows, CPU seconds and load: ${meta.name}.tsv. Analysis: docs/mdav.md § Evaluation.

**Concept mapping:** ${mapperText(meta.mapper)} It maps
${((100 * meta.mapped) / meta.events).toFixed(1)}% of query events to at least one category (the paper used the full ODP, > 1M categories).
Navarro et al.'s user distance uses each user's ${meta.sample} most frequent distinct queries (\`sample\`).
The same mapper serves the semantic method, Erola et al. (word by word) and the information-loss clustering.

## Information loss L (Fig. 2) — ${meta.clusters} clusters, as in the paper (lowest of the four methods in bold)
${table("L (%)", (r) => r.l)}

## Information loss L — number of clusters by Calinski–Harabasz on the original (K = ${meta.ch})
${table("L (%)", (r) => r.lch)}

## Record linkage RL (Fig. 3)
${table("RL (%)", (r) => r.rl)}

## Mean Ds(user, her released log) — how far users moved semantically
${table("Ds", (r) => r.shift, 3)}

## The paper's claim
"The semantic method has the lowest L for every k, with RL comparable to the aggregation baselines."
${claim((r) => r.l, `${meta.clusters} clusters`)}
${claim((r) => r.lch, `Calinski–Harabasz K = ${meta.ch}`)}
- RL, mdav vs the baselines' range: ${rlLine || "not measured"}.
`;
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
