/**
 * Query-click graph disconnection (paper 001) at scale, plus the threshold and dp methods on the same logs.
 * Target: the whole graph method on the shared AOL subset (160,852 distinct queries) in ≤ 60 s.
 * Inputs: the shared AOL subset when ../shared/data is present (skipped with a message otherwise) and a
 * generated log of the same shape (1000 users, ~318k events, Zipf queries and URLs with hub sites).
 * Each timing is the median of 3 runs. Run: node --expose-gc --import tsx bench/graph.bench.ts
 */
import { groupEvents } from "../src/log/events.ts";
import { loadLog } from "../src/log/read.ts";
import type { LogRecord, QueryLog } from "../src/log/record.ts";
import { disconnect, type Variant } from "../src/methods/graph/disconnect.ts";
import { QueryGraphBuilder } from "../src/methods/graph/query-graph.ts";
import { loadMethod } from "../src/methods/registry.ts";
import { silentProgress } from "../src/util/progress.ts";
import { Rng } from "../src/util/random.ts";
import { writeResults } from "./results.ts";
import { sharedAol } from "./shared-aol.ts";

const AOL = sharedAol();
const RUNS = 3;

/** A Zipf-like index in [0, n): rank ~ n^u, heavy on small ranks. */
function zipf(rng: Rng, n: number): number {
  return Math.min(n - 1, Math.floor(Math.exp(rng.float() * Math.log(n + 1))) - 1);
}

/** 1000 users, ~318k events; each query has 1–2 home URLs drawn Zipf-like from 100k (a few hubs). */
function generated(): QueryLog {
  const rng = Rng.fromSeed(2006);
  const records: LogRecord[] = [];
  const home = (q: number, i: number) => `http://www.site${zipf(Rng.fromSeed(q * 2 + i), 100_000)}.com`;
  let time = 1_141_200_000;
  for (let u = 0; u < 1000; u++) {
    const events = 30 + rng.int(607);
    for (let e = 0; e < events; e++) {
      time += 1 + rng.int(600);
      // Half the events draw from a shared Zipf head, half are near-unique tail queries.
      const q = rng.float() < 0.5 ? zipf(rng, 40_000) : 40_000 + rng.int(400_000);
      const clicks = 1 + (rng.float() < 0.25 ? 1 : 0);
      for (let c = 0; c < clicks; c++) {
        records.push({ user: String(u), query: `query ${q}`, time, clickUrl: home(q, c) });
      }
    }
  }
  return { records, format: "aol" };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

/** Median wall-clock and CPU (user + system) seconds of RUNS runs; CPU time is the fairer figure on a busy box. */
async function timed<T>(f: () => T | Promise<T>): Promise<{ secs: number; cpu: number; value: T }> {
  const times: number[] = [];
  const cpus: number[] = [];
  let value: T | undefined;
  for (let i = 0; i < RUNS; i++) {
    globalThis.gc?.();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    value = await f();
    times.push((performance.now() - t0) / 1000);
    const c = process.cpuUsage(c0);
    cpus.push((c.user + c.system) / 1e6);
  }
  return { secs: median(times), cpu: median(cpus), value: value as T };
}

interface Row {
  input: string;
  step: string;
  secs: number;
  cpu: number;
  detail: string;
}

async function benchLog(name: string, log: QueryLog): Promise<Row[]> {
  const rows: Row[] = [];
  const ev = await timed(() => groupEvents(log.records));
  const events = ev.value;
  rows.push({
    input: name,
    step: "group events",
    secs: ev.secs,
    cpu: ev.cpu,
    detail: `${events.length} events`,
  });
  const build = await timed(() => {
    const b = new QueryGraphBuilder();
    for (const e of events) {
      b.addEvent(e.query);
      for (let i = e.first; i < e.first + e.rows; i++) {
        const url = log.records[i]!.clickUrl;
        if (url) b.addClick(e.query, url);
      }
    }
    return b.build();
  });
  const g = build.value;
  globalThis.gc?.();
  const heapMb = process.memoryUsage().heapUsed / 1e6;
  rows.push({
    input: name,
    step: "build graph",
    secs: build.secs,
    cpu: build.cpu,
    detail: `${g.queries.length} queries, ${g.urls.length} URLs, heap ${heapMb.toFixed(0)} MB`,
  });
  for (const variant of [1, 2, 3] as Variant[]) {
    const r = await timed(() => disconnect(g, { variant, densityThreshold: 0 }));
    rows.push({
      input: name,
      step: `disconnect, Method ${variant}`,
      secs: r.secs,
      cpu: r.cpu,
      detail: `${r.value.edgesBefore} edges, density ${r.value.densityBefore.toExponential(3)} → 0; ${r.value.removed.length} queries removed`,
    });
  }
  const ctx = { rng: Rng.fromSeed(1), progress: silentProgress };
  const runs: [string, Record<string, unknown>][] = [
    ["graph", { variant: 1 }],
    ["graph", { variant: 2 }],
    ["graph", { variant: 3 }],
    ["graph", { variant: 1, vulnerable: true, k: 2, K: 2 }],
    ["threshold", { k: 2 }],
    ["dp", { epsilon: 1, delta: 1e-5, d: 20 }],
    ["dp", { epsilon: 1, delta: 1e-3, d: 1 }],
  ];
  for (const [method, raw] of runs) {
    const m = await loadMethod(method);
    const r = await timed(() => m.anonymize(log, m.parse(raw), ctx));
    const c = r.value.counts;
    const detail =
      method === "dp"
        ? `${c["queries released"]} queries, ${c["click pairs released"]} click pairs released`
        : `removed: ${c["queries removed"]} queries, ${c["events removed"]} events, ${c["rows removed"]} rows, ${c["users removed"]} users`;
    const args = Object.entries(raw)
      .map(([k, v]) => `${k}=${v}`)
      .join(" ");
    rows.push({
      input: name,
      step: `anonymize --method ${method} ${args}`,
      secs: r.secs,
      cpu: r.cpu,
      detail,
    });
  }
  return rows;
}

const all: Row[] = [];
if (AOL !== undefined) {
  const load = await timed(() => loadLog([AOL]));
  const log = load.value;
  all.push({
    input: "AOL subset",
    step: "load",
    secs: load.secs,
    cpu: load.cpu,
    detail: `${log.records.length} rows`,
  });
  all.push(...(await benchLog("AOL subset", log)));
} else {
  process.stdout.write(`shared AOL subset not found at ${AOL}: skipping it, generated log only\n`);
}
all.push(...(await benchLog("generated", generated())));

const load = (await import("node:os")).loadavg()[0]!.toFixed(1);
process.stdout.write(`\nload average at the end: ${load}\n`);
process.stdout.write("\n| input | step | wall s | CPU s | detail |\n| --- | --- | ---: | ---: | --- |\n");
for (const r of all) {
  process.stdout.write(
    `| ${r.input} | ${r.step} | ${r.secs.toFixed(2)} | ${r.cpu.toFixed(2)} | ${r.detail} |\n`,
  );
}
writeResults("graph", all);
