/** Benchmarks write their figures to bench/results/<name>.json (ignored by git; BENCHMARKS.md records them). */
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";

export function writeResults(name: string, figures: unknown): void {
  const dir = new URL("./results/", import.meta.url);
  mkdirSync(dir, { recursive: true });
  const machine = { cpu: cpus()[0]?.model ?? "unknown", cores: cpus().length, node: process.version };
  const body = { name, date: new Date().toISOString(), machine, figures };
  writeFileSync(new URL(`${name}.json`, dir), `${JSON.stringify(body, null, 2)}\n`);
}
