/**
 * "dp": a differentially private query-click count table. (ε, δ)-differential privacy for user-level neighbours
 * (two logs that differ in one user's whole history), provided the noise is unpredictable: the default
 * `--noise crypto` draws it from the OS's cryptographic generator; `--noise seeded` (reproducible from `--seed`,
 * for experiments and tests) is not private and says so on stderr. docs/methods/dp.md derives every threshold.
 *
 * `--selection` picks how queries (and query-click pairs) are chosen for release: a strategy of `selection/`
 * over each user's d most typed distinct queries, then fresh discrete noisy counts, each step charged to one
 * accountant (zCDP for the Gaussian strategies, basic composition for the Laplace ones: `accountant.ts`); or
 * `korolova`, the 2009 baseline (`korolova.ts`).
 */
import { groupEvents } from "../../log/events.ts";
import { UsageError } from "../../util/errors.ts";
import type { Progress } from "../../util/progress.ts";
import { type Guarantee, type Method, type MethodContext, type Release, userLevelDp } from "../method.ts";
import { Accountant } from "./accountant.ts";
import { budget } from "./budget.ts";
import { boundPairsByUser, boundQueriesByUser, limitByUser } from "./by-user.ts";
import { canonicalQuery } from "./canonical.ts";
import { boundPairs, boundQueries, histories, type QueryForm } from "./contributions.ts";
import { discreteLaplace } from "./discrete.ts";
import { EventLimiter, type LimitedCounts, noisyRelease } from "./korolova.ts";
import { dpDeclaration } from "./meta.ts";
import { korolovaNothingReleased } from "./notes.ts";
import { type DpParams, plan, type SelectionName } from "./plan.ts";
import { randomness } from "./random.ts";
import { claim, claimedDp, setRelease } from "./release.ts";
import { selections } from "./selection/index.ts";
import type { Calibration, Selection } from "./selection/selection.ts";
import { shardedDp } from "./sharded.ts";

export { type DpParams, type KindPlan, type Plan, plan, type SelectionName } from "./plan.ts";

/**
 * Defaults: the strategy that released most on the generated 100k-user log and on the shared AOL subset
 * (docs/methods/dp.md, docs/results/dp.md); its d.
 */
export const DEFAULT_SELECTION: SelectionName = "targeted";
/** The default strategy's d; each strategy has its own (`Selection.defaultD`). */
export const DEFAULT_D = 10;
export const KOROLOVA_D = 20;
export const DEFAULT_ALPHA = 5;
export { MIN_DELTA } from "./meta.ts";

/** The stderr warning for seeded noise, printed once per process. */
export const SEEDED_WARNING =
  "querymask dp: WARNING: --noise seeded draws the noise from --seed, so anyone who knows or guesses " +
  "the seed (32 bits) can recompute and subtract it. This count table is NOT differentially private: use it " +
  "for experiments only, and the default --noise crypto for anything released.\n";
let warned = false;

/**
 * A log without one user who typed a query has no one to protect and nothing to release: refused (exit 2). The
 * one data-dependent refusal: a log of one user and the empty log can be told apart by it (docs/methods/dp.md).
 */
const NO_USERS = "dp: the log has no user with a non-empty query: there is nothing to release";

const strategy = (name: SelectionName): Selection<Calibration> | undefined =>
  selections.find((s) => s.name === name);

export const dp: Method<DpParams> = {
  ...dpDeclaration,
  parse(raw) {
    const params = dpDeclaration.params.parse(raw);
    // The calibration needs the strategy's code: (ε, δ, d) that allow no usable threshold are a ParamError here.
    const sel = strategy(params.selection);
    if (sel) plan(params, sel);
    return params;
  },
  async anonymize(input, params, ctx): Promise<Release> {
    const random = noiseFor(params, ctx);
    ctx.progress.start(`dp (${params.selection}): bounding users' contributions`);
    const form = formOf(params);
    const events = groupEvents(input.records);
    const users = histories(events, form);
    ctx.progress.stop();
    if (users.length === 0) throw new UsageError(NO_USERS);
    const distinct = distinctQueries(users);
    const sel = strategy(params.selection);
    if (!sel) {
      const counts = new EventLimiter(params.d);
      for (const list of users) counts.add(input.records, list);
      return korolovaRelease(counts, distinct, params, random);
    }
    const cap = candidatesOf(sel, params);
    const first = { queries: boundQueries(users, cap, sel.prior), users: users.length, distinct };
    return setRelease(params, sel, random, ctx, first, async (released) =>
      boundPairs(input.records, users, released, cap, sel.prior),
    );
  },
  async anonymizeByUser(log, params, ctx): Promise<Release> {
    const sel = strategy(params.selection);
    const label = `dp (${params.selection}): bounding users' contributions, one user at a time`;
    // The randomness is taken after the first pass: a log found not grouped by user there goes to `anonymize`,
    // which must get the context's randomness whole.
    if (!sel) {
      const { counts, distinct } = await phase(ctx.progress, label, () =>
        limitByUser(log, params.d, ctx.progress, formOf(params)),
      );
      if (counts.users === 0) throw new UsageError(NO_USERS);
      return korolovaRelease(counts, distinct, params, noiseFor(params, ctx));
    }
    const cap = candidatesOf(sel, params);
    const first = await phase(ctx.progress, label, () =>
      boundQueriesByUser(log, cap, sel.prior, ctx.progress, formOf(params)),
    );
    if (first.users === 0) throw new UsageError(NO_USERS);
    return setRelease(params, sel, noiseFor(params, ctx), ctx, first, (released) =>
      phase(ctx.progress, "dp: click pairs of the released queries (second pass)", () =>
        boundPairsByUser(log, released, cap, sel.prior, formOf(params)),
      ),
    );
  },
  sharded: shardedDp(NO_USERS, (params, ctx) => noiseFor(params, ctx)),
};

/** `work` as a progress phase, ended even when it throws. */
async function phase<T>(progress: Progress, label: string, work: () => Promise<T>): Promise<T> {
  progress.start(label);
  try {
    return await work();
  } finally {
    progress.stop();
  }
}

/** The run's noise source; seeded noise is announced once per process (the caller's channel, else stderr). */
function noiseFor(params: DpParams, ctx: MethodContext): ReturnType<typeof randomness> {
  if (params.noise === "seeded" && !warned) {
    warned = true;
    if (ctx.warn) ctx.warn(SEEDED_WARNING.trimEnd());
    else process.stderr.write(SEEDED_WARNING);
  }
  return randomness(params.noise, ctx.rng);
}

/** Distinct non-empty queries in the log, before any contribution bound: the same denominator for every strategy. */
function distinctQueries(users: readonly (readonly { query: string }[])[]): number {
  const seen = new Set<string>();
  for (const list of users) for (const e of list) seen.add(e.query);
  return seen.size;
}

/** The per-record query map the parameters ask for. */
const formOf = (params: DpParams): QueryForm => (params.canonical ? canonicalQuery : undefined);

/** How many ranked items per user the strategy reads (d, or more for the round strategies). */
const candidatesOf = (sel: Selection<Calibration>, params: DpParams): number =>
  Math.max(params.d, sel.candidates?.(params.d) ?? params.d);

/**
 * The guarantee a release with these parameters and private (crypto) noise claims, whatever `params.noise` says:
 * for evaluations that run seeded noise to be reproducible and report what the real release would promise.
 */
export function plannedGuarantee(params: DpParams): Guarantee {
  const sel = strategy(params.selection);
  if (!sel) return userLevelDp(params);
  const { account, queries, pairs } = plan(params, sel);
  queries.charge(account);
  pairs?.charge(account);
  return claimedDp(params, account.total());
}

function korolovaRelease(
  counts: LimitedCounts,
  distinct: number,
  params: DpParams,
  random: ReturnType<typeof randomness>,
): Release {
  const plan = budget(params.epsilon, params.delta, params.d, params.clicks);
  const table = noisyRelease(counts, plan, discreteLaplace(random, plan.b));
  const notes: string[] = [];
  const diagnostics: Record<string, number> = {
    users: counts.users,
    "events kept": counts.eventsKept,
    "events dropped (over d)": counts.eventsDropped,
    "clicks kept": counts.clicksKept,
    "clicks dropped (over d)": counts.clicksDropped,
    "distinct queries": distinct,
    "distinct queries within the bound": counts.queries.size,
  };
  if (table.queries.length === 0) {
    let most = 0;
    for (const c of counts.queries.values()) most = Math.max(most, c);
    diagnostics["largest count among the kept events"] = most;
    notes.push(korolovaNothingReleased(params, plan.cutoff, DEFAULT_SELECTION));
  }
  const account = new Accountant();
  account.spend("korolova queries and clicks (Korolova et al. 2009 theorem)", params.epsilon, params.delta);
  return {
    table,
    guarantee: claim(params, account.total(), notes),
    notes,
    diagnostics,
    counts: {
      "queries released": table.queries.length,
      "click pairs released": table.clicks.length,
      "noise scale b": plan.b,
      "threshold K": plan.K,
      "cryptographic noise": random.private ? 1 : 0,
    },
  };
}
