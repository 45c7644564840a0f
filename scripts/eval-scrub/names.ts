/**
 * The name set (../shared/data/labels/names_train.tsv: query, users, person = private | public | none, span): what
 * the release does to each query, per fold. A private name is *removed* when every word of its span lies in a
 * span the scrubber drops, *kept verbatim* when the span still appears whole in the released text; a public or a
 * name-free query is *intact* when its released text is the query (white space folded). The scrubber is the one the
 * release paths build (`createScrubber({ allow, nameUsers })`, drop mode; ./cli.ts judges the release of
 * `anonymize --method swap` itself), with or without the log's cross-user evidence.
 *
 * `fitWeights` chooses the person-name weights by coordinate ascent on an objective that puts private names first
 * (./objective below), and `crossValidate` reports each fold with the weights chosen on the other folds.
 */
import { readFileSync } from "node:fs";
import { type NameWeights, nameWeights } from "../../src/scrub/name-weights.ts";
import { normalizeSpace } from "../../src/scrub/operators.ts";
import type { NameEvidence } from "../../src/scrub/recognizer.ts";
import { createScrubber } from "../../src/scrub/scrubber.ts";
import { tokenize } from "../../src/scrub/tokenize.ts";

export type Person = "private" | "public" | "none";

export interface NameRow {
  readonly id: string;
  readonly query: string;
  readonly person: Person;
  /** The private names' token positions in the query (one set per name). */
  readonly names: readonly (readonly number[])[];
  readonly fold: number;
}

/** FNV-1a of the id: a row's fold does not depend on the file's order. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** The rows of a name set; `file:line: reason` for a malformed line. */
export function readNameSet(file: string, folds: number): NameRow[] {
  const lines = readFileSync(file, "utf8").split("\n");
  const head = lines[0]!.split("\t");
  const col = (name: string) => {
    const i = head.indexOf(name);
    if (i < 0) throw new Error(`${file}:1: header needs a '${name}' column`);
    return i;
  };
  const [id, query, person, span] = [col("id"), col("query"), col("person"), col("span")];
  const rows: NameRow[] = [];
  lines.slice(1).forEach((line, k) => {
    if (line.trim() === "") return;
    const c = line.split("\t");
    const p = c[person];
    if (p !== "private" && p !== "public" && p !== "none")
      throw new Error(`${file}:${k + 2}: person must be private, public or none`);
    const q = c[query] ?? "";
    const tokens = tokenize(q.toLowerCase(), true).map((t) => t.text);
    const names: number[][] = [];
    if (p === "private") {
      for (const s of (c[span] ?? "").split("|")) {
        const words = tokenize(s.toLowerCase(), true).map((t) => t.text);
        const at = tokens.findIndex((_, i) => words.length > 0 && words.every((w, j) => tokens[i + j] === w));
        if (at < 0) throw new Error(`${file}:${k + 2}: span not found in the query`);
        names.push(words.map((_, j) => at + j));
      }
    }
    rows.push({ id: c[id] ?? "", query: q, person: p, names, fold: hash(c[id] ?? "") % folds });
  });
  return rows;
}

/** One row's outcome: removed (private, every word), verbatim (private, some name whole), intact (others). */
export interface Outcome {
  readonly ok: boolean;
  readonly verbatim: boolean;
  readonly released: string;
}

export function outcome(
  row: NameRow,
  released: string,
  dropped: readonly { start: number; end: number }[],
): Outcome {
  if (row.person !== "private")
    return { ok: released === normalizeSpace(row.query), verbatim: false, released };
  const tokens = tokenize(row.query.toLowerCase(), true);
  const gone = (i: number) => dropped.some((s) => s.start <= tokens[i]!.start && tokens[i]!.end <= s.end);
  const ok = row.names.every((name) => name.every(gone));
  const padded = ` ${released.toLowerCase()} `;
  const verbatim = row.names.some((name) =>
    padded.includes(` ${name.map((i) => tokens[i]!.text).join(" ")} `),
  );
  return { ok, verbatim, released };
}

/** Each row's outcome under `weights`, with or without the cross-user evidence. */
export function run(rows: readonly NameRow[], weights: NameWeights, nameUsers?: NameEvidence): Outcome[] {
  const scrubber = createScrubber({ nameWeights: weights, nameUsers });
  return rows.map((r) => {
    const s = scrubber.scrub(r.query);
    return outcome(r, s.text, s.spans);
  });
}

export interface Rates {
  readonly private: number;
  readonly privateN: number;
  readonly verbatim: number;
  readonly public: number;
  readonly publicN: number;
  readonly none: number;
  readonly noneN: number;
}

export function rates(
  rows: readonly NameRow[],
  out: readonly Outcome[],
  keep: (r: NameRow) => boolean = () => true,
): Rates {
  const n = { private: 0, public: 0, none: 0 };
  const ok = { private: 0, public: 0, none: 0 };
  let verbatim = 0;
  rows.forEach((r, i) => {
    if (!keep(r)) return;
    n[r.person]++;
    if (out[i]!.ok) ok[r.person]++;
    if (out[i]!.verbatim) verbatim++;
  });
  const frac = (a: number, b: number) => (b === 0 ? Number.NaN : a / b);
  return {
    private: frac(ok.private, n.private),
    privateN: n.private,
    verbatim: frac(verbatim, n.private),
    public: frac(ok.public, n.public),
    publicN: n.public,
    none: frac(ok.none, n.none),
    noneN: n.none,
  };
}

/**
 * Privacy first: the share of private names removed, less a steep penalty for each point of name-free queries
 * damaged below 97% and of public-figure queries below 75% (the floors), plus a little for each public query
 * kept (to choose between weights that remove as many names).
 */
export function objective(r: Rates): number {
  return r.private - 10 * Math.max(0, 0.97 - r.none) - 10 * Math.max(0, 0.75 - r.public) + 0.05 * r.public;
}

/** The values each weight is searched over (the bundled value is always among the candidates). */
const GRID: Partial<Record<keyof NameWeights, readonly number[]>> = {
  threshold: [0.55, 0.6, 0.65],
  privateCue: [0.3, 0.4, 0.5],
  personalContext: [0.4, 0.5, 0.6],
  otherFirstName: [0, 0.3, 0.5, 0.6],
  publicCue: [0.5, 0.7, 1],
  weakPublicCue: [0, 0.1, 0.2],
  wordFirstName: [0.5, 0.6, 0.7],
  wordSurname: [0.5, 0.6, 0.7],
  unknownSurname: [0.55, 0.6, 0.67],
  familyRank: [1000, 5000, 20000],
  middleName: [0, 1, 1.1],
  bareName: [0, 0.65, 0.7],
  manyUsers: [2, 3, 5],
  manyUsersShift: [0.2, 0.3, 0.35], // ≤ 1 − threshold (name-weights.ts: never alone)
};

/** Weights chosen on `rows` by coordinate ascent from `start` (two rounds over every weight). */
export function fitWeights(
  rows: readonly NameRow[],
  start: NameWeights,
  nameUsers?: NameEvidence,
): NameWeights {
  let best = start;
  let score = objective(rates(rows, run(rows, best, nameUsers)));
  for (let round = 0; round < 2; round++) {
    let moved = false;
    for (const [key, values] of Object.entries(GRID) as [keyof NameWeights, readonly number[]][]) {
      if (nameUsers === undefined && (key === "manyUsers" || key === "manyUsersShift")) continue;
      for (const v of values) {
        if (v === best[key]) continue;
        let w: NameWeights;
        try {
          w = nameWeights({ ...best, [key]: v });
        } catch {
          continue; // (a combination the weights refuse: the user count alone deciding)
        }
        const s = objective(rates(rows, run(rows, w, nameUsers)));
        if (s > score + 1e-9) {
          best = w;
          score = s;
          moved = true;
        }
      }
    }
    if (!moved) break;
  }
  return best;
}

/** The weights fold `f` is judged with: fitted from `start` on the other folds, or `start` itself. */
export function foldWeights(
  rows: readonly NameRow[],
  f: number,
  fit: boolean,
  start: NameWeights,
  nameUsers?: NameEvidence,
): NameWeights {
  return fit
    ? fitWeights(
        rows.filter((r) => r.fold !== f),
        start,
        nameUsers,
      )
    : start;
}

export interface FoldResult {
  readonly fold: number;
  readonly weights: NameWeights;
  readonly rates: Rates;
}

/** Each fold judged with the weights fitted on the other folds (`fit` false: the bundled weights throughout). */
export function crossValidate(
  rows: readonly NameRow[],
  folds: number,
  weights: NameWeights,
  fit: boolean,
  nameUsers?: NameEvidence,
): { folds: FoldResult[]; pooled: Rates; outcomes: Outcome[] } {
  const outcomes: Outcome[] = new Array(rows.length);
  const results: FoldResult[] = [];
  for (let f = 0; f < folds; f++) {
    const w = foldWeights(rows, f, fit, weights, nameUsers);
    const held = rows.map((r, i) => [r, i] as const).filter(([r]) => r.fold === f);
    const out = run(
      held.map(([r]) => r),
      w,
      nameUsers,
    );
    held.forEach(([, i], k) => {
      outcomes[i] = out[k]!;
    });
    results.push({
      fold: f,
      weights: w,
      rates: rates(
        held.map(([r]) => r),
        out,
      ),
    });
  }
  return { folds: results, pooled: rates(rows, outcomes), outcomes };
}
