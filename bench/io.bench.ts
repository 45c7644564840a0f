/**
 * Log I/O throughput: read + parse a plain AOL TSV (target ≥ 1,000,000 lines/s on one core), the same gzip'd,
 * and writing. Input: the shared AOL subset repeated 10× (4.08M lines) when ../shared/data is present,
 * otherwise a generated AOL-layout file of the same size. Peak RSS shows memory stays flat in the file size.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { openLog } from "../src/log/read.ts";
import { writeBatches } from "../src/log/write.ts";
import { writeResults } from "./results.ts";
import { sharedAol } from "./shared-aol.ts";

const AOL = sharedAol();
const dir = mkdtempSync(join(tmpdir(), "qm-bench-io-"));
const plain = join(dir, "aol10.tsv");

function makeInput(): string {
  if (AOL !== undefined) {
    const text = gunzipSync(readFileSync(AOL)).toString("utf8");
    const nl = text.indexOf("\n");
    const body = text.slice(nl + 1);
    writeFileSync(plain, text.slice(0, nl + 1) + body.repeat(10));
    return "shared AOL subset ×10";
  }
  const lines = ["AnonID\tQuery\tQueryTime\tItemRank\tClickURL"];
  for (let i = 0; i < 4_079_290; i++) {
    lines.push(
      `${1000 + (i >> 9)}\tsome query text ${i % 9973}\t2006-03-${String(1 + (i % 28)).padStart(2, "0")} 07:33:28\t\thttp://www.site${i % 501}.com/`,
    );
  }
  writeFileSync(plain, `${lines.join("\n")}\n`);
  return "generated AOL-layout lines (shared data absent)";
}

async function timeRead(path: string): Promise<{ lines: number; secs: number }> {
  const t0 = performance.now();
  const log = await openLog([path]);
  let lines = 0;
  for await (const b of log.batches()) lines += b.length;
  return { lines, secs: (performance.now() - t0) / 1000 };
}

const source = makeInput();
let peak = 0;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 50);

const warm = await timeRead(plain); // JIT warm-up, also a measurement
const read = await timeRead(plain);
const gz = join(dir, "aol10.tsv.gz");
const log = await openLog([plain]);
const w0 = performance.now();
await writeBatches(gz, "aol", log.batches());
const writeGzSecs = (performance.now() - w0) / 1000;
const log2 = await openLog([plain]);
const w1 = performance.now();
await writeBatches(join(dir, "copy.tsv"), "aol", log2.batches());
const writePlainSecs = (performance.now() - w1) / 1000;
const readGz = await timeRead(gz);
clearInterval(sampler);

const rows = [
  ["read + parse, plain", read.lines, read.secs],
  ["read + parse, plain (first, cold JIT)", warm.lines, warm.secs],
  ["read + parse, gzip", readGz.lines, readGz.secs],
  ["write, plain", read.lines, writePlainSecs],
  ["write, gzip", read.lines, writeGzSecs],
] as const;
console.log(
  `input: ${source}, ${(statSync(plain).size / 1e6).toFixed(0)} MB; ${cpus()[0]?.model ?? "?"} ×${cpus().length}; node ${process.version}`,
);
console.log("| operation | lines | seconds | lines/s |\n|---|---:|---:|---:|");
for (const [op, n, s] of rows)
  console.log(
    `| ${op} | ${n.toLocaleString("en")} | ${s.toFixed(2)} | ${Math.round(n / s).toLocaleString("en")} |`,
  );
console.log(`peak RSS: ${(peak / 1e6).toFixed(0)} MB`);
writeResults("io", {
  source,
  rows: rows.map(([op, n, s]) => ({ op, lines: n, seconds: s, perSecond: n / s })),
  peakRssBytes: peak,
});
rmSync(dir, { recursive: true, force: true });
