/**
 * "dp": a differentially private query-click count table. (ε, δ)-differential privacy for user-level neighbours
 * (two logs that differ in one user's whole history), provided the noise is unpredictable: the default
 * `--noise crypto` draws it from the OS's cryptographic generator; `--noise seeded` (reproducible from `--seed`,
 * for experiments and tests) is not private and says so on stderr. docs/dp.md derives every threshold.
 *
 * `--selection` picks how queries (and query-click pairs) are chosen for release: a strategy of `selection/`
 * over each user's d most typed distinct queries, then fresh discrete noisy counts, each step charged to one
 * accountant (zCDP for the Gaussian strategies, basic composition for the Laplace ones: `accountant.ts`); or
 * `korolova`, the 2009 baseline (`korolova.ts`).
 */
import { groupEvents } from "../../log/events.ts";
import { describeGuarantee } from "../../log/guarantee.ts";
import {
  type Guarantee,
  intParam,
  type Method,
  NO_GUARANTEE,
  numberParam,
  ParamError,
  type Release,
  userLevelDp,
} from "../method.ts";
import { Accountant, type GaussianShare, gaussianPlan, type Share, splitBudget } from "./accountant.ts";
import { budget } from "./budget.ts";
import { boundPairs, boundQueries, histories } from "./contributions.ts";
import { type CountNoise, gaussianCountNoise, laplaceCountNoise, noisyCounts } from "./counts.ts";
import { discreteLaplace } from "./discrete.ts";
import { limitAndCount, noisyRelease } from "./korolova.ts";
import { dpInfo } from "./meta.ts";
import { korolovaNothingReleased, nothingReleased } from "./notes.ts";
import { type NoiseSource, randomness } from "./random.ts";
import { SELECTION_NAMES, selections } from "./selection/index.ts";
import { type Calibration, type Selection, userCounts } from "./selection/selection.ts";

export type SelectionName = (typeof SELECTION_NAMES)[number];

export interface DpParams {
  /** How queries are chosen for release. */
  readonly selection: SelectionName;
  /** Privacy loss ε of the whole release. */
  readonly epsilon: number;
  /** Failure probability δ of the whole release. */
  readonly delta: number;
  /** Contribution bound: distinct queries (and distinct query-click pairs) per user; korolova: query events. */
  readonly d: number;
  /** Policy strategies: the cutoff Γ = ρ + α·(noise scale). */
  readonly alpha: number;
  /** "crypto" (default: a real release) or "seeded" (reproducible from the seed: experiments only, not private). */
  readonly noise: NoiseSource;
  /** Release noisy click counts too (default). */
  readonly clicks: boolean;
}

/** Defaults, chosen by a sweep of strategy × d on generated 100k-user logs (docs/dp.md, docs/results/dp.md). */
export const DEFAULT_SELECTION: SelectionName = "length-weighted";
/** The default strategy's d; each strategy has its own (`Selection.defaultD`). */
export const DEFAULT_D = 10;
export const KOROLOVA_D = 20;
export const DEFAULT_ALPHA = 5;

/** The stderr warning for seeded noise, printed once per process. */
export const SEEDED_WARNING =
  "querymask dp: WARNING: --noise seeded draws the noise from --seed, so anyone who knows or guesses " +
  "the seed (32 bits) can recompute and subtract it. This count table is NOT differentially private: use it " +
  "for experiments only, and the default --noise crypto for anything released.\n";
let warned = false;

function boolParam(raw: Readonly<Record<string, unknown>>, name: string, def: boolean): boolean {
  const v = raw[name] ?? def;
  if (typeof v === "boolean") return v;
  if (v === "true" || v === "1" || v === "yes" || v === "on") return true;
  if (v === "false" || v === "0" || v === "no" || v === "off") return false;
  throw new ParamError("dp", name, `must be true or false, got ${JSON.stringify(v)}`);
}

const strategy = (name: SelectionName): Selection<Calibration> | undefined =>
  selections.find((s) => s.name === name);

/** Run a calibration, turning unusable numbers into a ParamError. */
function checked(sel: Selection<Calibration>, params: DpParams, calibrate: () => Calibration): Calibration {
  let cal: Calibration;
  try {
    cal = calibrate();
  } catch (e) {
    if (e instanceof RangeError)
      throw new ParamError("dp", "epsilon", `no usable ${sel.name} threshold: ${e.message}`);
    throw e;
  }
  if (!Object.values(cal.facts).every(Number.isFinite) || !Number.isFinite(cal.usersNeeded)) {
    throw new ParamError(
      "dp",
      "epsilon",
      `ε = ${params.epsilon}, δ = ${params.delta}, d = ${params.d} give no finite ${sel.name} threshold; use ε ≥ 0.001`,
    );
  }
  return cal;
}

/** One kind of item (queries, or query-click pairs): its selection's calibration, its count noise, its charges. */
export interface KindPlan {
  readonly cal: Calibration;
  readonly noise: CountNoise;
  /** Charge this kind's selection and counts. */
  charge(account: Accountant): void;
}

export interface Plan {
  readonly account: Accountant;
  readonly queries: KindPlan;
  /** Absent when clicks are not released. */
  readonly pairs?: KindPlan;
}

/**
 * How a set-selection release spends (ε, δ): Gaussian strategies by the zCDP plan (`gaussianPlan`), Laplace ones
 * by the basic-composition split (`splitBudget`). Throws ParamError when (ε, δ, d) allow no usable threshold.
 */
export function plan(params: DpParams, sel: Selection<Calibration>): Plan {
  const { epsilon, delta, d, alpha, clicks } = params;
  const g = sel.gaussian;
  if (g) {
    let p: ReturnType<typeof gaussianPlan>;
    try {
      p = gaussianPlan(epsilon, delta, clicks, d);
    } catch (e) {
      if (e instanceof RangeError) throw new ParamError("dp", "epsilon", e.message);
      throw e;
    }
    const kind = (label: string, s: GaussianShare, c: GaussianShare): KindPlan => {
      const sigma = g.sensitivity(d) / Math.sqrt(2 * s.rho);
      const cal = checked(sel, params, () => g.calibrateNoise(sigma, s.thresholdDelta, d, alpha));
      const noise = gaussianCountNoise(c.rho, d);
      return {
        cal,
        noise,
        charge(account) {
          account.spendGaussian(`${label} selection (${sel.name})`, 2 * s.rho);
          account.spendThreshold(
            `${label} selection: an item only the added user holds passes`,
            s.thresholdDelta,
          );
          account.spendDiscreteGaussian(`${label} counts (${noise.kind})`, noise.scale, d);
        },
      };
    };
    return {
      account: new Accountant(epsilon),
      queries: kind("query", p.querySelection, p.queryCounts),
      pairs: p.pairSelection && p.pairCounts ? kind("click-pair", p.pairSelection, p.pairCounts) : undefined,
    };
  }
  const shares = splitBudget(epsilon, delta, clicks);
  const kind = (label: string, s: Share, c: Share): KindPlan => {
    const cal = checked(sel, params, () => sel.calibrate(s.epsilon, s.delta, d, alpha));
    const noise = laplaceCountNoise(c.epsilon, d);
    return {
      cal,
      noise,
      charge(account) {
        account.spend(`${label} selection (${sel.name})`, s.epsilon, s.delta);
        account.spend(`${label} counts (${noise.kind})`, c.epsilon, c.delta);
      },
    };
  };
  return {
    account: new Accountant(),
    queries: kind("query", shares.querySelection, shares.queryCounts),
    pairs:
      shares.pairSelection && shares.pairCounts
        ? kind("click-pair", shares.pairSelection, shares.pairCounts)
        : undefined,
  };
}

export const dp: Method<DpParams> = {
  ...dpInfo,
  parse(raw) {
    const selection = String(raw.selection ?? DEFAULT_SELECTION);
    if (!(SELECTION_NAMES as readonly string[]).includes(selection)) {
      throw new ParamError(
        "dp",
        "selection",
        `must be one of ${SELECTION_NAMES.join(", ")}, got ${JSON.stringify(selection)}`,
      );
    }
    const epsilon = numberParam("dp", raw, "epsilon", 1, (x) =>
      x >= 0.001 && x <= 1000 ? undefined : `must be in [0.001, 1000], got ${x}`,
    );
    const delta = numberParam("dp", raw, "delta", 1e-5, (x) =>
      x >= 1e-100 && x < 1 ? undefined : `must be in [1e-100, 1), got ${x}`,
    );
    const d = intParam(
      "dp",
      raw,
      "d",
      strategy(selection as SelectionName)?.defaultD ?? KOROLOVA_D,
      1,
      100_000,
    );
    const alpha = numberParam("dp", raw, "alpha", DEFAULT_ALPHA, (x) =>
      x >= 0 && x <= 100 ? undefined : `must be in [0, 100], got ${x}`,
    );
    const noise = raw.noise ?? "crypto";
    if (noise !== "seeded" && noise !== "crypto") {
      throw new ParamError("dp", "noise", `must be "crypto" or "seeded", got ${JSON.stringify(noise)}`);
    }
    const clicks = boolParam(raw, "clicks", true);
    const params: DpParams = {
      selection: selection as SelectionName,
      epsilon,
      delta,
      d,
      alpha,
      noise,
      clicks,
    };
    const sel = strategy(params.selection);
    if (sel) plan(params, sel);
    return params;
  },
  async anonymize(input, params, ctx): Promise<Release> {
    if (params.noise === "seeded" && !warned) {
      warned = true;
      // The caller's channel when it gives one (the library API's onWarning), stderr otherwise.
      if (ctx.warn) ctx.warn(SEEDED_WARNING.trimEnd());
      else process.stderr.write(SEEDED_WARNING);
    }
    const random = randomness(params.noise, ctx.rng);
    ctx.progress.start(`dp (${params.selection}): bounding users' contributions`);
    const events = groupEvents(input.records);
    const users = histories(events);
    ctx.progress.stop();
    const sel = strategy(params.selection);
    if (!sel) return korolovaRelease(input.records, events, params, random);

    const { account, queries: qPlan, pairs: pPlan } = plan(params, sel);
    const queries = boundQueries(users, params.d, sel.prior);
    const qCal = qPlan.cal;
    ctx.progress.start(`dp: ${sel.name} selection over ${queries.keys.length.toLocaleString("en")} queries`);
    const qPrior = priors(sel, queries.keys);
    const chosen = sel.select(queries.users, queries.keys.length, qCal, random, qPrior);
    ctx.progress.stop();
    const qNoise = qPlan.noise;
    const qCounts = noisyCounts(queries.users, queries.keys.length, chosen, qNoise, random);
    qPlan.charge(account);
    const table: {
      queries: { query: string; count: number }[];
      clicks: { query: string; url: string; count: number }[];
    } = {
      queries: Array.from(chosen, (id, i) => ({ query: queries.keys[id]!, count: qCounts[i]! })),
      clicks: [],
    };

    const counts: Record<string, number> = {
      users: users.length,
      "users over d": queries.usersTruncated,
      "(user, query) pairs over d": queries.dropped,
      "distinct queries": distinctQueries(events),
      "distinct queries within the bound": queries.keys.length,
      "queries released": chosen.length,
      ...qCal.facts,
      [`count noise (${qNoise.kind})`]: qNoise.scale,
    };
    if (pPlan) {
      const released = new Set(table.queries.map((q) => q.query));
      const pairs = boundPairs(input.records, users, released, params.d, sel.prior);
      const pChosen = sel.select(pairs.users, pairs.keys.length, pPlan.cal, random, priors(sel, pairs.keys));
      const pCounts = noisyCounts(pairs.users, pairs.keys.length, pChosen, pPlan.noise, random);
      pPlan.charge(account);
      table.clicks = Array.from(pChosen, (id, i) => {
        const key = pairs.keys[id]!;
        const tab = key.indexOf("\t");
        return { query: key.slice(0, tab), url: key.slice(tab + 1), count: pCounts[i]! };
      });
      counts["distinct click pairs of released queries"] = pairs.keys.length;
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
      const most = n.reduce((a, b) => Math.max(a, b), 0);
      const top = sel.score?.(queries.users, queries.keys.length, qPrior).reduce((a, b) => Math.max(a, b), 0);
      notes.push(
        nothingReleased(
          params,
          most,
          qCal.usersNeeded,
          sel.name,
          (p) => plan(p, sel).queries.cal.usersNeeded,
          top,
        ),
      );
    }
    return { table, guarantee: claim(params, total, notes), counts, notes };
  },
};

/** The items' public priors, when the strategy weighs by one. */
function priors(sel: Selection<Calibration>, keys: readonly string[]): Float64Array | undefined {
  const prior = sel.prior;
  return prior ? Float64Array.from(keys, (k) => prior(k)) : undefined;
}

/** Distinct non-empty queries in the log, before any contribution bound: the same denominator for every strategy. */
function distinctQueries(events: readonly { query: string }[]): number {
  const seen = new Set<string>();
  for (const e of events) if (e.query !== "") seen.add(e.query);
  return seen.size;
}

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
  return userLevelDp(account.total());
}

/**
 * What the release may claim: (ε, δ)-DP with the crypto noise; nothing with seeded noise, which anyone who knows
 * the seed can subtract. Then a note says what the same parameters give with private noise.
 */
function claim(params: DpParams, total: { epsilon: number; delta: number }, notes: string[]): Guarantee {
  const dp = userLevelDp(total);
  if (params.noise === "crypto") return dp;
  notes.push(
    `seeded noise: this release is not private and claims no guarantee; with --noise crypto the same ` +
      `parameters give ${describeGuarantee(dp)}.`,
  );
  return NO_GUARANTEE;
}

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function sortTable(table: {
  queries: { query: string; count: number }[];
  clicks: { query: string; url: string; count: number }[];
}): void {
  table.queries.sort((a, b) => b.count - a.count || byText(a.query, b.query));
  table.clicks.sort((a, b) => byText(a.query, b.query) || b.count - a.count || byText(a.url, b.url));
}

function korolovaRelease(
  records: Parameters<typeof limitAndCount>[0],
  events: Parameters<typeof limitAndCount>[1],
  params: DpParams,
  random: ReturnType<typeof randomness>,
): Release {
  const plan = budget(params.epsilon, params.delta, params.d, params.clicks);
  const counts = limitAndCount(records, events, params.d);
  const table = noisyRelease(counts, plan, discreteLaplace(random, plan.b));
  const notes: string[] = [];
  if (table.queries.length === 0) {
    const most = Math.max(0, ...counts.queries.values());
    notes.push(korolovaNothingReleased(params, most, plan.cutoff, DEFAULT_SELECTION));
  }
  const account = new Accountant();
  account.spend("korolova queries and clicks (Korolova et al. 2009 theorem)", params.epsilon, params.delta);
  return {
    table,
    guarantee: claim(params, account.total(), notes),
    notes,
    counts: {
      users: counts.users,
      "events kept": counts.eventsKept,
      "events dropped (over d)": counts.eventsDropped,
      "clicks kept": counts.clicksKept,
      "clicks dropped (over d)": counts.clicksDropped,
      "distinct queries": distinctQueries(events),
      "distinct queries within the bound": counts.queries.size,
      "queries released": table.queries.length,
      "click pairs released": table.clicks.length,
      "noise scale b": plan.b,
      "threshold K": plan.K,
      "cryptographic noise": random.private ? 1 : 0,
    },
  };
}
