/**
 * Where the CPU of `anonymize --method swap` goes, by layer. Each layer runs in a fresh child process, as it does
 * in the CLI, on the compiled dist/ (`npm run build` first), on the CLI's path for a classified AOL log: raw rows
 * (src/log/rows.ts). The layers are cumulative: `read` reads the classified, time-ordered AOL subset (the
 * swap-cli bench's cached input) as raw rows; `stage` adds `SwapRowStage` (k = 3) releasing to a writer that
 * drops what it gets, and `write` writes the release (`createRowWriter`). The child measures CPU (user + system, `process.cpuUsage`) from after its imports to the end, and also
 * its import CPU, its peak RSS and its garbage collections (count of scavenges and mark-compacts, from a `gc`
 * performance observer: the scavenges count the bytes a layer allocates, a figure the machine's load does not
 * move). Like the CLI's streaming path, each child uses `streamingHeap()` (src/cli/heap.ts: 4 MiB semi-spaces,
 * the old generation's growth at 50%). `heap` prints the live heap (after `gc()`) every 100k rows of a stage run.
 * That is the state the stream holds, as opposed to the heap V8 commits. Skips when the cached input or dist/ is
 * absent.
 *
 *   node --import tsx bench/swap-layers.bench.ts [runs=3] [depth=1] [heap]
 */
import { spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { constants, PerformanceObserver } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const INPUT = join(ROOT, ".cache/bench/aol-classified-by-time-5999999.tsv");
const DIST = join(ROOT, "dist");
const LAYERS = ["read", "stage", "write"] as const;

async function child(layer: string, depth: number): Promise<void> {
  const c0 = process.cpuUsage();
  const { openLog } = await import(join(DIST, "log/read.js"));
  const { readRows } = await import(join(DIST, "log/rows.js"));
  const { createRowWriter } = await import(join(DIST, "log/row-write.js"));
  const { swap } = await import(join(DIST, "methods/swap/index.js"));
  const { SwapRowStage } = await import(join(DIST, "methods/swap/rows.js"));
  const { methodRng } = await import(join(DIST, "methods/method.js"));
  const { streamingHeap } = await import(join(DIST, "cli/heap.js"));
  const imports = process.cpuUsage(c0);
  streamingHeap();
  const gcs = { minor: 0, major: 0 };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = (e as { detail?: { kind?: number } }).detail?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MINOR) gcs.minor++;
      else if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) gcs.major++;
    }
  }).observe({ entryTypes: ["gc"] });
  const log = await openLog([INPUT], {});
  // The release holds AOL text: removed at the end (earlier versions of this bench left it in the temp directory).
  const outPath = join(tmpdir(), `qm-swap-layers-${process.pid}.tsv`);
  const out = layer === "write" ? createRowWriter(outPath, true) : undefined;
  const drop = { releaseLines() {}, releaseRecord() {}, copyAll() {}, backlog: () => undefined };
  const stage =
    layer === "read"
      ? undefined
      : new SwapRowStage(swap.parse({ k: 3, depth }), methodRng(1).derive("swap"), out ?? drop);
  const t0 = process.cpuUsage();
  let rows = 0;
  let next = 100_000;
  for await (const batch of readRows(log.files, false, log.rejects, undefined, out?.readBuffer)) {
    rows += batch.n;
    if (stage === undefined) continue;
    stage.push(batch);
    const behind = out?.backlog();
    if (behind) await behind;
    if (layer === "heap" && rows >= next) {
      next += 100_000;
      (globalThis as { gc?: () => void }).gc?.();
      const held = (stage.counts() as Record<string, number>)["held events"];
      const mib = process.memoryUsage().heapUsed / 2 ** 20;
      console.log(
        `  ${rows.toLocaleString("en").padStart(9)} rows: live heap ${mib.toFixed(1)} MiB, ${held} held events`,
      );
    }
  }
  stage?.flush();
  await out?.close();
  if (out) rmSync(outPath, { force: true });
  const t = process.cpuUsage(t0);
  const cpu = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1e6;
  const rss = process.resourceUsage().maxRSS / 1024;
  // Let the observer deliver the last entries before they are read.
  await new Promise((resolve) => setImmediate(resolve));
  if (layer !== "heap")
    console.log(JSON.stringify({ rows, cpu: cpu(t), imports: cpu(imports), rssMiB: rss, ...gcs }));
}

const args = process.argv.slice(2);
if (args[0] === "--child") {
  await child(args[1]!, Number(args[2]));
} else if (!existsSync(INPUT) || !existsSync(join(DIST, "cli/main.js"))) {
  console.log(`skipped: needs ${INPUT} (made by bench/swap-cli.bench.ts) and dist/ (npm run build)`);
} else {
  const nums = args.filter((a) => /^\d+$/.test(a)).map(Number);
  const runs = nums[0] ?? 3;
  const depth = nums[1] ?? 1;
  const run = (layer: string, flags: string[] = []) =>
    spawnSync(
      process.execPath,
      [...flags, "--import", "tsx", fileURLToPath(import.meta.url), "--child", layer, String(depth)],
      {
        encoding: "utf8",
        cwd: ROOT,
      },
    );
  if (args.includes("heap")) {
    console.log(`live heap of SwapRowStage, k = 3, depth ${depth} (load ${loadavg()[0]!.toFixed(1)}):`);
    process.stdout.write(run("heap", ["--expose-gc"]).stdout);
  } else {
    const cpu: Record<string, number[]> = {};
    const gcs: Record<string, string[]> = {};
    for (let r = 0; r < runs; r++) {
      for (const layer of LAYERS) {
        const m = JSON.parse(run(layer).stdout.trim().split("\n").at(-1)!) as {
          cpu: number;
          minor: number;
          major: number;
          rssMiB: number;
        };
        cpu[layer] = [...(cpu[layer] ?? []), m.cpu];
        gcs[layer] = [...(gcs[layer] ?? []), `${m.minor}/${m.major}, ${m.rssMiB.toFixed(0)} MiB`];
      }
    }
    console.log(
      `CPU-s by layer, k = 3, depth ${depth}, ${runs} alternating cold runs (load ${loadavg()[0]!.toFixed(1)}):`,
    );
    for (const layer of LAYERS) {
      const xs = cpu[layer]!;
      console.log(
        `  ${layer.padEnd(6)} min ${Math.min(...xs).toFixed(2)}  runs ${xs.map((x) => x.toFixed(2)).join(" ")}  scavenges/mark-compacts, peak RSS: ${gcs[layer]!.join("; ")}`,
      );
    }
  }
}
