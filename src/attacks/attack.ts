/**
 * The one small interface every attack on a released log implements: the de-anonymizers of paper 000, the
 * matcher, the background-knowledge attack, and whatever comes next. An attack gets the original log, the
 * released log and (when the experiment has it) the ground truth `origin` of each released record, and says how
 * many released records it linked to their true author.
 *
 * Scoring is shared ({@link scoreGuesses}) so that every attack counts success the same way:
 *  - with `origin`: a guess "released record i was written by user u" is right iff the input record origin[i]
 *    has user u;
 *  - without `origin` (the CLI, where only the two files exist): the guess is right iff the original log holds
 *    a not-yet-claimed record of user u with the same query text (a multiset match), which is what the paper's
 *    "recovered original logs" counts.
 */
import type { MethodModel } from "../log/declared.ts";
import type { LogRecord, QueryLog } from "../log/record.ts";
import type { ParamSpec } from "../util/params.ts";
import type { Progress } from "../util/progress.ts";
import type { Rng } from "../util/random.ts";

/**
 * What the attacker is assumed to know about the anonymizer (paper 000: k and δ, same categories), as parsed by
 * the attack's {@link Attack.parse}: every parameter the attack declares is present and valid.
 */
export interface AttackParams {
  readonly k?: number;
  readonly delta?: number;
  readonly depth?: number;
  /** Free-form extras for attacks that need them. */
  readonly [name: string]: unknown;
}

export interface AttackInput {
  readonly original: QueryLog;
  readonly released: QueryLog;
  /** For each released record, the index of the input record it came from (-1 = synthetic). */
  readonly origin?: Int32Array;
  readonly params: AttackParams;
  readonly rng: Rng;
  readonly progress: Progress;
}

export interface AttackResult {
  readonly attack: string;
  /** Released records the attack made a guess for. */
  readonly guessed: number;
  /** Released records whose true author the attack named correctly. */
  readonly linked: number;
  /** All released records (the denominator of {@link AttackResult.linkedPct}). */
  readonly total: number;
  /** 100 · linked / total. */
  readonly linkedPct: number;
  /** Distinct users with at least one correctly linked record, and all distinct true authors. */
  readonly usersLinked: number;
  readonly users: number;
  /** Attack-specific counters for the summary (e.g. final k, time per record). */
  readonly counts: Record<string, number>;
}

export interface Attack {
  /** Name on the command line: "deanon1" … "deanon4", "matcher", "background". */
  readonly name: string;
  readonly summary: string;
  readonly paper: string;
  /**
   * The privacy model of the release it models, when it models one (src/log/declared.ts): the de-anonymizers
   * model a k-bucket swap's (see fit.ts).
   */
  readonly designedFor?: MethodModel;
  /** The parameters it takes (for `--help`, the CLI's flags and validation), like a method's. */
  readonly params: readonly ParamSpec[];
  /**
   * Validate raw parameters (CLI flags, a method's parameters); throws ParamError. Keys the attack does not
   * declare are ignored, so a method's whole parameter set can be handed to its attacks.
   */
  parse(raw: Readonly<Record<string, unknown>>): AttackParams;
  /** Run on parameters returned by {@link Attack.parse}. */
  run(input: AttackInput): Promise<AttackResult>;
}

/** Raised when an attack cannot run on the given input (e.g. released log without categories). */
export class AttackError extends Error {
  override name = "AttackError";
}

/**
 * Score guesses: `guesses[i]` is the user the attack names as the author of released record i, or undefined
 * when it makes no guess. See the module comment for the two ways of deciding correctness.
 */
export function scoreGuesses(
  attack: string,
  input: Pick<AttackInput, "original" | "released" | "origin">,
  guesses: readonly (string | undefined)[],
  counts: Record<string, number> = {},
): AttackResult {
  const { original, released, origin } = input;
  const total = released.records.length;
  let guessed = 0;
  let linked = 0;
  const linkedUsers = new Set<string>();
  const truthUsers = new Set<string>();
  if (origin) {
    for (let i = 0; i < total; i++) {
      const o = origin[i] ?? -1;
      const truth = o >= 0 ? original.records[o]?.user : undefined;
      if (truth !== undefined) truthUsers.add(truth);
      const g = guesses[i];
      if (g === undefined) continue;
      guessed++;
      if (g === truth) {
        linked++;
        linkedUsers.add(g);
      }
    }
  } else {
    const pool = new Map<string, number>();
    for (const r of original.records) {
      const key = pairKey(r.user, r.query);
      pool.set(key, (pool.get(key) ?? 0) + 1);
      truthUsers.add(r.user);
    }
    for (let i = 0; i < total; i++) {
      const g = guesses[i];
      if (g === undefined) continue;
      guessed++;
      const key = pairKey(g, released.records[i]!.query);
      const left = pool.get(key) ?? 0;
      if (left > 0) {
        pool.set(key, left - 1);
        linked++;
        linkedUsers.add(g);
      }
    }
  }
  return {
    attack,
    guessed,
    linked,
    total,
    linkedPct: total === 0 ? 0 : (100 * linked) / total,
    usersLinked: linkedUsers.size,
    users: truthUsers.size,
    counts,
  };
}

function pairKey(user: string, query: string): string {
  return `${user}\u0000${query}`;
}

/** Indices of `records` in time order (stable: ties keep log order), as the paper's "+T" attackers read. */
export function timeOrder(records: readonly LogRecord[]): Uint32Array {
  const idx = new Uint32Array(records.length);
  for (let i = 0; i < idx.length; i++) idx[i] = i;
  const times = new Float64Array(records.length);
  for (let i = 0; i < records.length; i++) times[i] = records[i]!.time;
  return idx.sort((a, b) => times[a]! - times[b]! || a - b);
}
