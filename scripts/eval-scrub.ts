/**
 * `npm run eval:scrub`: query-level precision and recall of the identifier scrubber per PII kind on the labelled
 * dev set (../shared/data/labels/dev.tsv, column `pii`). For each kind, a query is a true positive when the
 * scrubber finds that kind and the label has it. Our finer types map onto the label kinds: zip → street_address;
 * url, ip_address, date → other.
 *
 * The dev set is evaluation data from AOL: it is read in place, never copied, and the script skips with a
 * message when it is absent. `--show` prints the disagreements (to the terminal only); `--json FILE` writes the
 * figures.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createScrubber } from "../src/scrub/scrubber.ts";
import type { PiiType } from "../src/scrub/types.ts";

const KINDS = ["person_name", "street_address", "phone", "email", "id_number", "other"] as const;
type Kind = (typeof KINDS)[number];

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

const args = process.argv.slice(2);
const show = args.includes("--show");
const jsonAt = args.indexOf("--json");
const jsonOut = jsonAt >= 0 ? args[jsonAt + 1] : undefined;
const file =
  args.find((a) => a.endsWith(".tsv")) ??
  fileURLToPath(new URL("../../shared/data/labels/dev.tsv", import.meta.url));

if (!existsSync(file)) {
  process.stdout.write(`eval-scrub: ${file} not found; skipping (the labelled set lives in ../shared).\n`);
  process.exit(0);
}

const lines = readFileSync(file, "utf8")
  .split("\n")
  .filter((l) => l.trim() !== "");
const header = lines[0]!.split("\t");
const qi = header.indexOf("query");
const pi = header.indexOf("pii");
if (qi < 0 || pi < 0) {
  process.stderr.write(`eval-scrub: ${file}: header needs 'query' and 'pii' columns\n`);
  process.exit(2);
}

const scrubber = createScrubber({ mode: "tag" });
const counts = Object.fromEntries(KINDS.map((k) => [k, { tp: 0, fp: 0, fn: 0, labelled: 0 }])) as Record<
  Kind | "any",
  { tp: number; fp: number; fn: number; labelled: number }
>;
counts.any = { tp: 0, fp: 0, fn: 0, labelled: 0 };
const disagreements: string[] = [];
let n = 0;
for (const line of lines.slice(1)) {
  const cols = line.split("\t");
  const query = cols[qi] ?? "";
  const pii = (cols[pi] ?? "none").trim();
  n++;
  const gold = new Set(pii === "none" ? [] : pii.split("+").map((k) => k.trim()));
  const result = scrubber.scrub(query);
  const pred = new Set(result.spans.map((s) => TO_KIND[s.type]));
  for (const k of [...KINDS, "any" as const]) {
    const g = k === "any" ? gold.size > 0 : gold.has(k);
    const p = k === "any" ? pred.size > 0 : pred.has(k);
    const c = counts[k];
    if (g) c.labelled++;
    if (g && p) c.tp++;
    else if (p) c.fp++;
    else if (g) c.fn++;
  }
  if (show && (gold.size > 0 || pred.size > 0) && [...gold].sort().join("+") !== [...pred].sort().join("+")) {
    disagreements.push(`  gold=${pii}\tpred=${[...pred].join("+") || "none"}\t${query}\t→ ${result.text}`);
  }
}

const fmt = (x: number) => (Number.isNaN(x) ? "–" : x.toFixed(2));
const rows = [...KINDS, "any" as const].map((k) => {
  const c = counts[k];
  const precision = c.tp + c.fp === 0 ? Number.NaN : c.tp / (c.tp + c.fp);
  const recall = c.labelled === 0 ? Number.NaN : c.tp / c.labelled;
  return { kind: k, ...c, precision, recall };
});
process.stdout.write(`Identifier scrubbing, query level, ${n} queries of ${file}\n\n`);
process.stdout.write(
  "| kind | labelled | predicted | TP | FP | FN | precision | recall |\n|---|---|---|---|---|---|---|---|\n",
);
for (const r of rows) {
  process.stdout.write(
    `| ${r.kind} | ${r.labelled} | ${r.tp + r.fp} | ${r.tp} | ${r.fp} | ${r.fn} | ${fmt(r.precision)} | ${fmt(r.recall)} |\n`,
  );
}
if (show && disagreements.length > 0) process.stdout.write(`\nDisagreements:\n${disagreements.join("\n")}\n`);
if (jsonOut) {
  writeFileSync(jsonOut, `${JSON.stringify({ file, queries: n, rows }, null, 2)}\n`);
  process.stdout.write(`\nwrote ${jsonOut}\n`);
}
