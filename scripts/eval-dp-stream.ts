/**
 * The dp evaluation (`scripts/eval-dp.ts`'s columns) for logs too large to hold in memory — the 1,000,000-user
 * generated log (~50M rows) — by streaming a log whose rows are grouped by user (as `querymask generate` and AOL
 * write them). The same code as the method decides: each user's block goes through `groupEvents` and `histories`,
 * the contribution bound (`Bounder`, `ranked`, the strategy's prior), the plan (`plan`), the selection and the
 * noisy counts; click pairs take a second pass over the file for the released queries. What is not the method's:
 * the log is read twice and never held, and it is not scrubbed first (as in eval-dp). Noise is seeded (a
 * measurement, not a release). Prints one TSV row per (selection, ε, δ); reads the log, prints no query.
 *
 *   node --max-old-space-size=14000 --import tsx scripts/eval-dp-stream.ts --log /tmp/g1m.tsv [--name gen1m]
 *       [--selection length-weighted,korolova…] [--epsilon 0.5,1,3] [--delta 1e-5,1e-7]
 *
 * korolova is not a set selection and needs the whole log; it is skipped here with a message.
 */
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { groupEvents, type QueryEvent } from "../src/log/events.ts";
import { readBatches } from "../src/log/read.ts";
import type { LogRecord } from "../src/log/record.ts";
import { Bounder, histories, pairKeys, ranked } from "../src/methods/dp/contributions.ts";
import { noisyCounts } from "../src/methods/dp/counts.ts";
import { dp, plan } from "../src/methods/dp/index.ts";
import { randomness } from "../src/methods/dp/random.ts";
import { selections } from "../src/methods/dp/selection/index.ts";
import { silentProgress } from "../src/util/progress.ts";
import { Rng } from "../src/util/random.ts";

const { values } = parseArgs({
  options: {
    log: { type: "string" },
    name: { type: "string", default: "gen1m" },
    selection: { type: "string", default: "length-weighted" },
    epsilon: { type: "string", default: "0.5,1,3" },
    delta: { type: "string", default: "1e-5,1e-7" },
    seed: { type: "string", default: "1" },
  },
});
if (!values.log) {
  process.stderr.write(
    "usage: eval-dp-stream.ts --log <user-grouped log> [--selection …] [--epsilon …] [--delta …]\n",
  );
  process.exit(2);
}
const path = values.log;

/** Each user's rows, one block at a time; exits 2 if a user's rows are not contiguous. */
async function* userBlocks(): AsyncGenerator<LogRecord[]> {
  const seen = new Set<string>();
  let block: LogRecord[] = [];
  for await (const batch of readBatches([path], { progress: silentProgress, keepSource: false })) {
    for (const r of batch) {
      if (block.length > 0 && r.user !== block[0]!.user) {
        yield block;
        block = [];
      }
      if (block.length === 0) {
        if (seen.has(r.user)) {
          process.stderr.write(`eval-dp-stream: ${path}: user ${r.user}'s rows are not contiguous\n`);
          process.exit(2);
        }
        seen.add(r.user);
      }
      block.push(r);
    }
  }
  if (block.length > 0) yield block;
}

/** One user's non-empty query events, by time, and the rows they index. */
function historyOf(block: LogRecord[]): QueryEvent[] {
  return histories(groupEvents(block))[0] ?? [];
}

const list = (s: string) => s.split(",");
const t0 = process.cpuUsage();
process.stderr.write(`eval-dp-stream: pass 1 over ${path} (the truth, and each strategy's bounded sets)\n`);

// The truth, as eval-dp computes it: query events and distinct users per query, over the whole log.
const events = new Map<string, number>();
const distinctUsers = new Map<string, number>();
let totalEvents = 0;
let nUsers = 0;
const strategies = list(values.selection!).filter((name) => {
  if (name === "korolova") process.stderr.write("eval-dp-stream: korolova needs the whole log: skipped\n");
  return name !== "korolova";
});
// Every (strategy, d) needs its own bounded sets; one Bounder per distinct (prior, d).
const bounders = new Map<string, { bounder: Bounder; prior?: (k: string) => number; d: number }>();
const boundKey = (name: string, d: number) => `${name} ${d}`;
for (const name of strategies) {
  const sel = selections.find((s) => s.name === name);
  if (!sel) throw new Error(`unknown selection ${name}`);
  const d = dp.parse({ selection: name }).d;
  bounders.set(boundKey(name, d), { bounder: new Bounder(d), prior: sel.prior, d });
}
for await (const block of userBlocks()) {
  nUsers++;
  const history = historyOf(block);
  const mine = new Set<string>();
  for (const e of history) {
    totalEvents++;
    events.set(e.query, (events.get(e.query) ?? 0) + 1);
    mine.add(e.query);
  }
  for (const q of mine) distinctUsers.set(q, (distinctUsers.get(q) ?? 0) + 1);
  const keys = history.map((e) => e.query);
  for (const b of bounders.values()) b.bounder.add(ranked(keys, b.prior));
  if (nUsers % 100_000 === 0) process.stderr.write(`  ${nUsers.toLocaleString("en")} users\n`);
}
const top = [...events.entries()]
  .sort((a, b) => b[1] - a[1])
  .slice(0, 1000)
  .map(([q]) => q);
process.stderr.write(
  `eval-dp-stream: ${nUsers.toLocaleString("en")} users, ${totalEvents.toLocaleString("en")} query events, ` +
    `${events.size.toLocaleString("en")} distinct queries; ${((process.cpuUsage(t0).user + process.cpuUsage(t0).system) / 1e6).toFixed(0)} CPU-s\n`,
);

process.stdout.write(
  "log\tusers\tselection\tepsilon\tdelta\td\tqueries_released\tevent_coverage_pct\ttop1000_recall_pct\tmedian_rel_error\tpairs_released\teps_spent\tdelta_spent\tcpu_s\tload1\n",
);
for (const name of strategies)
  for (const epsilon of list(values.epsilon!))
    for (const delta of list(values.delta!)) {
      const cpu0 = process.cpuUsage();
      const params = dp.parse({ selection: name, epsilon, delta, noise: "seeded" });
      const sel = selections.find((s) => s.name === name)!;
      const { bounder } = bounders.get(boundKey(name, params.d))!;
      const random = randomness("seeded", Rng.fromSeed(Number(values.seed)));
      const { account, queries: qPlan, pairs: pPlan } = plan(params, sel);
      const qPrior = sel.prior ? Float64Array.from(bounder.keys, (k) => sel.prior!(k)) : undefined;
      const chosen = sel.select(bounder.users, bounder.keys.length, qPlan.cal, random, qPrior);
      const counts = noisyCounts(bounder.users, bounder.keys.length, chosen, qPlan.noise, random);
      qPlan.charge(account);
      const released = Array.from(chosen, (id) => bounder.keys[id]!);
      const got = new Set(released);
      // Pass 2: click pairs of the released queries, bounded per user as the method does.
      let pairsReleased = 0;
      if (pPlan) {
        const pairs = new Bounder(params.d);
        for await (const block of userBlocks())
          pairs.add(ranked(pairKeys(block, historyOf(block), got), sel.prior));
        const pPrior = sel.prior ? Float64Array.from(pairs.keys, (k) => sel.prior!(k)) : undefined;
        const pChosen = sel.select(pairs.users, pairs.keys.length, pPlan.cal, random, pPrior);
        noisyCounts(pairs.users, pairs.keys.length, pChosen, pPlan.noise, random);
        pPlan.charge(account);
        pairsReleased = pChosen.length;
      }
      let covered = 0;
      for (const q of got) covered += events.get(q) ?? 0;
      const errors = released
        .map((q, i) => Math.abs(counts[i]! - distinctUsers.get(q)!) / distinctUsers.get(q)!)
        .sort((a, b) => a - b);
      const median = errors.length === 0 ? Number.NaN : errors[Math.floor((errors.length - 1) / 2)]!;
      const total = account.total();
      const cpu = process.cpuUsage(cpu0);
      process.stdout.write(
        `${[
          values.name,
          nUsers,
          name,
          params.epsilon,
          params.delta,
          params.d,
          released.length,
          ((100 * covered) / totalEvents).toFixed(2),
          ((100 * top.filter((q) => got.has(q)).length) / top.length).toFixed(1),
          Number.isNaN(median) ? "" : median.toFixed(3),
          pairsReleased,
          total.epsilon,
          total.delta,
          ((cpu.user + cpu.system) / 1e6).toFixed(1),
          loadavg()[0]!.toFixed(1),
        ].join("\t")}\n`,
      );
    }
