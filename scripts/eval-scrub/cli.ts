/**
 * The name set judged through the command a user runs: `querymask anonymize --method swap` (bin/querymask.js, which
 * classifies and scrubs on the way, with the input log's own cross-user evidence) on the AOL subset the labelled
 * queries were drawn from, once per fold with the person-name weights learned without that fold (handed to the CLI
 * by QUERYMASK_NAME_WEIGHTS, src/scrub/name-weights.ts). `--time original` keeps each released record's own time,
 * so a labelled query's release is found at the times the subset logged it (among the records released at that
 * second, the one whose words are a subsequence of the query's). Nothing is kept but the figures: the released
 * log goes to a temporary directory removed at the end.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadLog } from "../../src/log/read.ts";
import type { LogRecord } from "../../src/log/record.ts";
import { DEFAULT_NAME_WEIGHTS, NAME_WEIGHTS_ENV, type NameWeights } from "../../src/scrub/name-weights.ts";
import { normalizeSpace } from "../../src/scrub/operators.ts";
import type { NameEvidence } from "../../src/scrub/recognizer.ts";
import { tokenize } from "../../src/scrub/tokenize.ts";
import { foldWeights, type NameRow, type Outcome, type Rates, rates } from "./names.ts";

const CLI = fileURLToPath(new URL("../../bin/querymask.js", import.meta.url));

const words = (text: string) => tokenize(text.toLowerCase(), true).map((t) => t.text);

/** Whether `sub`'s words appear in `all`'s, in order. */
function subsequence(sub: readonly string[], all: readonly string[]): boolean {
  let j = 0;
  for (let i = 0; i < all.length && j < sub.length; i++) if (all[i] === sub[j]) j++;
  return j === sub.length;
}

/**
 * A row's outcome from its released text alone: a private name is removed when none of its words is released more
 * often than the query holds it outside the names (so a word kept from elsewhere in the query does not count
 * against it, and a name word kept counts whichever copy the release kept); public and name-free queries are intact
 * when released as typed (white space folded).
 */
export function textOutcome(row: NameRow, released: string): Outcome {
  if (row.person !== "private")
    return { ok: released === normalizeSpace(row.query), verbatim: false, released };
  const q = words(row.query);
  const inName = new Set(row.names.flat());
  const count = (ws: readonly string[], keep: (i: number) => boolean) => {
    const m = new Map<string, number>();
    ws.forEach((w, i) => {
      if (keep(i)) m.set(w, (m.get(w) ?? 0) + 1);
    });
    return m;
  };
  const outside = count(q, (i) => !inName.has(i));
  const out = count(words(released), () => true);
  const ok = row.names.every((name) => name.every((i) => (out.get(q[i]!) ?? 0) <= (outside.get(q[i]!) ?? 0)));
  const padded = ` ${words(released).join(" ")} `;
  const verbatim = row.names.some((name) => padded.includes(` ${name.map((i) => q[i]!).join(" ")} `));
  return { ok, verbatim, released };
}

export interface CliFold {
  readonly fold: number;
  readonly weights: NameWeights;
  readonly rates: Rates;
  /** Held-out rows the subset does not hold, or whose every record the release suppressed: not judged. */
  readonly unjudged: number;
  readonly cpuSeconds: number;
}

/**
 * Each fold's held-out rows judged on the CLI's release, with the weights fitted on the other folds (`fit` false:
 * the bundled weights for every fold). `records`: the subset as read (where each labelled query was logged);
 * `evidence`: its cross-user evidence, for the fit.
 */
export async function crossValidateCli(
  rows: readonly NameRow[],
  folds: number,
  log: string,
  records: readonly LogRecord[],
  fit: boolean,
  evidence: NameEvidence | undefined,
  progress: (line: string) => void,
): Promise<{ folds: CliFold[]; pooled: Rates; outcomes: (Outcome | undefined)[] }> {
  const timesOf = new Map<string, number[]>();
  for (const r of records) {
    const q = normalizeSpace(r.query.toLowerCase());
    const ts = timesOf.get(q);
    if (ts === undefined) timesOf.set(q, [r.time]);
    else if (ts.at(-1) !== r.time) ts.push(r.time);
  }
  const dir = mkdtempSync(join(tmpdir(), "qm-eval-scrub-"));
  const outcomes: (Outcome | undefined)[] = new Array(rows.length);
  const results: CliFold[] = [];
  const runs = new Map<string, { byTime: Map<number, string[]>; cpu: number }>();
  try {
    for (let f = 0; f < folds; f++) {
      const w = foldWeights(rows, f, fit, DEFAULT_NAME_WEIGHTS, evidence);
      const t0 = Date.now();
      // (the same weights give the same release: without --fit, one run serves every fold)
      const key = JSON.stringify(w);
      const { byTime, cpu } = runs.get(key) ?? (await release(log, w, dir));
      runs.set(key, { byTime, cpu });
      progress(
        `fold ${f + 1}: anonymize --method swap ran in ${((Date.now() - t0) / 1000).toFixed(0)} s wall`,
      );
      const held: number[] = [];
      let unjudged = 0;
      rows.forEach((r, i) => {
        if (r.fold !== f) return;
        const q = words(r.query);
        let released: string | undefined;
        for (const t of timesOf.get(normalizeSpace(r.query.toLowerCase())) ?? []) {
          released = byTime.get(t)?.find((text) => subsequence(words(text), q));
          if (released !== undefined) break;
        }
        if (released === undefined) {
          unjudged++;
          return;
        }
        outcomes[i] = textOutcome(r, released);
        held.push(i);
      });
      const heldRows = held.map((i) => rows[i]!);
      results.push({
        fold: f,
        weights: w,
        rates: rates(
          heldRows,
          held.map((i) => outcomes[i]!),
        ),
        unjudged,
        cpuSeconds: cpu,
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const judged = rows.map((_, i) => i).filter((i) => outcomes[i] !== undefined);
  return {
    folds: results,
    pooled: rates(
      judged.map((i) => rows[i]!),
      judged.map((i) => outcomes[i]!),
    ),
    outcomes,
  };
}

/** The CLI's release of `log` under `weights`, read back: released texts by time, and the child's CPU seconds. */
async function release(
  log: string,
  weights: NameWeights,
  dir: string,
): Promise<{ byTime: Map<number, string[]>; cpu: number }> {
  const wfile = join(dir, "weights.json");
  writeFileSync(wfile, JSON.stringify({ about: "one fold's weights (evaluation)", weights }));
  const out = join(dir, "released.tsv");
  const argv = [CLI, "anonymize", "--method", "swap", "--time", "original", "-q", "-o", out, log];
  const times = join(dir, "time.txt");
  const timeBin = "/usr/bin/time";
  const useTime = existsSync(timeBin);
  const r = spawnSync(
    useTime ? timeBin : process.execPath,
    useTime ? ["-o", times, "-f", "%U %S", process.execPath, ...argv] : argv,
    {
      encoding: "utf8",
      env: { ...process.env, [NAME_WEIGHTS_ENV]: wfile },
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  if (r.status !== 0)
    throw new Error(`querymask ${argv.slice(1).join(" ")} failed (${r.status}): ${r.stderr}`);
  const cpu = useTime
    ? readFileSync(times, "utf8")
        .trim()
        .split("\n")
        .at(-1)!
        .split(" ")
        .map(Number)
        .reduce((a, b) => a + b, 0)
    : Number.NaN;
  const byTime = new Map<number, string[]>();
  for (const r of (await loadLog([out])).records) {
    const ts = byTime.get(r.time);
    if (ts === undefined) byTime.set(r.time, [r.query]);
    else if (!ts.includes(r.query)) ts.push(r.query);
  }
  rmSync(out, { force: true });
  return { byTime, cpu };
}
