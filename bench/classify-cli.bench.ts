/**
 * `querymask classify` as a user runs it, as a whole process (`node bin/querymask.js classify …`: start-up, the
 * click pass, reading, the classifier, writing), on the shared AOL subset (407,929 rows), on one thread and on
 * worker threads (`--threads n`), each without and with the log context (`--context clicks,users`), alternating:
 * CPU (user + system), wall, peak RSS, rows per second of wall and per CPU-second, and a check that every thread
 * count writes the same bytes (with the context as without). Skips with a message when ../shared/data is absent.
 *
 *   npm run bench -- classify-cli
 *   node --import tsx bench/classify-cli.bench.ts [runs=3] [threads=1,2]
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { cli, ensureBuilt, load, type Measured, median, timeOrSkip } from "./process.ts";
import { writeResults } from "./results.ts";
import { sharedAolOrSkip } from "./shared-aol.ts";

const AOL = sharedAolOrSkip("classify-cli bench");
timeOrSkip("classify-cli bench");
const args = process.argv.slice(2);
const RUNS = Number(args.find((a) => /^\d+$/.test(a)) ?? 3);
const THREADS = (args.find((a) => /^\d+(,\d+)+$/.test(a)) ?? "1,2").split(",").map(Number);
const ROWS = 407_929;

ensureBuilt();
const tmp = mkdtempSync(join(tmpdir(), "qm-classify-cli-"));
try {
  const configs = THREADS.flatMap((threads) => [false, true].map((context) => ({ threads, context })));
  const key = (c: { threads: number; context: boolean }) =>
    `${c.context ? "context-" : ""}threads-${c.threads}`;
  const out = (c: { threads: number; context: boolean }) => join(tmp, `${key(c)}.tsv`);
  // One run first: the knowledge base is built if this checkout has not built it yet.
  cli(["classify", "-q", AOL, "-o", out(configs[0]!)]);
  const runs = new Map<string, Measured[]>(configs.map((c) => [key(c), []]));
  const loadBefore = load();
  for (let r = 0; r < RUNS; r++)
    for (const c of configs)
      runs
        .get(key(c))!
        .push(
          cli([
            "classify",
            "-q",
            AOL,
            "-o",
            out(c),
            "--threads",
            String(c.threads),
            ...(c.context ? ["--context", "clicks,users"] : []),
          ]),
        );
  const figures = configs.map((c) => {
    const ms = runs.get(key(c))!;
    const cpu = median(ms.map((m) => m.cpu));
    const wall = median(ms.map((m) => m.wall));
    const reference = readFileSync(out({ threads: THREADS[0]!, context: c.context }));
    return {
      threads: c.threads,
      context: c.context,
      cpuS: cpu,
      wallS: wall,
      rssMiB: Math.round(median(ms.map((m) => m.rssMiB))),
      rowsPerWallS: Math.round(ROWS / wall),
      rowsPerCpuS: Math.round(ROWS / cpu),
      sameBytes: readFileSync(out(c)).equals(reference),
    };
  });
  console.log(
    `classify ${AOL} (${ROWS.toLocaleString("en")} rows), ${RUNS} alternating runs, load ${loadBefore} → ${load()}, ${cpus().length} cores:`,
  );
  console.log(
    "| threads | --context | CPU s | wall s | rows / s wall | rows / CPU-s | peak RSS MiB | same bytes as one thread |",
  );
  console.log("| ---: | --- | ---: | ---: | ---: | ---: | ---: | --- |");
  for (const f of figures)
    console.log(
      `| ${f.threads} | ${f.context ? "clicks,users" : "–"} | ${f.cpuS.toFixed(2)} | ${f.wallS.toFixed(2)} | ${f.rowsPerWallS.toLocaleString("en")} | ${f.rowsPerCpuS.toLocaleString("en")} | ${f.rssMiB} | ${f.sameBytes ? "yes" : "NO"} |`,
    );
  writeResults("classify-cli", { runs: RUNS, figures });
  if (figures.some((f) => !f.sameBytes)) {
    console.error("classify-cli: the thread counts wrote different bytes");
    process.exitCode = 1;
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
