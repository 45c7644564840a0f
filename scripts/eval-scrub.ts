/**
 * `npm run eval:scrub`: how well the release's identifier scrubbing does on the labelled sets of ../shared (read in
 * place, never copied; skipped with a message when absent).
 *
 * - The name set (labels/names_train.tsv): per fold, the share of private names removed (and kept verbatim), of
 *   public-figure queries and of name-free queries released intact, through the scrubber the release paths build
 *   (drop mode; --cli runs `anonymize --method swap` itself, and on the bundled weights gives the same figures).
 *   Twice: per record (no cross-user evidence: what a per-record-only path gets) and with the log's evidence (the
 *   distinct users of the AOL subset who typed each name, as the swap path counts them over its input).
 * - The category sets (labels/train.tsv, dev.tsv, or the .tsv files given): precision and recall per kind.
 *
 *   node --import tsx scripts/eval-scrub.ts [FILE.tsv …] [--names FILE] [--folds 5] [--fit [--write]]
 *        [--log FILE | --no-log] [--cli] [--show] [--json FILE]
 *
 * --fit chooses the person-name weights on each fold's complement (coordinate ascent, ./eval-scrub/names.ts) and
 * judges the fold with them; then on the whole set, printed, and with --write stored in data/scrub/person-name.json
 * (learned parameters only). --cli judges the name set through the command a user runs instead, per fold (with
 * --fit, the weights learned without the fold): `querymask anonymize --method swap` on the log (./eval-scrub/cli.ts).
 * --show prints the misses to the terminal only. --json writes the figures (no query).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { loadLog } from "../src/log/read.ts";
import type { LogRecord } from "../src/log/record.ts";
import { NameUsers } from "../src/scrub/name-users.ts";
import { DEFAULT_NAME_WEIGHTS, type NameWeights } from "../src/scrub/name-weights.ts";
import type { NameEvidence } from "../src/scrub/recognizer.ts";
import { createScrubber } from "../src/scrub/scrubber.ts";
import { crossValidateCli } from "./eval-scrub/cli.ts";
import { evalKinds } from "./eval-scrub/kinds.ts";
import { crossValidate, fitWeights, type NameRow, type Rates, readNameSet } from "./eval-scrub/names.ts";

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const value = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const shared = (path: string) => fileURLToPath(new URL(`../../shared/data/${path}`, import.meta.url));
const folds = Number(value("--folds") ?? 5);
const namesFile = value("--names") ?? shared("labels/names_train.tsv");
const logFile = flag("--no-log")
  ? undefined
  : (value("--log") ?? shared("aol-top1000/aol_top1000_users.tsv.gz"));
const kindFiles = args.filter(
  (a, i) => a.endsWith(".tsv") && args[i - 1] !== "--names" && args[i - 1] !== "--json",
);
const categorySets =
  kindFiles.length > 0 ? kindFiles : [shared("labels/train.tsv"), shared("labels/dev.tsv")];
const show = flag("--show");
const out = (s: string) => process.stdout.write(s);
const pct = (x: number) => (Number.isNaN(x) ? "–" : (100 * x).toFixed(1));
const fmt = (x: number) => (Number.isNaN(x) ? "–" : x.toFixed(2));
const json: Record<string, unknown> = {};

if (!existsSync(namesFile) && categorySets.every((f) => !existsSync(f))) {
  out("eval-scrub: the labelled sets are absent (they live in ../shared/data/labels); skipping.\n");
  process.exit(0);
}

function ratesLine(label: string, r: Rates): string {
  return `| ${label} | ${pct(r.private)} | ${pct(r.verbatim)} | ${pct(r.public)} | ${pct(r.none)} | ${r.privateN} / ${r.publicN} / ${r.noneN} |\n`;
}

function nameSection(
  rows: readonly NameRow[],
  label: string,
  nameUsers: NameEvidence | undefined,
): NameWeights {
  const cv = crossValidate(rows, folds, DEFAULT_NAME_WEIGHTS, flag("--fit"), nameUsers);
  out(`\n### ${label}${flag("--fit") ? " (weights fitted on the other folds)" : " (bundled weights)"}\n\n`);
  out(
    "| fold | private removed % | private kept verbatim % | public intact % | name-free intact % | n private / public / none |\n",
  );
  out("|---|---|---|---|---|---|\n");
  for (const f of cv.folds) out(ratesLine(String(f.fold + 1), f.rates));
  out(ratesLine("pooled", cv.pooled));
  const mean = (k: "private" | "public" | "none") =>
    cv.folds.reduce((a, f) => a + f.rates[k], 0) / cv.folds.length;
  const sd = (k: "private" | "public" | "none") =>
    Math.sqrt(
      cv.folds.reduce((a, f) => a + (f.rates[k] - mean(k)) ** 2, 0) / Math.max(1, cv.folds.length - 1),
    );
  out(
    `| mean ± sd | ${pct(mean("private"))} ± ${pct(sd("private"))} | | ${pct(mean("public"))} ± ${pct(sd("public"))} | ${pct(mean("none"))} ± ${pct(sd("none"))} | |\n`,
  );
  json[label] = { folds: cv.folds, pooled: cv.pooled };
  if (show) {
    out("\nMisses (terminal only):\n");
    rows.forEach((r, i) => {
      const o = cv.outcomes[i]!;
      if (!o.ok) out(`  ${r.person}\t${r.query}\t→ ${o.released}\n`);
    });
  }
  return flag("--fit") ? fitWeights(rows, DEFAULT_NAME_WEIGHTS, nameUsers) : DEFAULT_NAME_WEIGHTS;
}

let evidence: NameEvidence | undefined;
let records: readonly LogRecord[] = [];
if (logFile !== undefined && existsSync(logFile)) {
  const log = await loadLog([logFile]);
  records = log.records;
  evidence = new NameUsers().add(log.records);
  out(`cross-user evidence: ${log.records.length.toLocaleString("en-US")} records of ${logFile}\n`);
}

async function cliSection(rows: readonly NameRow[], log: string): Promise<void> {
  const cv = await crossValidateCli(rows, folds, log, records, flag("--fit"), evidence, (line) =>
    process.stderr.write(`${line}\n`),
  );
  out(
    `\n### through \`querymask anonymize --method swap\` on ${log}${flag("--fit") ? " (weights fitted on the other folds)" : " (bundled weights)"}\n\n`,
  );
  out(
    "| fold | private removed % | private kept verbatim % | public intact % | name-free intact % | n private / public / none | not judged | CLI CPU-s |\n",
  );
  out("|---|---|---|---|---|---|---|---|\n");
  for (const f of cv.folds)
    out(`${ratesLine(String(f.fold + 1), f.rates).trimEnd()} ${f.unjudged} | ${f.cpuSeconds.toFixed(1)} |\n`);
  out(`${ratesLine("pooled", cv.pooled).trimEnd()} ${cv.folds.reduce((a, f) => a + f.unjudged, 0)} | |\n`);
  json["through anonymize --method swap"] = { folds: cv.folds, pooled: cv.pooled };
  if (show) {
    out("\nMisses (terminal only):\n");
    rows.forEach((r, i) => {
      const o = cv.outcomes[i];
      if (o !== undefined && !o.ok) out(`  ${r.person}\t${r.query}\t→ ${o.released}\n`);
    });
  }
}

if (existsSync(namesFile) && flag("--cli")) {
  if (logFile === undefined || !existsSync(logFile)) {
    out("eval-scrub --cli: needs the log the labelled queries were drawn from (--log FILE); skipping.\n");
    process.exit(0);
  }
  const rows = readNameSet(namesFile, folds);
  out(`\n## Names: ${rows.length} queries of ${namesFile}, ${folds} folds\n`);
  await cliSection(rows, logFile);
  process.exit(0);
}

if (existsSync(namesFile)) {
  const rows = readNameSet(namesFile, folds);
  out(`\n## Names: ${rows.length} queries of ${namesFile}, ${folds} folds\n`);
  nameSection(rows, "per record (no cross-user evidence)", undefined);
  if (evidence !== undefined) {
    const fitted = nameSection(rows, "with the log's cross-user evidence", evidence);
    if (flag("--fit")) {
      out(
        `\nweights fitted on the whole set (with the log's evidence):\n${JSON.stringify(fitted, null, 2)}\n`,
      );
      if (flag("--write")) {
        const file = new URL("../data/scrub/person-name.json", import.meta.url);
        const about = (JSON.parse(readFileSync(file, "utf8")) as { about: string }).about;
        writeFileSync(file, `${JSON.stringify({ about, weights: fitted }, null, 2)}\n`);
        out(`wrote ${fileURLToPath(file)}\n`);
      }
    }
  }
} else out(`\neval-scrub: ${namesFile} not found; the name set is skipped.\n`);

const scrubber = createScrubber({ mode: "tag" });
for (const file of categorySets) {
  if (!existsSync(file)) {
    out(`\neval-scrub: ${file} not found; skipped.\n`);
    continue;
  }
  const r = evalKinds(file, scrubber, show);
  out(`\n## Identifier kinds, query level, ${r.queries} queries of ${file} (per record)\n\n`);
  out(
    "| kind | labelled | predicted | TP | FP | FN | precision | recall |\n|---|---|---|---|---|---|---|---|\n",
  );
  for (const k of r.rows)
    out(
      `| ${k.kind} | ${k.labelled} | ${k.tp + k.fp} | ${k.tp} | ${k.fp} | ${k.fn} | ${fmt(k.precision)} | ${fmt(k.recall)} |\n`,
    );
  if (show && r.disagreements.length > 0) out(`\nDisagreements:\n${r.disagreements.join("\n")}\n`);
  json[file] = { queries: r.queries, rows: r.rows };
}

const jsonOut = value("--json");
if (jsonOut) {
  writeFileSync(jsonOut, `${JSON.stringify(json, null, 2)}\n`);
  out(`\nwrote ${jsonOut}\n`);
}
