/**
 * The "dp" method's declaration: what the CLI, the registry and the report need of it without loading its
 * implementation (./index.ts, whose strategies take ~60 CPU-ms to import), and its parameters' one schema. The strategies'
 * names and default d are restated here, in `selections` order; test/methods/catalog.test.ts checks them against
 * selection/index.ts and index.ts's defaults.
 */
import { bool, choice, defineParams, int, type MethodDeclaration, num } from "../method.ts";
import type { DpParams, SelectionName } from "./plan.ts";

/** Each selection strategy with its default d (`Selection.defaultD`), in the order of `selections`. */
export const STRATEGY_DEFAULT_D: readonly (readonly [string, number])[] = [
  ["laplace", 1],
  ["gaussian", 10],
  ["optimal", 1],
  ["policy-laplace", 1],
  ["policy-gaussian", 20],
  ["weighted-gaussian", 20],
  ["length-weighted", 10],
  ["greedy", 10],
  ["greedy-prior", 10],
  ["dp-sips", 20],
  ["targeted", 10],
];
/** korolova's default d (index.ts's KOROLOVA_D). */
export const KOROLOVA_DEFAULT_D = 20;
/** The strategies whose default α is not 5 (`Selection.defaultAlpha`). */
export const STRATEGY_DEFAULT_ALPHA: Readonly<Record<string, number>> = { greedy: 2, "greedy-prior": 2 };

/**
 * The smallest δ a release may claim. The selection noise is computed in doubles: its tail probabilities are the
 * ideal ones to about 1e-10 relative (erfc⁻¹'s accuracy, test/dp/noise.test.ts), and the thresholds' chances are
 * evaluated in doubles too; a δ far below what that arithmetic can vouch for would be a claim, not a guarantee.
 */
export const MIN_DELTA = 1e-12;
const DELTA_FLOOR_WHY =
  ' (below 1e-12 the floating-point noise and threshold arithmetic cannot vouch for δ: docs/methods/dp.md, "Noise")';

const SELECTIONS = ["korolova", ...STRATEGY_DEFAULT_D.map(([s]) => s)] as [string, ...string[]];

export const dpParams = defineParams(
  "dp",
  {
    selection: choice(SELECTIONS, `how queries are selected: ${SELECTIONS.join(", ")}`, "targeted"),
    epsilon: num("privacy loss ε of the whole release (0.001–1000)", { min: 0.001, max: 1000, default: 1 }),
    delta: num("failure probability δ (1e-12 ≤ δ < 1)", {
      min: MIN_DELTA,
      lt: 1,
      default: 1e-5,
      hint: (x) => (x > 0 && x < MIN_DELTA ? DELTA_FLOOR_WHY : ""),
    }),
    d: int(
      `contribution bound: distinct queries per user (korolova: query events); default per strategy: ${[
        `korolova ${KOROLOVA_DEFAULT_D}`,
        ...STRATEGY_DEFAULT_D.map(([s, d]) => `${s} ${d}`),
      ].join(", ")}`,
      { min: 1, max: 100_000 },
    ),
    alpha: num("policy and greedy strategies: cutoff Γ = ρ + α·noise scale (0–100; default 5, greedy's 2)", {
      min: 0,
      max: 100,
    }),
    noise: choice(
      ["crypto", "seeded"],
      "noise source: crypto (OS CSPRNG, private) or seeded (reproducible from --seed; NOT private, experiments only)",
      "crypto",
    ),
    clicks: bool("also release noisy click counts (costs part of ε and δ)", true),
    canonical: bool(
      "map each query to one form before the bound (case, spaces, punctuation, www./.com): the release holds those forms",
      false,
    ),
  },
  (p): DpParams => {
    return {
      ...p,
      selection: p.selection as SelectionName,
      d: p.d ?? STRATEGY_DEFAULT_D.find(([s]) => s === p.selection)?.[1] ?? KOROLOVA_DEFAULT_D,
      alpha: p.alpha ?? STRATEGY_DEFAULT_ALPHA[p.selection] ?? 5,
    };
  },
);

export const dpDeclaration: MethodDeclaration<DpParams, "dp"> = {
  name: "dp",
  summary:
    "Differentially private query and click counts: user-level partition selection (default: weighted Gaussian set union in rounds, each steering the next), discrete noise, exact privacy accounting.",
  paper: "Korolova et al. 2009; Gopi et al. 2020; Desfontaines et al. 2022; Chen et al. 2025",
  kind: "release",
  // Each record is prepared on its own (no single-clicker URL rule): DP pair selection does what it did.
  input: {
    text: "scrubbed",
    timeOrder: false,
    userGrouping: true,
    crossUser: false,
    firstSeen: true,
    sortable: false,
  },
  // Over shards of users for the strategies that select from one sum over users (./sharded.ts).
  shards: true,
  disclosure: "dp",
  releases: "count-table",
  model: "differential-privacy",
  params: dpParams,
};
