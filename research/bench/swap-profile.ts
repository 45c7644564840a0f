/**
 * Where a `--cpu-prof` profile of `querymask anonymize --method swap` spends its samples, by concern: each
 * sample is charged to the first frame of the project (dist/ or src/) on its stack, grouped by file, or to V8's
 * own nodes (garbage collector, program, idle) and node's module loader when no project frame is on it.
 *
 *   npm run build
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof dist/cli/main.js anonymize --method swap --k 3 --depth 1 --seed 1 \
 *     -q --json .cache/bench/aol-classified-by-time-5999999.tsv -o /tmp/out.tsv
 *   node bench/swap-profile.ts /tmp/prof/*.cpuprofile     (node ≥ 22.6, or: node --import tsx …)
 *
 * Samples are wall-clock milliseconds of the sampled thread: under load, descheduled time lands on whatever ran.
 */
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The concern of a project frame (its path under dist/ or src/, its function). */
function concern(path: string, fn: string): string {
  if (/log\/(write|atomic|row-write)\b/.test(path) || /^(toLine|write|format)/.test(fn))
    return "encoding + writing";
  if (/log\/(read|lines|rows|time|rejects)\b|log\/formats\//.test(path)) return "reading + decoding";
  if (/methods\/swap|util\/random|stream\/(stage|time-order)/.test(path))
    return "swap stage (+ time-order check)";
  if (/cli\//.test(path)) return "CLI";
  return "other project code";
}

const totals = new Map<string, number>();
for (const file of process.argv.slice(2)) {
  const p = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = new Map<number, string>();
  const labelOf = (id: number): string => {
    const known = label.get(id);
    if (known !== undefined) return known;
    const n = byId.get(id)!;
    const { url, functionName } = n.callFrame;
    let out: string;
    const m = /\/(?:dist|src)\/(.*)$/.exec(url);
    if (m && !url.includes("node_modules")) out = concern(m[1]!, functionName);
    else if (functionName === "(garbage collector)") out = "garbage collector";
    else if (functionName === "(idle)") out = "idle";
    else if (functionName === "(program)") out = "V8/native (program)";
    else {
      const up = parent.get(id);
      if (up === undefined || byId.get(up)!.callFrame.functionName === "(root)") {
        out = /node:internal\/modules|loader/.test(url) ? "module loading" : "node internals";
      } else {
        out = labelOf(up);
        if (out === "node internals" && /node:internal\/modules/.test(url)) out = "module loading";
      }
    }
    label.set(id, out);
    return out;
  };
  for (let i = 0; i < p.samples.length; i++) {
    const l = labelOf(p.samples[i]!);
    totals.set(l, (totals.get(l) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000);
  }
}
const all = [...totals.values()].reduce((a, b) => a + b, 0);
for (const [k, v] of [...totals].sort((a, b) => b[1] - a[1])) {
  console.log(`${k.padEnd(34)} ${v.toFixed(0).padStart(6)} ms  ${((100 * v) / all).toFixed(1).padStart(5)}%`);
}
console.log(`${"total".padEnd(34)} ${all.toFixed(0).padStart(6)} ms`);
