/**
 * The classify worker's memo in front of the classifier (`loadCategorize`'s): hit rates and lookup cost of the
 * old policy (a map emptied whole past its size) against an LRU of the same size, on each classify shard's query
 * stream in time order, with the classifier's own LRU (100,000 queries, src/classify/classifier.ts) behind both.
 * A query that misses both is a classifier call (~tens of µs); a hit costs a lookup. No classifier is loaded: the
 * figures are counts over the stream, and the lookup's CPU per row.
 *
 * At full size (memo 200,000, classifier 100,000) the shards of the AOL subset (~80,000 distinct queries each)
 * never fill either; the scaled run (both ÷ 10) models a long-lived stream whose shard meets ~4× more distinct
 * queries than the memo holds. `npm run bench -- classify-memo`; QM_BENCH_CLASSIFIERS = shards (default 2).
 */
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { LRUCache } from "lru-cache";
import { writeResults } from "../../bench/results.ts";
import { CATEGORIZE_MEMO } from "../../src/classify/categorize.ts";
import { classifyShardOf } from "../../src/cluster/partition.ts";
import { openLog } from "../../src/log/read.ts";
import { TwoGenerationCache } from "../../src/util/two-generation-cache.ts";

const AOL = fileURLToPath(
  new URL("../../../shared/data/aol-top1000/aol_top1000_users.tsv.gz", import.meta.url),
);
if (!existsSync(AOL)) {
  console.log(`classify-memo bench skipped: needs the shared AOL subset (${AOL})`);
  process.exit(0);
}
const shards = Number(process.env.QM_BENCH_CLASSIFIERS ?? 2);
const CLASSIFIER_LRU = 100_000;

const rows: { q: string; t: number }[] = [];
for await (const b of (await openLog([AOL])).batches())
  for (const r of b) rows.push({ q: r.query, t: r.time });
rows.sort((a, b) => a.t - b.t);
const streams = Array.from({ length: shards }, () => [] as string[]);
for (const r of rows) streams[classifyShardOf(r.q, shards)]!.push(r.q);

interface Memo {
  get(q: string): unknown;
  set(q: string, v: object): void;
}
const cleared = (cap: number): Memo => {
  const m = new Map<string, object>();
  return {
    get: (q) => m.get(q),
    set: (q, v) => {
      if (m.size > cap) m.clear();
      m.set(q, v);
    },
  };
};
const lru = (cap: number): Memo => new LRUCache<string, object>({ max: cap });
/** Two generations of cap / 2 each: the same bound. */
const twoGen = (cap: number): Memo => new TwoGenerationCache<string, object>(cap / 2);

/** Hits of the memo, hits of the classifier's own LRU behind it, and classifier calls, over one shard's stream. */
function simulate(stream: readonly string[], memo: Memo, inner: number) {
  const behind = new LRUCache<string, object>({ max: inner });
  let memoHits = 0;
  let innerHits = 0;
  let calls = 0;
  const v = {};
  for (const q of stream) {
    if (memo.get(q) !== undefined) {
      memoHits++;
      continue;
    }
    if (behind.get(q) !== undefined) innerHits++;
    else {
      calls++;
      behind.set(q, v);
    }
    memo.set(q, v);
  }
  return { memoHits, innerHits, calls };
}

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const figures: Record<string, unknown> = {
  "load at start (1/5/15 min)": loadavg(),
  rows: rows.length,
  shards,
  "distinct queries per shard": streams.map((s) => new Set(s).size),
};
for (const [label, div] of [
  ["full size", 1],
  ["scaled ÷ 10", 10],
] as const) {
  const cap = CATEGORIZE_MEMO / div;
  const inner = CLASSIFIER_LRU / div;
  for (const [policy, make] of [
    ["emptied whole (old)", cleared],
    ["LRU", lru],
    ["two generations of half", twoGen],
  ] as const) {
    let memoHits = 0;
    let innerHits = 0;
    let calls = 0;
    for (const s of streams) {
      const r = simulate(s, make(cap), inner);
      memoHits += r.memoHits;
      innerHits += r.innerHits;
      calls += r.calls;
    }
    figures[`${label} (memo ${cap}, classifier LRU ${inner}), ${policy}`] = {
      "memo hit rate": Math.round((memoHits / rows.length) * 1e4) / 1e4,
      "classifier LRU hits": innerHits,
      "classifier calls": calls,
    };
  }
}
// A hit's cost: each shard's stream through a memo that holds it all, second pass (warm), CPU µs per row.
for (const [policy, make] of [
  ["Map", cleared],
  ["LRU", lru],
  ["two generations", twoGen],
] as const) {
  const memos = streams.map(() => make(CATEGORIZE_MEMO));
  let us = 0;
  for (const pass of [1, 2]) {
    const c = cpu();
    streams.forEach((s, i) => {
      const m = memos[i]!;
      const v = {};
      for (const q of s) if (m.get(q) === undefined) m.set(q, v);
    });
    if (pass === 2) us = ((cpu() - c) / rows.length) * 1e6;
  }
  figures[`lookup CPU µs per row, all hits: ${policy}`] = Math.round(us * 1000) / 1000;
}
figures["load at end (1/5/15 min)"] = loadavg();
console.log(JSON.stringify(figures, null, 2));
writeResults("classify-memo", figures);
