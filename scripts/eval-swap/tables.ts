/** TSV files under docs/results/, merged by key so that the evaluation can run in parts. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { OUT, PREFIX } from "./options.ts";

export type Cell = string | number;
export const fmt = (v: Cell) => (typeof v === "number" ? String(Number(v.toFixed(4))) : v);

export function readTsv(name: string): { header: string[]; rows: string[][] } | undefined {
  const path = `${OUT}${name.replace(/^swap/, PREFIX)}`;
  if (!existsSync(path)) return undefined;
  const [h, ...rows] = readFileSync(path, "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => l.split("\t"));
  return { header: h!, rows };
}

/** Merge rows into a TSV: rows with the same first `keyCols` cells replace the old ones; sorted by key. */
export function mergeTsv(name: string, header: string[], rows: Cell[][], keyCols: number): void {
  const old = readTsv(name);
  const key = (r: string[]) => r.slice(0, keyCols).join("\t");
  const map = new Map<string, string[]>();
  if (old && old.header.join("\t") === header.join("\t")) for (const r of old.rows) map.set(key(r), r);
  for (const r of rows) {
    const s = r.map(fmt);
    map.set(key(s), s);
  }
  const cmp = (x: string, y: string) => {
    const nx = Number(x);
    const ny = Number(y);
    return Number.isNaN(nx) || Number.isNaN(ny) ? (x < y ? -1 : x > y ? 1 : 0) : nx - ny;
  };
  const sorted = [...map.values()].sort((x, y) => {
    for (let i = 0; i < keyCols; i++) {
      const c = cmp(x[i]!, y[i]!);
      if (c !== 0) return c;
    }
    return 0;
  });
  mkdirSync(OUT, { recursive: true });
  writeFileSync(
    `${OUT}${name.replace(/^swap/, PREFIX)}`,
    `${[header, ...sorted].map((r) => r.join("\t")).join("\n")}\n`,
  );
}

export const H = {
  fig6: ["k", "variant", "matching_pct", "matching_pct_ignoring_time", "released_rows"],
  fig7: ["k", "attack", "linked_pct", "users_linked", "cpu_us_per_record", "anonymizer_final_k"],
  grid: [
    "stream",
    "k",
    "depth",
    "final_k_mean",
    "buckets",
    "cpu_us_per_record",
    "best_attack_pct",
    "best_attack",
    "deanon1_pct",
    "deanon2_pct",
    "deanon3_pct",
    "deanon4_pct",
    "emd_mean",
    "emd_pct_of_max",
    "suppressed_rows",
  ],
  seeds: [
    "k",
    "depth",
    "seed",
    "final_k_mean",
    "best_attack_pct",
    "best_attack",
    "deanon1_pct",
    "deanon2_pct",
    "deanon3_pct",
    "deanon4_pct",
    "emd_pct_of_max",
    "suppressed_rows",
    "categories",
  ],
  delta: [
    "k",
    "delta",
    "cpu_s",
    "cpu_us_per_record",
    "final_k_mean",
    "final_k_max",
    "buckets",
    "buckets_grown",
    "k_growths",
    "max_held_events",
    "suppressed_rows",
  ],
  profile: [
    "k",
    "depth",
    "users",
    "profile_rows_original",
    "profile_rows_released",
    "identical",
    "suppressed_rows",
  ],
  resources: ["component", "cpu_us_per_record", "heap_growth_mib", "max_held_events"],
  finalk: [
    "stream",
    "k",
    "users",
    "events",
    "events_per_s",
    "final_k_mean",
    "final_k_max",
    "buckets",
    "buckets_grown",
    "k_growths",
  ],
};
