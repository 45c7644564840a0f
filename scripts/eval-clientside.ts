/**
 * `npm run eval:clientside`: the client-side grid of docs/results/clientside.md (Erola et al. 2011) — every row one
 * `querymask simulate-clientside … --worst-case 100 --json` command, as a user types it, on the bundled Excite sample
 * and on the shared AOL subset (../shared/data/aol-top1000, classified once with `querymask classify` into
 * `.cache/eval-clientside/`, git-ignored; that part is skipped with a message when the subset is absent). Writes
 * docs/results/clientside-grid.tsv (aggregates only) and the tables between the `<!-- grid:… -->` markers of
 * docs/results/clientside.md; the prose around them is the reader's to check against the new figures.
 *
 *   node --import tsx scripts/eval-clientside.ts [--only excite|aol]
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { SHARED_AOL } from "../bench/shared-aol.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const BIN = join(ROOT, "bin", "querymask.js");
const RESULTS = join(ROOT, "docs", "results");
const { values: opts } = parseArgs({ options: { only: { type: "string" } } });

/** The grid's rows: a label and the flags that differ from the defaults (small world, degree 6, one hop, seed 1). */
const GRID: readonly (readonly [string, readonly string[]])[] = [
  ["no forwarding (`--max-hops 0`)", ["--max-hops", "0"]],
  ["small world, degree 6 (seed 1)", []],
  ["small world, degree 6 (seed 2)", ["--seed", "2"]],
  ["small world, degree 6 (seed 3)", ["--seed", "3"]],
  ["small world, degree 2", ["--degree", "2"]],
  ["small world, degree 4", ["--degree", "4"]],
  ["small world, degree 10", ["--degree", "10"]],
  ["small world, degree 20", ["--degree", "20"]],
  ["scale-free, degree 2", ["--graph", "scale-free", "--degree", "2"]],
  ["scale-free, degree 6", ["--graph", "scale-free"]],
  ["scale-free, degree 10", ["--graph", "scale-free", "--degree", "10"]],
  ["degree 6, `--max-hops 2`", ["--max-hops", "2"]],
  ["degree 6, `--max-hops 3`", ["--max-hops", "3"]],
  ["degree 6, `--selfish 0.1`", ["--selfish", "0.1"]],
  ["degree 6, `--selfish 0.3`", ["--selfish", "0.3"]],
  ["degree 6, `--colluding 0.1`", ["--colluding", "0.1"]],
  ["degree 6, `--colluding 0.3`", ["--colluding", "0.3"]],
];
/** The row whose users are also broken down by their number of neighbours. */
const BY_NEIGHBOURS = "scale-free, degree 6";

/** What the grid reads of `simulate-clientside --json`. */
interface Summary {
  users: number;
  pelUsers: number;
  forwarded: number;
  meanPel: number;
  pelP10: number;
  pelP50: number;
  pelP90: number;
  uncertaintyAbove70: number;
  uncertaintyAbove80: number;
  meanHops: number;
  meanLatencyMs: number;
  p95LatencyMs: number;
  cpuSeconds: number;
  worstCase: { meanOwnShare: number; meanIds: number; attributed: number };
  byNeighbours: {
    neighbours: string;
    users: number;
    measured: number;
    meanPel: number | null;
    uncertaintyAbove70: number | null;
    uncertaintyAbove80: number | null;
  }[];
}

/** `querymask <args>`: its standard output; stops the evaluation with the command's own message if it fails. */
function querymask(args: readonly string[]): string {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8", maxBuffer: 1 << 26 });
  if (r.status !== 0) {
    process.stderr.write(r.stderr);
    throw new Error(`querymask ${args.join(" ")}: exit ${r.status}`);
  }
  return r.stdout;
}

/** One decimal; a figure the summary has none of (null: e.g. a group without a user that has a PEL) is `–`. */
const f1 = (x: number | null) => (x === null ? "–" : x.toFixed(1));

/**
 * The figures of a grid row, each once: its TSV column, how it is read off the summary, and — where it has one — its
 * column of the markdown table (`cell`, else the value to `digits` decimals).
 */
const FIGURES: readonly {
  tsv: string;
  of: (s: Summary) => number | null;
  head?: string;
  digits?: number;
  cell?: (s: Summary) => string;
}[] = [
  { tsv: "forwarded_pct", of: (s) => s.forwarded, head: "forwarded %" },
  { tsv: "mean_pel", of: (s) => s.meanPel, head: "mean PEL" },
  { tsv: "pel_p10", of: (s) => s.pelP10, head: "p10" },
  { tsv: "pel_p50", of: (s) => s.pelP50, head: "p50" },
  { tsv: "pel_p90", of: (s) => s.pelP90, head: "p90" },
  { tsv: "uncertainty_above_70_pct", of: (s) => s.uncertaintyAbove70, head: "% users uncertainty > 70" },
  { tsv: "uncertainty_above_80_pct", of: (s) => s.uncertaintyAbove80, head: "> 80" },
  { tsv: "mean_hops", of: (s) => s.meanHops, head: "mean hops", digits: 3 },
  {
    tsv: "latency_mean_ms",
    of: (s) => s.meanLatencyMs,
    head: "latency mean / p95 ms",
    cell: (s) => `${Math.round(s.meanLatencyMs)} / ${Math.round(s.p95LatencyMs)}`,
  },
  { tsv: "latency_p95_ms", of: (s) => s.p95LatencyMs },
  { tsv: "worst_own_share_pct", of: (s) => 100 * s.worstCase.meanOwnShare, head: "worst case: own share %" },
  { tsv: "worst_ids", of: (s) => s.worstCase.meanIds, head: "ids", digits: 2 },
  { tsv: "worst_author_top_pct", of: (s) => s.worstCase.attributed, head: "author = top id %" },
  { tsv: "cpu_s", of: (s) => s.cpuSeconds, head: "CPU s", digits: 2 },
];

function gridTable(rows: readonly (readonly [string, Summary])[]): string[] {
  const columns = FIGURES.filter((f) => f.head !== undefined);
  const head = ["configuration", ...columns.map((f) => f.head!)];
  return [
    `| ${head.join(" | ")} |`,
    `| ${head.map(() => "---").join(" | ")} |`,
    ...rows.map(
      ([label, s]) =>
        `| ${[
          label,
          ...columns.map((f) => {
            if (f.cell !== undefined) return f.cell(s);
            const x = f.of(s);
            return x === null ? "–" : x.toFixed(f.digits ?? 1);
          }),
        ].join(" | ")} |`,
    ),
  ];
}

function neighboursTable(s: Summary): string[] {
  return [
    `${BY_NEIGHBOURS} — by number of neighbours (${s.users} users, ${s.pelUsers} with a PEL):`,
    "",
    "| neighbours | users | with a PEL | mean PEL | % uncertainty > 70 | % > 80 |",
    "| --- | --- | --- | --- | --- | --- |",
    ...s.byNeighbours.map(
      (b) =>
        `| ${b.neighbours} | ${b.users} | ${b.measured} | ${f1(b.meanPel)} | ${f1(b.uncertaintyAbove70)} | ${f1(b.uncertaintyAbove80)} |`,
    ),
  ];
}

/** Replace what stands between `<!-- grid:name -->` and `<!-- /grid:name -->` in `text`. */
function between(text: string, name: string, lines: readonly string[]): string {
  const open = `<!-- grid:${name} -->`;
  const close = `<!-- /grid:${name} -->`;
  const a = text.indexOf(open);
  const b = text.indexOf(close);
  if (a < 0 || b < a) throw new Error(`docs/results/clientside.md has no ${open} … ${close}`);
  return `${text.slice(0, a + open.length)}\n${lines.join("\n")}\n${text.slice(b)}`;
}

const inputs: [string, string][] = [];
if (opts.only === undefined || opts.only === "excite")
  inputs.push(["excite", join(ROOT, "data", "excite", "excite-small.log")]);
if (opts.only === undefined || opts.only === "aol") {
  if (!existsSync(SHARED_AOL))
    console.log(`eval-clientside: the AOL part skipped: needs the shared AOL subset (${SHARED_AOL})`);
  else {
    const dir = join(ROOT, ".cache", "eval-clientside");
    mkdirSync(dir, { recursive: true });
    const classified = join(dir, "aol.classified.tsv.gz");
    console.log("eval-clientside: classifying the AOL subset (querymask classify)…");
    querymask(["classify", SHARED_AOL, "-o", classified, "-q"]);
    inputs.push(["aol", classified]);
  }
}

const started = new Date();
const load = loadavg()[0]!;
let doc = readFileSync(join(RESULTS, "clientside.md"), "utf8");
const tsv: string[] = [];
for (const [name, input] of inputs) {
  const rows: [string, Summary][] = [];
  for (const [label, flags] of GRID) {
    const s = JSON.parse(
      querymask([
        "simulate-clientside",
        input,
        "--worst-case",
        "100",
        "--json",
        "--seed",
        "1",
        ...flags,
        "-q",
      ]),
    ) as Summary;
    rows.push([label, s]);
    tsv.push(
      [name, label, ...FIGURES.map((f) => f.of(s))]
        .map((x) => (typeof x === "number" ? String(Number(x.toFixed(4))) : (x ?? "")))
        .join("\t"),
    );
    console.log(
      `eval-clientside: ${name}, ${label}: mean PEL ${f1(s.meanPel)}, forwarded ${f1(s.forwarded)}%`,
    );
  }
  const by = rows.find(([label]) => label === BY_NEIGHBOURS)![1];
  doc = between(doc, name, [
    `(\`npm run eval:clientside\`, ${started.toISOString().slice(0, 16).replace("T", " ")} UTC, load ${load.toFixed(1)}, ${cpus().length} cores.)`,
    "",
    ...gridTable(rows),
    "",
    ...neighboursTable(by),
  ]);
}
if (inputs.length > 0) {
  const header = ["dataset", "configuration", ...FIGURES.map((f) => f.tsv)].join("\t");
  // The rows of a data set not run this time (`--only`) stay as they were.
  const path = join(RESULTS, "clientside-grid.tsv");
  const ran = new Set(inputs.map(([name]) => name));
  const kept = existsSync(path)
    ? readFileSync(path, "utf8")
        .trimEnd()
        .split("\n")
        .slice(1)
        .filter((line) => !ran.has(line.split("\t")[0]!))
    : [];
  const order = (line: string) => (line.startsWith("excite\t") ? 0 : 1); // Excite first, whichever part ran
  const lines = [...kept, ...tsv].sort((x, y) => order(x) - order(y));
  writeFileSync(path, `${[header, ...lines].join("\n")}\n`);
  writeFileSync(join(RESULTS, "clientside.md"), doc);
  console.log("eval-clientside: wrote docs/results/clientside.md and clientside-grid.tsv");
}
