/**
 * The registry of the learned layer's experiments (one file each in this folder, one line each here) and the
 * command line that runs them. Experiments run in registry order whatever the order on the command line, so that a
 * run's output reads the same as it always has; each name runs once.
 */
import { existsSync } from "node:fs";
import { type Experiment, paths, setup } from "./setup.ts";

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
};

/** Options an experiment reads (weak: `--no-regional`). */
const FLAGS = ["--no-regional"];

/** Runs the experiments named in `args`; returns the exit code (2: an unknown name or option, or none). */
export async function main(args: readonly string[]): Promise<number> {
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
  const p = paths();
  if (!existsSync(p.train)) {
    console.log(`classifier-experiments: ${p.train} not found; skipping`);
    return 0;
  }
  const ctx = await setup(p);
  for (const name of chosen) {
    const run = (await EXPERIMENTS[name]!()).default;
    await run(ctx, flags);
  }
  return 0;
}
