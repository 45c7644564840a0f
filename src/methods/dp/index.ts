/**
 * "dp": the differentially private release of queries and clicks of Korolova, Kenthapadi, Mishra and Ntoulas
 * (WWW 2009). The output is a query-click count table, not per-user logs; it is (ε, δ)-differentially private
 * for neighbouring logs that differ in one user's whole history (docs/dp.md) — provided the noise is
 * unpredictable: the default `--noise crypto` draws it from the OS's cryptographic generator; `--noise seeded`
 * (reproducible from `--seed`, for experiments and tests) is not private and says so on stderr.
 */
import { groupEvents } from "../../log/events.ts";
import { intParam, type Method, numberParam, ParamError, type Release } from "../method.ts";
import { budget } from "./budget.ts";
import { laplaceNoise, type NoiseSource } from "./laplace.ts";
import { limitAndCount, noisyRelease } from "./release.ts";

export interface DpParams {
  /** Privacy loss ε > 0. */
  readonly epsilon: number;
  /** Failure probability 0 < δ < 1. */
  readonly delta: number;
  /** Query events (and clicks) kept per user, ≥ 1. */
  readonly d: number;
  /** "crypto" (default: a real release) or "seeded" (reproducible from the seed: experiments only, not private). */
  readonly noise: NoiseSource;
  /** Release noisy click counts too (default); false = queries only, with the paper's b = d/ε and K. */
  readonly clicks: boolean;
}

/** The stderr warning for seeded noise, printed once per process. */
export const SEEDED_WARNING =
  "querymask dp: WARNING: --noise seeded draws the Laplace noise from --seed, so anyone who knows or guesses " +
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

export const dp: Method<DpParams> = {
  name: "dp",
  summary:
    "Differentially private query and click counts (Korolova et al. 2009): first d events per user, Laplace noise, threshold.",
  paper: "Korolova et al. 2009",
  params: [
    { name: "epsilon", type: "number", description: "privacy loss ε (> 0)", default: 1 },
    { name: "delta", type: "number", description: "failure probability δ (0 < δ < 1)", default: 1e-5 },
    { name: "d", type: "int", description: "query events and clicks kept per user (≥ 1)", default: 20 },
    {
      name: "noise",
      type: "string",
      description:
        "noise source: crypto (OS CSPRNG, private) or seeded (reproducible from --seed; NOT private, experiments only)",
      default: "crypto",
    },
    {
      name: "clicks",
      type: "boolean",
      description: "also release noisy click counts (b = 2d/ε); false = queries only (b = d/ε)",
      default: true,
    },
  ],
  parse(raw) {
    const epsilon = numberParam("dp", raw, "epsilon", 1, (x) =>
      x > 0 ? undefined : `must be > 0, got ${x}`,
    );
    const delta = numberParam("dp", raw, "delta", 1e-5, (x) =>
      x > 0 && x < 1 ? undefined : `must be in (0, 1), got ${x}`,
    );
    const d = intParam("dp", raw, "d", 20, 1);
    const noise = raw.noise ?? "crypto";
    if (noise !== "seeded" && noise !== "crypto") {
      throw new ParamError("dp", "noise", `must be "crypto" or "seeded", got ${JSON.stringify(noise)}`);
    }
    const clicks = boolParam(raw, "clicks", true);
    return { epsilon, delta, d, noise, clicks };
  },
  async anonymize(input, params, ctx): Promise<Release> {
    if (params.noise === "seeded" && !warned) {
      warned = true;
      process.stderr.write(SEEDED_WARNING);
    }
    const plan = budget(params.epsilon, params.delta, params.d, params.clicks);
    ctx.progress.start("dp: limiting users and counting");
    const events = groupEvents(input.records);
    const counts = limitAndCount(input.records, events, params.d);
    ctx.progress.stop();
    const table = noisyRelease(counts, plan, laplaceNoise(ctx.rng, plan.b, params.noise));
    return {
      table,
      guarantee: { epsilon: params.epsilon, delta: params.delta },
      counts: {
        users: counts.users,
        "events kept": counts.eventsKept,
        "events dropped (over d)": counts.eventsDropped,
        "clicks kept": counts.clicksKept,
        "clicks dropped (over d)": counts.clicksDropped,
        "distinct queries": counts.queries.size,
        "queries released": table.queries.length,
        "click pairs released": table.clicks.length,
        "noise scale b": plan.b,
        "threshold K": plan.K,
        "cryptographic noise": params.noise === "crypto" ? 1 : 0,
      },
    };
  },
};
