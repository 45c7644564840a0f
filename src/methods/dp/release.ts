/**
 * A set-selection release from the bounded query sets, whether they were read from the whole log or one user at a
 * time: the same selection, noisy counts, charges, counts and notes either way. What it says publicly (counts,
 * notes, progress) is data-independent or read off the released table; exact figures go to `diagnostics`.
 */
import { describeGuarantee } from "../../log/guarantee.ts";
import { type Guarantee, type MethodContext, NO_GUARANTEE, type Release, userLevelDp } from "../method.ts";
import type { FirstPass } from "./by-user.ts";
import type { Bounded } from "./contributions.ts";
import { noisyCounts } from "./counts.ts";
import { nothingReleased } from "./notes.ts";
import { type DpParams, plan } from "./plan.ts";
import type { randomness } from "./random.ts";
import { type Calibration, type Selection, type UserItems, userCounts } from "./selection/selection.ts";

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
  const { account, queries: qPlan, pairs: pPlan } = plan(params, sel);
  const queries = first.queries;
  const qCal = qPlan.cal;
  ctx.progress.start(`dp: ${sel.name} selection of queries`);
  const qPrior = priors(sel, queries.keys);
  const chosen = sel.select(queries.users, queries.keys.length, qCal, random, qPrior);
  ctx.progress.stop();
  const qNoise = qPlan.noise;
  const qCounts = noisyCounts(
    within(sel, queries.users, params.d, chosen),
    queries.keys.length,
    chosen,
    qNoise,
    random,
  );
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
    "distinct queries": first.distinct,
    "distinct queries within the bound": queries.keys.length,
  };
  if (pPlan) {
    const pairs = await pairsOf(new Set(table.queries.map((q) => q.query)));
    const pChosen = sel.select(pairs.users, pairs.keys.length, pPlan.cal, random, priors(sel, pairs.keys));
    const pCounts = noisyCounts(
      within(sel, pairs.users, params.d, pChosen),
      pairs.keys.length,
      pChosen,
      pPlan.noise,
      random,
    );
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
    const n = userCounts(queries.users, queries.keys.length);
    diagnostics["users of the most common query"] = n.reduce((a, b) => Math.max(a, b), 0);
    const top = sel
      .score?.(queries.users, queries.keys.length, qPrior, params.d)
      .reduce((a, b) => Math.max(a, b), 0);
    if (top !== undefined) diagnostics["largest weight of a query"] = top;
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
function priors(sel: Selection<Calibration>, keys: readonly string[]): Float64Array | undefined {
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
