/**
 * `npm run bench`: runs every bench/*.bench.ts in its own process (so one benchmark's heap does not colour the
 * next), in name order, or only those whose name contains one of the arguments: `npm run bench -- io swap`.
 * Arguments from the first that starts with `-` on go to every benchmark run: `npm run bench -- scale --rows 1e6`.
 * Each benchmark prints its figures and writes bench/results/<name>.json; BENCHMARKS.md records them.
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

const dir = fileURLToPath(new URL(".", import.meta.url));
const args = process.argv.slice(2);
const firstFlag = args.findIndex((a) => a.startsWith("-"));
const filters = firstFlag === -1 ? args : args.slice(0, firstFlag);
const passed = firstFlag === -1 ? [] : args.slice(firstFlag);
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".bench.ts"))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();

let failed = 0;
for (const f of files) {
  process.stdout.write(`\n## ${f}\n`);
  const r = spawnSync(
    process.execPath,
    ["--expose-gc", "--max-old-space-size=8192", "--import", "tsx", `${dir}${f}`, ...passed],
    {
      stdio: "inherit",
    },
  );
  if (r.status !== 0) failed++;
}
process.stdout.write(`\n${files.length - failed} benchmarks ran, ${failed} failed\n`);
process.exitCode = failed ? 1 : 0;
