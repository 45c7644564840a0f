/**
 * The registry of the learned layer's experiments (one file each in this folder, one line each here) and the
 * command line that runs them. Experiments run in registry order whatever the order on the command line, so that a
 * run's output reads the same as it always has; each name runs once.
 */
import { existsSync } from "node:fs";
import { type Experiment, type Options, paths, setup } from "./setup.ts";

const EXPERIMENTS: Readonly<Record<string, () => Promise<{ default: Experiment }>>> = {
  baseline: () => import("./baseline.ts"),
  prototypes: () => import("./prototypes.ts"),
  weak: () => import("./weak.ts"),
  knn: () => import("./knn.ts"),
  classweights: () => import("./classweights.ts"),
  seeds: () => import("./seeds.ts"),
  clicks: () => import("./clicks.ts"),
  sessions: () => import("./sessions.ts"),
  confusion: () => import("./confusion.ts"),
  names: () => import("./names.ts"),
  namevectors: () => import("./namevectors.ts"),
  depth2: () => import("./depth2.ts"),
  namedf: () => import("./namedf.ts"),
  selftrain: () => import("./selftrain.ts"),
  hidden: () => import("./hidden.ts"),
  maxpool: () => import("./maxpool.ts"),
  clickprop: () => import("./clickprop.ts"),
  clickrounds: () => import("./clickrounds.ts"),
  sessionprop: () => import("./sessionprop.ts"),
  poolreg: () => import("./poolreg.ts"),
  clicksoft: () => import("./clicksoft.ts"),
  hiddenpool: () => import("./hiddenpool.ts"),
  goldweight: () => import("./goldweight.ts"),
  priorshift: () => import("./priorshift.ts"),
  averaging: () => import("./averaging.ts"),
  poolseeds: () => import("./poolseeds.ts"),
  splitvec: () => import("./splitvec.ts"),
  sif: () => import("./sif.ts"),
  headvec: () => import("./headvec.ts"),
  userctx: () => import("./userctx.ts"),
  hostprop: () => import("./hostprop.ts"),
  hostfeat: () => import("./hostfeat.ts"),
  logctx: () => import("./logctx.ts"),
  ctxdistill: () => import("./ctxdistill.ts"),
};

/** Options an experiment reads (weak: `--no-regional`). */
const FLAGS = ["--no-regional"];

/** A comma-separated list of numbers from `env[name]` (or `fallback`), each checked by `ok`; throws on a bad one. */
function numbers(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: string,
  what: string,
  ok: (x: number) => boolean,
): number[] {
  const text = env[name] ?? fallback;
  return text.split(",").map((item) => {
    const x = Number(item);
    if (item.trim() === "" || !ok(x)) throw new Error(`${name}: "${item}" is not ${what}`);
    return x;
  });
}

/** The options from the command line's flags and the environment, checked. */
export function parseOptions(flags: readonly string[], env: NodeJS.ProcessEnv): Options {
  const selftrainConfigs = (env.SELFTRAIN_CONFIGS ?? "0.9:0.5:5,0.8:0.3:5,0.7:0.3:5,0.9:1:5")
    .split(",")
    .map((c) => {
      const parts = c.split(":");
      const [threshold, weight, minUsers] = parts.map(Number);
      if (
        parts.length !== 3 ||
        parts.some((x) => x.trim() === "") ||
        !Number.isFinite(threshold) ||
        !Number.isFinite(weight) ||
        !Number.isInteger(minUsers)
      )
        throw new Error(`SELFTRAIN_CONFIGS: "${c}" is not threshold:weight:minUsers`);
      return [threshold!, weight!, minUsers!] as const;
    });
  return {
    noRegional: flags.includes("--no-regional"),
    selftrainConfigs,
    hiddenUnits: numbers(
      env,
      "HIDDEN_UNITS",
      "64,128",
      "a positive whole number",
      (x) => Number.isInteger(x) && x > 0,
    ),
    maxpoolScales: numbers(env, "MAXPOOL_SCALES", "3,10", "a number", Number.isFinite),
  };
}

/**
 * Runs the experiments named in `args`; returns the exit code (2: an unknown name or option, none, or a bad
 * SELFTRAIN_CONFIGS / HIDDEN_UNITS / MAXPOOL_SCALES).
 */
export async function main(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const known = Object.keys(EXPERIMENTS);
  const flags = args.filter((a) => a.startsWith("--"));
  const unknown = args.filter((a) => (a.startsWith("--") ? !FLAGS.includes(a) : !known.includes(a)));
  const chosen = known.filter((name) => args.includes(name));
  if (unknown.length > 0 || chosen.length === 0) {
    const why = unknown.length > 0 ? `unknown ${unknown.join(", ")}` : "no experiment named";
    console.error(
      `classifier-experiments: ${why}; experiments: ${known.join(" ")}; options: ${FLAGS.join(" ")}`,
    );
    return 2;
  }
  let options: Options;
  try {
    options = parseOptions(flags, env);
  } catch (e) {
    console.error(`classifier-experiments: ${(e as Error).message}`);
    return 2;
  }
  const p = paths();
  if (!existsSync(p.train)) {
    console.log(`classifier-experiments: ${p.train} not found; skipping`);
    return 0;
  }
  const ctx = await setup(p);
  for (const name of chosen) {
    const run = (await EXPERIMENTS[name]!()).default;
    await run(ctx, options);
  }
  return 0;
}
