/**
 * The background-knowledge adversary: the attacker knows `m` random queries of a target user — say
 * from a conversation or a shared screen — and looks in the released log for the released user whose queries
 * share the most of them (at least one). Ties are broken uniformly at random, as in record linkage (paper 004,
 * Eq. 10). The attack then reads that released user's queries as the target's.
 *
 * Two figures, as expected values over the random tie-break:
 *  - re-identified: the chosen released user *is* the target (see {@link truthOfReleasedUsers});
 *  - learned: share of the target's other true queries (the ones the attacker did not already know) that
 *    appear among the chosen released user's queries.
 *
 * Targets are original users with more than `m` distinct non-empty queries, at most `targets` of them sampled
 * with the run's seed. The known queries are drawn uniformly from the target's distinct queries.
 */
import type { LogRecord, QueryLog } from "../log/record.ts";
import { intParam } from "../util/params.ts";
import type { Rng } from "../util/random.ts";
import { type Attack, type AttackInput, type AttackResult, scoreGuesses } from "./attack.ts";

export interface BackgroundOptions {
  /** Queries of the target the attacker knows. */
  readonly m: number;
  /** At most this many target users (sampled). */
  readonly targets: number;
  readonly rng: Rng;
}

export interface BackgroundResult {
  /** Users attacked (eligible users, sampled). */
  readonly targets: number;
  /** Expected % of targets whose released record the attacker singles out correctly. */
  readonly reidentifiedPct: number;
  /** Expected % of the targets' unknown true queries the attacker then reads off the chosen record. */
  readonly learnedPct: number;
}

/**
 * Who each released user "is". A released user keeps its id when the method keeps ids (swap, mdav): then its
 * truth is that id. Otherwise (pseudonyms) it is the original user most of its non-synthetic records came from,
 * by `origin`; a released user with neither has no true identity (it cannot be re-identified).
 */
export function truthOfReleasedUsers(
  original: QueryLog,
  released: readonly LogRecord[],
  origin: Int32Array | undefined,
): Map<string, string | undefined> {
  const originalUsers = new Set<string>();
  for (const r of original.records) originalUsers.add(r.user);
  const votes = new Map<string, Map<string, number>>();
  for (let i = 0; i < released.length; i++) {
    const u = released[i]!.user;
    if (!votes.has(u)) votes.set(u, new Map());
    const o = origin?.[i] ?? -1;
    const owner = o >= 0 ? original.records[o]?.user : undefined;
    if (owner === undefined) continue;
    const v = votes.get(u)!;
    v.set(owner, (v.get(owner) ?? 0) + 1);
  }
  const truth = new Map<string, string | undefined>();
  for (const [u, v] of votes) {
    if (originalUsers.has(u)) {
      truth.set(u, u);
      continue;
    }
    let best: string | undefined;
    let bestN = 0;
    for (const [owner, n] of v) {
      if (n > bestN || (n === bestN && best !== undefined && owner < best)) {
        best = owner;
        bestN = n;
      }
    }
    truth.set(u, best);
  }
  return truth;
}

/** Distinct non-empty queries per user, in first-seen order. */
function queriesByUser(records: readonly LogRecord[]): Map<string, string[]> {
  const sets = new Map<string, Set<string>>();
  for (const r of records) {
    if (r.query === "") continue;
    let s = sets.get(r.user);
    if (!s) {
      s = new Set();
      sets.set(r.user, s);
    }
    s.add(r.query);
  }
  const out = new Map<string, string[]>();
  for (const [u, s] of sets) out.set(u, [...s]);
  return out;
}

/** Run the attack for one `m`; see the module comment. */
export function backgroundKnowledge(
  original: QueryLog,
  released: QueryLog,
  origin: Int32Array | undefined,
  opts: BackgroundOptions,
): BackgroundResult {
  const { m, rng } = opts;
  const orig = queriesByUser(original.records);
  const rel = queriesByUser(released.records);
  const truth = truthOfReleasedUsers(original, released.records, origin);
  const relUsers = [...rel.keys()];
  const relSets = relUsers.map((u) => new Set(rel.get(u)));
  // Inverted index: query -> released users (by index) that issued it.
  const postings = new Map<string, number[]>();
  relUsers.forEach((u, idx) => {
    for (const q of rel.get(u)!) {
      let p = postings.get(q);
      if (!p) {
        p = [];
        postings.set(q, p);
      }
      p.push(idx);
    }
  });

  const eligible = [...orig.keys()].filter((u) => orig.get(u)!.length > m).sort();
  const targets = rng.shuffle(eligible).slice(0, Math.max(0, opts.targets));
  let reidentified = 0;
  let learned = 0;
  for (const target of targets) {
    const queries = orig.get(target)!;
    const known = rng.shuffle([...queries]).slice(0, m);
    const knownSet = new Set(known);
    const overlap = new Map<number, number>();
    for (const q of known)
      for (const idx of postings.get(q) ?? []) overlap.set(idx, (overlap.get(idx) ?? 0) + 1);
    let best = 0;
    for (const n of overlap.values()) best = Math.max(best, n);
    if (best === 0) continue;
    const candidates = [...overlap].filter(([, n]) => n === best).map(([idx]) => idx);
    const unknown = queries.filter((q) => !knownSet.has(q));
    let hit = 0;
    let read = 0;
    for (const idx of candidates) {
      if (truth.get(relUsers[idx]!) === target) hit++;
      const set = relSets[idx]!;
      let n = 0;
      for (const q of unknown) if (set.has(q)) n++;
      read += n / unknown.length;
    }
    reidentified += hit / candidates.length;
    learned += read / candidates.length;
  }
  const n = targets.length;
  return {
    targets: n,
    reidentifiedPct: n === 0 ? 0 : (100 * reidentified) / n,
    learnedPct: n === 0 ? 0 : (100 * learned) / n,
  };
}

/**
 * The same adversary behind the shared {@link Attack} interface (`querymask attack --attack background`):
 * each target's chosen released user (one random pick among the tied best) has all its records attributed to
 * the target, and the records are scored like every other attack. `params.m` (default 2) and `params.targets`
 * (default 1000) set the knowledge and the sample; the expected re-identification and learned shares are in
 * `counts`.
 */
export const backgroundAttack: Attack = {
  name: "background",
  summary: "An adversary who knows m random queries of a target singles out the target's released record.",
  paper: "querymask's own (after the record linkage of Batet et al. 2013)",
  params: [
    { name: "m", type: "int", description: "queries of a target the adversary knows (≥ 1)", default: 2 },
    { name: "targets", type: "int", description: "target users sampled (≥ 1)", default: 1000 },
  ],
  parse: (raw) => ({
    m: intParam("background", raw, "m", 2, 1),
    targets: intParam("background", raw, "targets", 1000, 1),
  }),
  async run(input: AttackInput): Promise<AttackResult> {
    const m = intParam("background", input.params, "m", 2, 1);
    const targets = intParam("background", input.params, "targets", 1000, 1);
    const result = backgroundKnowledge(input.original, input.released, input.origin, {
      m,
      targets,
      rng: input.rng.derive(`m${m}`),
    });
    // One concrete pick per target, to express the attack as record-level guesses.
    const guesses = pickGuesses(input, m, targets);
    return scoreGuesses("background", input, guesses, {
      m,
      targets: result.targets,
      "re-identified %": result.reidentifiedPct,
      "learned %": result.learnedPct,
    });
  },
};

function pickGuesses(input: AttackInput, m: number, targetCount: number): (string | undefined)[] {
  const rng = input.rng.derive(`guesses m${m}`);
  const orig = queriesByUser(input.original.records);
  const byUser = new Map<string, number[]>();
  input.released.records.forEach((r, i) => {
    let list = byUser.get(r.user);
    if (!list) {
      list = [];
      byUser.set(r.user, list);
    }
    list.push(i);
  });
  const rel = queriesByUser(input.released.records);
  const guesses: (string | undefined)[] = new Array(input.released.records.length).fill(undefined);
  const eligible = [...orig.keys()].filter((u) => orig.get(u)!.length > m).sort();
  for (const target of rng.shuffle(eligible).slice(0, targetCount)) {
    const known = rng.shuffle([...orig.get(target)!]).slice(0, m);
    let best = 0;
    let tied: string[] = [];
    for (const [u, qs] of rel) {
      const set = new Set(qs);
      const n = known.filter((q) => set.has(q)).length;
      if (n > best) [best, tied] = [n, [u]];
      else if (n === best && n > 0) tied.push(u);
    }
    if (best === 0) continue;
    for (const i of byUser.get(rng.pick(tied)) ?? []) guesses[i] ??= target;
  }
  return guesses;
}
