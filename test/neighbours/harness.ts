/**
 * The neighbouring-log harness: runs `querymask anonymize --method dp` the way a user does — the command's own
 * entry point, in process (`main`), or as a child process — on pairs of logs L, L′ = L plus one user's whole
 * history, many times each with the default cryptographic noise, and checks the empirical privacy loss of events
 * read off the written count table: for an event E, P[L′ ∈ E] ≤ e^ε·P[L ∈ E] + δ and the reverse, within
 * Clopper–Pearson bounds. Nothing here comes from the method: the logs are written as files, the table is parsed
 * from the file, the thresholds a case needs are read off the published summary (`--json`).
 *
 * Power. With n runs per log, confidence α per comparison, an event L never shows (k = 0) is found violated when
 * the lower bound of P[L′] exceeds e^ε·(1 − α^(1/n)) + δ. {@link power} computes the chance of that for a true
 * P[L′]: at δ = 0.2, n = 300, α = 1e-3 a mechanism leaking with 2δ = 0.4 is caught 99.9% of the time
 * (the bench); at δ = 0.05, n = 30 one leaking with probability ≥ 0.9 is caught 95% of the time (CI).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { main } from "../../src/cli/main.ts";

export const HEADER = "AnonID\tQuery\tQueryTime\tItemRank\tClickURL\n";

/** One row of an AOL log; `click` empty for a query without a click. */
export const row = (user: string, query: string, minute: number, click = ""): string => {
  const h = String(10 + (Math.floor(minute / 60) % 10)).padStart(2, "0");
  const m = String(minute % 60).padStart(2, "0");
  const day = String(1 + (Math.floor(minute / 600) % 28)).padStart(2, "0");
  return `${user}\t${query}\t2006-03-${day} ${h}:${m}:00\t${click ? 1 : ""}\t${click}\n`;
};

/** What the command wrote and said. */
export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `querymask <args>` in this process, its stdout and stderr captured. */
export async function querymask(args: readonly string[]): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const write = { out: process.stdout.write, err: process.stderr.write };
  const listeners = process.stdout.listeners("error");
  // The command writes text; the test runner's own messages to its parent, binary, go through untouched.
  const capture = (into: string[], original: typeof process.stdout.write) =>
    ((s: string | Uint8Array, ...rest: unknown[]) =>
      typeof s === "string"
        ? into.push(s) > 0
        : (original as (...a: unknown[]) => boolean).call(
            process.stdout,
            s,
            ...rest,
          )) as typeof process.stdout.write;
  process.stdout.write = capture(out, write.out);
  process.stderr.write = capture(err, write.err);
  // main() reads process.exitCode (a command may set it); the test runner sets it when a test fails.
  const exitCode = process.exitCode;
  process.exitCode = undefined;
  let code: number;
  try {
    code = await main(["node", "querymask", ...args]);
  } finally {
    process.exitCode = exitCode;
    process.stdout.write = write.out;
    process.stderr.write = write.err;
    // main() adds an EPIPE handler to stdout per call: drop the ones this call added.
    for (const l of process.stdout.listeners("error")) {
      if (!listeners.includes(l)) process.stdout.removeListener("error", l as (e: Error) => void);
    }
  }
  return { code, stdout: out.join(""), stderr: err.join("") };
}

/** `querymask anonymize --method dp <args> <log> -o <out> --json`: its summary, parsed, and what it said. */
export async function dpSummary(
  args: readonly string[],
  log: string,
  out: string,
  quiet = true,
): Promise<{ summary: Record<string, unknown>; stderr: string }> {
  const r = await querymask([
    "anonymize",
    "--method",
    "dp",
    ...args,
    log,
    "-o",
    out,
    ...(quiet ? ["-q"] : []),
    "--json",
  ]);
  if (r.code !== 0) throw new Error(`querymask exited ${r.code}: ${r.stderr}`);
  return { summary: JSON.parse(r.stdout) as Record<string, unknown>, stderr: r.stderr };
}

/** A released count table, parsed from the file (`kind query url count`). */
export interface Table {
  readonly queries: ReadonlySet<string>;
  /** `query\turl` of each released pair. */
  readonly pairs: ReadonlySet<string>;
}

export function readTable(path: string): Table {
  const queries = new Set<string>();
  const pairs = new Set<string>();
  const lines = readFileSync(path, "utf8").split("\n");
  for (const line of lines.slice(1)) {
    if (line === "") continue;
    const [kind, query, url] = line.split("\t");
    if (kind === "query") queries.add(query!);
    else if (kind === "click") pairs.add(`${query}\t${url}`);
    else throw new Error(`${path}: unexpected row kind ${JSON.stringify(kind)}`);
  }
  return { queries, pairs };
}

/** An event on the released table whose probability the pair's runs estimate. */
export interface Event {
  readonly name: string;
  readonly happens: (t: Table) => boolean;
}

/** Two neighbouring logs and the events to check on them. */
export interface Pair {
  readonly name: string;
  /** The log without the user, and with. */
  readonly without: string;
  readonly with: string;
  readonly events: readonly Event[];
}

/**
 * Runs of the command on one log: how often each event happened. With `seedFrom`, run i draws its noise from
 * `--noise seeded --seed seedFrom + i` (the same samplers fed from a seed), so a test's verdict is reproducible;
 * without it, from the default crypto source (the bench).
 */
export async function rates(
  log: string,
  args: readonly string[],
  events: readonly Event[],
  runs: number,
  out: string,
  seedFrom?: number,
): Promise<number[]> {
  const hits = events.map(() => 0);
  for (let i = 0; i < runs; i++) {
    const seeded = seedFrom === undefined ? [] : ["--noise", "seeded", "--seed", String(seedFrom + i)];
    const r = await querymask(["anonymize", "--method", "dp", ...args, ...seeded, log, "-o", out, "-q"]);
    if (r.code !== 0) throw new Error(`querymask exited ${r.code}: ${r.stderr}`);
    const t = readTable(out);
    events.forEach((e, j) => {
      if (e.happens(t)) hits[j]!++;
    });
  }
  return hits;
}

// --- Clopper–Pearson ---------------------------------------------------------------------------------------

/** P(X ≤ k) for X ~ Binomial(n, p): the terms by their recurrence, in logs. */
export function binomialCdf(k: number, n: number, p: number): number {
  if (k < 0) return 0;
  if (k >= n || p <= 0) return 1;
  if (p >= 1) return 0;
  const lp = Math.log(p);
  const lq = Math.log1p(-p);
  let term = n * lq; // log P(X = 0)
  let s = Math.exp(term);
  for (let i = 1; i <= k; i++) {
    term += Math.log((n - i + 1) / i) + lp - lq;
    s += Math.exp(term);
  }
  return Math.min(1, s);
}

const bisect = (f: (p: number) => boolean): number => {
  // the smallest p in [0, 1] with f(p) true, f monotone false → true
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (f(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
};

/** The one-sided (1 − α) Clopper–Pearson upper bound of p from k successes in n. */
export function upperBound(k: number, n: number, alpha: number): number {
  return k >= n ? 1 : bisect((p) => binomialCdf(k, n, p) <= alpha);
}

/** The one-sided (1 − α) Clopper–Pearson lower bound of p from k successes in n. */
export function lowerBound(k: number, n: number, alpha: number): number {
  return k <= 0 ? 0 : 1 - upperBound(n - k, n, alpha);
}

/** A check of one event in one direction: violated when P[a]'s lower bound passes e^ε·P[b]'s upper bound + δ. */
export interface Verdict {
  readonly event: string;
  readonly direction: "with ≤ e^ε·without + δ" | "without ≤ e^ε·with + δ";
  readonly k: number;
  readonly kOther: number;
  readonly n: number;
  readonly violated: boolean;
  /** The smallest δ the observation proves (0 when none). */
  readonly deltaAtLeast: number;
}

export function verdicts(
  events: readonly Event[],
  withHits: readonly number[],
  withoutHits: readonly number[],
  n: number,
  epsilon: number,
  delta: number,
  alpha: number,
): Verdict[] {
  const out: Verdict[] = [];
  events.forEach((e, j) => {
    for (const [direction, a, b] of [
      ["with ≤ e^ε·without + δ", withHits[j]!, withoutHits[j]!],
      ["without ≤ e^ε·with + δ", withoutHits[j]!, withHits[j]!],
    ] as const) {
      const proven = lowerBound(a, n, alpha) - Math.exp(epsilon) * upperBound(b, n, alpha);
      out.push({
        event: e.name,
        direction,
        k: a,
        kOther: b,
        n,
        violated: proven > delta,
        deltaAtLeast: Math.max(0, proven),
      });
    }
  });
  return out;
}

/**
 * The chance that the check flags a mechanism for which the event never happens on L and happens with
 * probability `leak` on L′, with n runs each, at confidence α: P(lowerBound(K, n, α) > e^ε·(1 − α^(1/n)) + δ),
 * K ~ Binomial(n, leak).
 */
export function power(leak: number, n: number, epsilon: number, delta: number, alpha: number): number {
  const bar = Math.exp(epsilon) * upperBound(0, n, alpha) + delta;
  let k = 0;
  while (k <= n && lowerBound(k, n, alpha) <= bar) k++;
  return 1 - binomialCdf(k - 1, n, leak);
}

// --- The adversarial pairs -----------------------------------------------------------------------------------

const write = (dir: string, name: string, rows: string[]): string => {
  const path = join(dir, name);
  writeFileSync(path, HEADER + rows.join(""));
  return path;
};

/**
 * The sole clickers (the pair that found the scrubber's cross-user rule): N users who each searched "weather" and
 * were the only one to click their own site; L′ adds one user who searched "weather" and clicked all N sites.
 * The added user can lift at most d pairs, each to 2 users; no pair of L′ has more.
 */
export function soleClickers(dir: string, n: number): Pair {
  const base: string[] = [];
  for (let u = 0; u < n; u++) base.push(row(`u${u}`, "weather", u, `http://www.site${u}x.com`));
  const added: string[] = [];
  for (let s = 0; s < n; s++) added.push(row("added", "weather", 5000 + s, `http://www.site${s}x.com`));
  return {
    name: "sole clickers",
    without: write(dir, "sole-without.tsv", base),
    with: write(dir, "sole-with.tsv", [...base, ...added]),
    events: [
      { name: "a (weather, site) pair is released", happens: (t) => t.pairs.size > 0 },
      { name: "weather is released", happens: (t) => t.queries.has("weather") },
    ],
  };
}

/**
 * One user holding many rare queries: a crowd that makes the common queries releasable, and a user with 400
 * queries (and clicks) nobody else typed. Any of them released is the event only L′ can show.
 */
export function manyRare(dir: string, crowd: number): Pair {
  const base: string[] = [];
  for (let u = 0; u < crowd; u++) {
    base.push(row(`c${u}`, "news", u, "http://www.news.com"));
    base.push(row(`c${u}`, "maps", u + 1, "http://www.maps.com"));
  }
  const added: string[] = [];
  for (let i = 0; i < 400; i++)
    added.push(row("rare", `zorblax ${i} quintessa`, 4000 + i, `http://www.zq${i}.org`));
  const mine = (q: string) => q.startsWith("zorblax ");
  return {
    name: "many rare queries",
    without: write(dir, "rare-without.tsv", base),
    with: write(dir, "rare-with.tsv", [...base, ...added]),
    events: [
      { name: "one of the added user's queries is released", happens: (t) => [...t.queries].some(mine) },
      {
        name: "one of the added user's pairs is released",
        happens: (t) => [...t.pairs].some((p) => mine(p.slice(0, p.indexOf("\t")))),
      },
    ],
  };
}

/**
 * A user whose addition changes the scrubber's decisions on others: N users each clicked, for "flights", a URL
 * only they clicked; the added user clicked all of them too. With a cross-user preparation step (a click kept
 * only when two users made it) L′ restores N clicks; a per-record one keeps them all in both logs.
 */
export function scrubberDecisions(dir: string, n: number): Pair {
  const base: string[] = [];
  for (let u = 0; u < n; u++) {
    base.push(row(`f${u}`, "flights", u, `http://www.air${u}.com`));
    base.push(row(`f${u}`, "hotels", u + 1));
  }
  const added: string[] = [];
  for (let s = 0; s < n; s++) added.push(row("traveller", "flights", 6000 + s, `http://www.air${s}.com`));
  added.push(row("traveller", "hotels", 7000));
  return {
    name: "scrubber decisions",
    without: write(dir, "scrub-without.tsv", base),
    with: write(dir, "scrub-with.tsv", [...base, ...added]),
    events: [{ name: "a (flights, air) pair is released", happens: (t) => t.pairs.size > 0 }],
  };
}

/**
 * A user split across the file: L′ adds one user whose rows come in two parts with the crowd between, each
 * part typing the same query nobody else typed. Counted as two users, it would have two users' weight.
 */
export function splitUser(dir: string, crowd: number, parts = 6): Pair {
  const base: string[] = [];
  for (let u = 0; u < crowd; u++) base.push(row(`c${u}`, "news", u + 10));
  const part = (m: number) => row("split", "moonlit heron parade", m, "http://www.heron.net");
  // The user's rows in `parts` runs with crowd users between them: counted once per run, it would weigh `parts`.
  const rows: string[] = [];
  const step = Math.max(1, Math.floor(crowd / parts));
  for (let p = 0; p < parts; p++) {
    rows.push(part(9000 + p));
    rows.push(...base.slice(p * step, p === parts - 1 ? crowd : (p + 1) * step));
  }
  return {
    name: "a user split across the file",
    without: write(dir, "split-without.tsv", base),
    with: write(dir, "split-with.tsv", rows),
    events: [
      { name: "the split user's query is released", happens: (t) => t.queries.has("moonlit heron parade") },
      {
        name: "the split user's pair is released",
        happens: (t) => t.pairs.has("moonlit heron parade\thttp://www.heron.net"),
      },
    ],
  };
}

/**
 * Ties at the threshold: `c` users who typed only "tied query" (c read off the published threshold, so the query
 * sits at it), L′ one more. Both rates are moderate, so the check tests the e^ε ratio, not only δ.
 */
export function tiesAtThreshold(dir: string, c: number, tag: string): Pair {
  const base: string[] = [];
  for (let u = 0; u < c; u++) base.push(row(`t${u}`, "tied query", u, "http://www.tied.com"));
  return {
    name: `ties at the threshold (${c} users)`,
    without: write(dir, `tie-${tag}-without.tsv`, base),
    with: write(dir, `tie-${tag}-with.tsv`, [
      ...base,
      row("one more", "tied query", 999, "http://www.tied.com"),
    ]),
    events: [{ name: "the tied query is released", happens: (t) => t.queries.has("tied query") }],
  };
}

/** The tie pair for `selection`: c read off the summary of a run on a small log of one-query users. */
export async function tiePair(dir: string, args: readonly string[], selection: string): Promise<Pair> {
  const probe = tiesAtThreshold(dir, 5, `probe-${selection}`);
  const { summary } = await dpSummary(
    [...args, "--selection", selection],
    probe.without,
    join(dir, "probe.tsv"),
  );
  return tiesAtThreshold(dir, Math.max(1, Math.round(statedThreshold(summary))), selection);
}

/**
 * The threshold in users the published summary states for a strategy (users who each typed only one query
 * count 1 towards it): T, K, ρ, "users for p ≥ ½", or the last round's ρ; read off `--json`.
 */
export function statedThreshold(summary: Record<string, unknown>): number {
  const num = (k: string) => (typeof summary[k] === "number" ? (summary[k] as number) : undefined);
  const rounds = Object.keys(summary)
    .filter((k) => /^round \d+ ρ$/.test(k))
    .map((k) => summary[k] as number);
  const t =
    num("selection threshold T") ??
    num("threshold K") ??
    num("ρ") ??
    num("users for p ≥ ½") ??
    (rounds.length > 0 ? Math.min(...rounds) : undefined);
  if (t === undefined) throw new Error(`no threshold in the summary: ${Object.keys(summary).join(", ")}`);
  return t;
}
