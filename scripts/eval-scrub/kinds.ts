/**
 * The category set's `pii` column (../shared/data/labels/train.tsv, dev.tsv): query-level precision and recall of
 * the scrubber per identifier kind. A query is a true positive for a kind when the scrubber finds that kind and
 * the label has it. Our finer types map onto the label kinds: zip → street_address; url, ip_address, date → other.
 */
import { readFileSync } from "node:fs";
import type { Scrubber } from "../../src/scrub/scrubber.ts";
import type { PiiType } from "../../src/scrub/types.ts";

export const KINDS = ["person_name", "street_address", "phone", "email", "id_number", "other"] as const;
export type Kind = (typeof KINDS)[number];

const TO_KIND: Record<PiiType, Kind> = {
  person_name: "person_name",
  street_address: "street_address",
  zip: "street_address",
  phone: "phone",
  email: "email",
  id_number: "id_number",
  url: "other",
  ip_address: "other",
  date: "other",
};

export interface KindRow {
  readonly kind: Kind | "any";
  readonly labelled: number;
  readonly tp: number;
  readonly fp: number;
  readonly fn: number;
  readonly precision: number;
  readonly recall: number;
}

export function evalKinds(
  file: string,
  scrubber: Scrubber,
  show: boolean,
): { queries: number; rows: KindRow[]; disagreements: string[] } {
  const lines = readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "");
  const header = lines[0]!.split("\t");
  const qi = header.indexOf("query");
  const pi = header.indexOf("pii");
  if (qi < 0 || pi < 0) throw new Error(`${file}:1: header needs 'query' and 'pii' columns`);
  const counts = new Map<Kind | "any", { tp: number; fp: number; fn: number; labelled: number }>();
  for (const k of [...KINDS, "any" as const]) counts.set(k, { tp: 0, fp: 0, fn: 0, labelled: 0 });
  const disagreements: string[] = [];
  for (const line of lines.slice(1)) {
    const cols = line.split("\t");
    const query = cols[qi] ?? "";
    const pii = (cols[pi] ?? "none").trim();
    const gold = new Set(pii === "none" ? [] : pii.split("+").map((k) => k.trim()));
    const result = scrubber.scrub(query);
    const pred = new Set(result.spans.map((s) => TO_KIND[s.type]));
    for (const k of [...KINDS, "any" as const]) {
      const g = k === "any" ? gold.size > 0 : gold.has(k);
      const p = k === "any" ? pred.size > 0 : pred.has(k);
      const c = counts.get(k)!;
      if (g) c.labelled++;
      if (g && p) c.tp++;
      else if (p) c.fp++;
      else if (g) c.fn++;
    }
    if (show && (gold.size > 0 || pred.size > 0) && [...gold].sort().join("+") !== [...pred].sort().join("+"))
      disagreements.push(`  gold=${pii}\tpred=${[...pred].join("+") || "none"}\t${query}\t→ ${result.text}`);
  }
  const rows = [...counts].map(([kind, c]) => ({
    kind,
    ...c,
    precision: c.tp + c.fp === 0 ? Number.NaN : c.tp / (c.tp + c.fp),
    recall: c.labelled === 0 ? Number.NaN : c.tp / c.labelled,
  }));
  return { queries: lines.length - 1, rows, disagreements };
}
