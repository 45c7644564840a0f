/**
 * A set-selection release from the bounded query sets, whether they were read from the whole log or one user at a
 * time: the same selection, noisy counts, charges, counts and notes either way. What it says publicly (counts,
 * notes, progress) is data-independent or read off the released table; exact figures go to `diagnostics`.
 */
import { describeGuarantee } from "../../log/guarantee.ts";
import { type Guarantee, type MethodContext, NO_GUARANTEE, type Release, userLevelDp } from "../method.ts";
import type { FirstPass } from "./by-user.ts";
import type { Bounded } from "./contributions.ts";
import { noisyCountsOf } from "./counts.ts";
import { nothingReleased } from "./notes.ts";
import { type DpParams, plan } from "./plan.ts";
import type { Randomness, randomness } from "./random.ts";
import { type Calibration, type Selection, type UserItems, userCounts } from "./selection/selection.ts";

/**
 * One kind's bounded items (queries, or the click pairs of the released queries) as the selection and the counts
 * read them: from each user's bounded set (`boundedItems`), or from their sums over users (the cluster).
 */
export interface SelectionItems {
  /** The item behind each id. */
  readonly keys: readonly string[];
  /** Users who held more than the bound, and the (user, item) pairs it left out (diagnostics). */
  readonly usersTruncated: number;
  readonly dropped: number;
  /**
   * The strategy's selection (ids ascending), its noise drawn from `random` (a cluster's round strategies wait for
   * a pass of the workers per round).
   */
  select(
    cal: Calibration,
    random: Randomness,
    prior: Float64Array | undefined,
  ): Int32Array | Promise<Int32Array>;
  /** The distinct users each item's count counts, by id, once `chosen` are released (`within`). */
  counted(chosen: Int32Array): ArrayLike<number> | Promise<ArrayLike<number>>;
  /** How many distinct users hold each item, by id, and the strategy's score (for "nothing released"). */
  userCounts(): ArrayLike<number>;
  score(prior: Float64Array | undefined): ArrayLike<number> | undefined;
}

/** The items of each user's bounded set, read by the strategy itself. */
export function boundedItems(sel: Selection<Calibration>, b: Bounded, d: number): SelectionItems {
  return {
    keys: b.keys,
    usersTruncated: b.usersTruncated,
    dropped: b.dropped,
    select: (cal, random, prior) => sel.select(b.users, b.keys.length, cal, random, prior),
    counted: (chosen) => userCounts(within(sel, b.users, d, chosen), b.keys.length),
    userCounts: () => userCounts(b.users, b.keys.length),
    score: (prior) => sel.score?.(b.users, b.keys.length, prior, d),
  };
}

/**
 * A set-selection release from the bounded query sets: select queries, count them with fresh noise, then the same
 * for the click pairs of the released queries (`pairsOf`, when clicks are released), every step charged to one
 * accountant.
 */
export async function setRelease(
  params: DpParams,
  sel: Selection<Calibration>,
  random: ReturnType<typeof randomness>,
  ctx: MethodContext,
  first: FirstPass,
  pairsOf: (released: ReadonlySet<string>) => Promise<Bounded>,
): Promise<Release> {
  return itemsRelease(
    params,
    sel,
    random,
    ctx,
    { ...first, queries: boundedItems(sel, first.queries, params.d) },
    async (released) => boundedItems(sel, await pairsOf(released), params.d),
  );
}

/**
 * `setRelease` from the items however they were read: the one place a set-selection release is selected, counted,
 * charged and described. `first.distinct` (distinct queries before the bound) is a diagnostic, absent when unknown.
 */
export async function itemsRelease(
  params: DpParams,
  sel: Selection<Calibration>,
  random: ReturnType<typeof randomness>,
  ctx: MethodContext,
  first: { readonly queries: SelectionItems; readonly users: number; readonly distinct?: number },
  pairsOf: (released: ReadonlySet<string>) => Promise<SelectionItems>,
): Promise<Release> {
  const { account, queries: qPlan, pairs: pPlan } = plan(params, sel);
  const queries = first.queries;
  const qCal = qPlan.cal;
  ctx.progress.start(`dp: ${sel.name} selection of queries`);
  const qPrior = priors(sel, queries.keys);
  const chosen = await queries.select(qCal, random, qPrior);
  ctx.progress.stop();
  const qNoise = qPlan.noise;
  const qCounts = noisyCountsOf(await queries.counted(chosen), chosen, qNoise, random);
  qPlan.charge(account);
  const table: {
    queries: { query: string; count: number }[];
    clicks: { query: string; url: string; count: number }[];
  } = {
    queries: Array.from(chosen, (id, i) => ({ query: queries.keys[id]!, count: qCounts[i]! })),
    clicks: [],
  };

  const counts: Record<string, number> = {
    "queries released": chosen.length,
    ...qCal.facts,
    [`count noise (${qNoise.kind})`]: qNoise.scale,
  };
  const diagnostics: Record<string, number> = {
    users: first.users,
    "users over d": queries.usersTruncated,
    "(user, query) pairs over d": queries.dropped,
    ...(first.distinct !== undefined ? { "distinct queries": first.distinct } : {}),
    "distinct queries within the bound": queries.keys.length,
  };
  if (pPlan) {
    const pairs = await pairsOf(new Set(table.queries.map((q) => q.query)));
    const pChosen = await pairs.select(pPlan.cal, random, priors(sel, pairs.keys));
    const pCounts = noisyCountsOf(await pairs.counted(pChosen), pChosen, pPlan.noise, random);
    pPlan.charge(account);
    table.clicks = Array.from(pChosen, (id, i) => {
      const key = pairs.keys[id]!;
      const tab = key.indexOf("\t");
      return { query: key.slice(0, tab), url: key.slice(tab + 1), count: pCounts[i]! };
    });
    diagnostics["distinct click pairs of released queries"] = pairs.keys.length;
    counts["click pairs released"] = pChosen.length;
  }
  sortTable(table);
  const total = account.total();
  for (const c of account.charges) {
    if (c.kind === "dp") counts[`ε ${c.what}`] = c.epsilon;
    else if (c.kind === "zcdp") counts[`ρ (zCDP) ${c.what}`] = c.rho;
    else if (c.kind === "gaussian") counts[`μ (GDP) ${c.what}`] = Math.sqrt(c.mu2);
    else if (c.kind === "discrete-gaussian") counts[`σ ${c.what}, ${c.coordinates} per user`] = c.sigma;
    else counts[`δ ${c.what}`] = c.delta;
  }
  counts["cryptographic noise"] = random.private ? 1 : 0;
  const notes: string[] = [];
  if (chosen.length === 0) {
    diagnostics["users of the most common query"] = largest(queries.userCounts());
    const score = queries.score(qPrior);
    if (score !== undefined) diagnostics["largest weight of a query"] = largest(score);
    notes.push(
      nothingReleased(
        params,
        qCal.usersNeeded,
        sel.name,
        (p) => plan(p, sel).queries.cal.usersNeeded,
        sel.score !== undefined,
      ),
    );
  }
  return { table, guarantee: claim(params, total, notes), counts, diagnostics, notes };
}

/** The largest of `xs` (0 when empty or all negative). */
function largest(xs: ArrayLike<number>): number {
  let top = 0;
  for (let i = 0; i < xs.length; i++) top = Math.max(top, xs[i]!);
  return top;
}

/**
 * Whom the counts count: each user's first d candidates among the released items, when the strategy read more
 * than d per user; so a user adds 1 to at most d counts, the sensitivity the count noise is set for.
 */
function within(sel: Selection<Calibration>, users: UserItems, d: number, chosen: Int32Array): UserItems {
  if (sel.candidates === undefined) return users;
  const released = new Set(chosen);
  return users.map((list) => {
    const out: number[] = [];
    for (const id of list) {
      if (out.length === d) break;
      if (released.has(id)) out.push(id);
    }
    return Int32Array.from(out);
  });
}

/** The items' public priors, when the strategy weighs by one. */
export function priors(sel: Selection<Calibration>, keys: readonly string[]): Float64Array | undefined {
  const prior = sel.prior;
  return prior ? Float64Array.from(keys, (k) => prior(k)) : undefined;
}

/**
 * What the release may claim: (ε, δ)-DP with the crypto noise; nothing with seeded noise, which anyone who knows
 * the seed can subtract. Then a note says what the same parameters give with private noise.
 */
export function claim(
  params: DpParams,
  total: { epsilon: number; delta: number },
  notes: string[],
): Guarantee {
  const dp = claimedDp(params, total);
  if (params.noise === "crypto") return dp;
  notes.push(
    `seeded noise: this release is not private and claims no guarantee; with --noise crypto the same ` +
      `parameters give ${describeGuarantee(dp)}.`,
  );
  return NO_GUARANTEE;
}

/** Relative slack for sums of floating-point budget shares (Σ εᵢ may exceed ε by rounding). */
const ROUNDING = 1e-9;

/**
 * The (ε, δ) a release claims: the ones asked for, once the accountant's composition of every charge is shown to
 * be within them (an exact δ below the asked one is not claimed: the audit checks the claim against the asked
 * parameters, and a claim stronger than what those deliver fails there). A composition above what was asked is
 * a bug in the plan, never a release.
 */
export function claimedDp(params: DpParams, total: { epsilon: number; delta: number }): Guarantee {
  if (
    !(total.epsilon <= params.epsilon * (1 + ROUNDING)) ||
    !(total.delta <= params.delta * (1 + ROUNDING))
  ) {
    throw new Error(
      `dp: the charges compose to ε = ${total.epsilon}, δ = ${total.delta}, more than the ε = ${params.epsilon}, δ = ${params.delta} asked`,
    );
  }
  return userLevelDp({ epsilon: params.epsilon, delta: params.delta });
}

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function sortTable(table: {
  queries: { query: string; count: number }[];
  clicks: { query: string; url: string; count: number }[];
}): void {
  table.queries.sort((a, b) => b.count - a.count || byText(a.query, b.query));
  table.clicks.sort((a, b) => byText(a.query, b.query) || b.count - a.count || byText(a.url, b.url));
}
