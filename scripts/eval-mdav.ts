/**
 * `npm run eval:mdav`: Batet et al. 2013's comparison (Figs. 2 and 3) on ../shared/data/aol-top1000 — semantic MDAV
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
import { SHARED_AOL } from "../bench/shared-aol.ts";
import { knowledgeOf } from "../src/classify/service.ts";
import { loadKnowledgeBase } from "../src/knowledge/knowledge-base.ts";
import { Taxonomy } from "../src/knowledge/taxonomy.ts";
import { loadLog } from "../src/log/read.ts";
import type { QueryLog } from "../src/log/record.ts";
import { erola } from "../src/methods/erola/index.ts";
import { contextMapper, mdav } from "../src/methods/mdav/index.ts";
import { mdavStrings } from "../src/methods/mdav-strings/index.ts";
import type { Method, MethodContext } from "../src/methods/method.ts";
import { navarro } from "../src/methods/navarro/index.ts";
import { informationLoss } from "../src/metrics/information-loss.ts";
import { recordLinkage } from "../src/metrics/record-linkage.ts";
import type { ConceptMapper } from "../src/semantic/concept-mapper.ts";
import { mapLogs } from "../src/semantic/profiles.ts";
import { semanticUserDistance } from "../src/semantic/semantic-distance.ts";
import { userLogs } from "../src/semantic/user-logs.ts";
import { consoleProgress } from "../src/util/progress.ts";
import { Rng } from "../src/util/random.ts";
import { ablations, type Run } from "./eval-mdav/ablations.ts";
import { type Row, summary } from "./eval-mdav/summary.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const AOL = SHARED_AOL;

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
  const knowledge = knowledgeOf(
    kb as never,
    values.mapper === "labels" ? "stand-in labels" : "knowledge base",
  );
  const ctxFor = (rng: Rng): MethodContext => ({ rng, progress, knowledge });
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

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
