/**
 * results.tsv (one row per combination, one column per yardstick value; "n/a" where a yardstick does not
 * apply) and results.json (rows plus the run's metadata), both written atomically.
 */

import { join } from "node:path";
import { writeFileAtomic } from "../log/atomic.ts";
import { describeGuarantee } from "../log/guarantee.ts";
import type { ResultRow, RunMeta } from "../report/results.ts";

/** Every value column present in `rows`, in first-seen order. */
export function valueColumns(rows: readonly ResultRow[]): string[] {
  const cols: string[] = [];
  for (const r of rows) for (const k of Object.keys(r.values)) if (!cols.includes(k)) cols.push(k);
  return cols;
}

function cell(v: unknown): string {
  if (v === null || v === undefined) return "n/a";
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(6)));
  return String(v).replace(/[\t\n\r]/g, " ");
}

export function toTsv(rows: readonly ResultRow[]): string {
  const cols = valueColumns(rows);
  const head = ["method", "params", "seed", "status", "audit", "guarantee", "seconds", ...cols, "error"];
  const lines = [head.join("\t")];
  for (const r of rows) {
    lines.push(
      [
        r.method,
        JSON.stringify(r.params),
        r.seed,
        r.status,
        r.audit ?? "",
        r.status === "ok" ? describeGuarantee(r.guarantee) : "",
        r.seconds.toFixed(2),
        ...cols.map((c) => cell(r.values[c])),
        r.error ?? "",
      ]
        .map(cell)
        .join("\t"),
    );
  }
  return `${lines.join("\n")}\n`;
}

export async function writeResults(
  dir: string,
  rows: readonly ResultRow[],
  meta: RunMeta,
): Promise<{ tsv: string; json: string }> {
  const tsv = join(dir, "results.tsv");
  const json = join(dir, "results.json");
  await writeFileAtomic(tsv, toTsv(rows));
  await writeFileAtomic(json, `${JSON.stringify({ meta, rows }, null, 2)}\n`);
  return { tsv, json };
}
