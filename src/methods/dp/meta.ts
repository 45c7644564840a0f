/**
 * What the CLI, the registry and the report need of the "dp" method without loading its implementation
 * (./index.ts, whose strategies take ~60 CPU-ms to import): name, summary, paper, parameters. The strategies'
 * names and default d are restated here, in `selections` order; test/methods/catalog.test.ts checks them against
 * selection/index.ts and index.ts's defaults.
 */
import type { MethodInfo } from "../method.ts";

/** Each selection strategy with its default d (`Selection.defaultD`), in the order of `selections`. */
export const STRATEGY_DEFAULT_D: readonly (readonly [string, number])[] = [
  ["laplace", 1],
  ["gaussian", 10],
  ["optimal", 1],
  ["policy-laplace", 1],
  ["policy-gaussian", 20],
  ["weighted-gaussian", 20],
  ["length-weighted", 10],
];
/** korolova's default d (index.ts's KOROLOVA_D). */
export const KOROLOVA_DEFAULT_D = 20;

export const dpInfo: MethodInfo = {
  name: "dp",
  summary:
    "Differentially private query and click counts: user-level partition selection (default: Weighted Gaussian set union weighted toward short queries), discrete noise, exact privacy accounting.",
  paper: "Korolova et al. 2009; Gopi et al. 2020; Desfontaines et al. 2022",
  params: [
    {
      name: "selection",
      type: "string",
      description: `how queries are selected: ${["korolova", ...STRATEGY_DEFAULT_D.map(([s]) => s)].join(", ")}`,
      default: "length-weighted",
    },
    {
      name: "epsilon",
      type: "number",
      description: "privacy loss ε of the whole release (0.001–1000)",
      default: 1,
    },
    { name: "delta", type: "number", description: "failure probability δ (1e-12 ≤ δ < 1)", default: 1e-5 },
    {
      name: "d",
      type: "int",
      description: `contribution bound: distinct queries per user (korolova: query events); default per strategy: ${[
        `korolova ${KOROLOVA_DEFAULT_D}`,
        ...STRATEGY_DEFAULT_D.map(([s, d]) => `${s} ${d}`),
      ].join(", ")}`,
    },
    {
      name: "alpha",
      type: "number",
      description: "policy strategies: cutoff Γ = ρ + α·noise scale (0–100)",
      default: 5,
    },
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
      description: "also release noisy click counts (costs part of ε and δ)",
      default: true,
    },
  ],
};
