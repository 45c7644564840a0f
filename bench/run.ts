/**
 * `npm run bench`: runs every bench/*.bench.ts in its own process (so one benchmark's heap does not colour the
 * next), in name order, or only those whose name contains one of the arguments: `npm run bench -- io swap`.
 * Each benchmark prints its figures and writes bench/results/<name>.json; BENCHMARKS.md records them.
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

const dir = fileURLToPath(new URL(".", import.meta.url));
const filters = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".bench.ts"))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();

let failed = 0;
for (const f of files) {
  process.stdout.write(`\n## ${f}\n`);
  const r = spawnSync(
    process.execPath,
    ["--expose-gc", "--max-old-space-size=8192", "--import", "tsx", `${dir}${f}`],
    {
      stdio: "inherit",
    },
  );
  if (r.status !== 0) failed++;
}
process.stdout.write(`\n${files.length - failed} benchmarks ran, ${failed} failed\n`);
process.exitCode = failed ? 1 : 0;
