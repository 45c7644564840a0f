/**
 * "dp": the differentially private release of queries and clicks of Korolova, Kenthapadi, Mishra and Ntoulas
 * (WWW 2009). The output is a query-click count table, not per-user logs; it is (ε, δ)-differentially private
 * for neighbouring logs that differ in one user's whole history (docs/dp.md).
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
  /** "seeded" (reproducible, for experiments) or "crypto" (for a real release). */
  readonly noise: NoiseSource;
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
        "noise source: seeded (reproducible from --seed; experiments only) or crypto (real releases)",
      default: "seeded",
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
    const noise = raw.noise ?? "seeded";
    if (noise !== "seeded" && noise !== "crypto") {
      throw new ParamError("dp", "noise", `must be "seeded" or "crypto", got ${JSON.stringify(noise)}`);
    }
    return { epsilon, delta, d, noise };
  },
  async anonymize(input, params, ctx): Promise<Release> {
    const plan = budget(params.epsilon, params.delta, params.d);
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
      },
    };
  },
};
