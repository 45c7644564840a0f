/**
 * The main job (`npm start`): bundled Excite sample → classify (when the classifier is available) → anonymize
 * with the default method → attack → measure → report.html. It is an ordinary experiment with a built-in
 * config: the default method (the registry's first release with a privacy model: swap) at its default
 * parameters, plus the baselines that mark the two ends of the frontier (identity and drop-all).
 */
import { cpus } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describeGuarantee } from "../log/guarantee.ts";
import { methods, paramsLabel } from "../methods/registry.ts";
import { parseConfig } from "./config.ts";
import { runExperimentConfig } from "./runner.ts";

/** The bundled sample: Excite query log sample, from the Apache Pig tutorial (Apache License 2.0). */
export const SAMPLE_LOG = fileURLToPath(new URL("../../data/excite/excite-small.log", import.meta.url));

/**
 * The baselines that mark the two ends of the frontier: the releases that claim no privacy model (identity
 * releases the log unchanged, drop-all nothing).
 */
const baselines = () => methods.filter((m) => m.kind === "release" && m.model === "none").map((m) => m.name);

/** The method the main job demonstrates: the registry's first release with a privacy model. */
export function defaultMethod(): string {
  const first = methods.find((m) => m.kind === "release" && m.model !== "none") ?? methods[0];
  if (!first) throw new Error("no anonymization method is registered");
  return first.name;
}

export interface MainJobOptions {
  /** Output directory (results.tsv, results.json, report.html, .cache/). */
  readonly out: string;
  readonly seed: number;
  /** No progress lines and no summary on stdout. */
  readonly quiet?: boolean;
  /** Another log instead of the bundled sample (tests). */
  readonly log?: string;
}

/** Run the main job; returns the path of report.html. */
export async function runMainJob(opts: MainJobOptions): Promise<string> {
  const method = defaultMethod();
  const config = parseConfig(
    {
      log: opts.log ?? SAMPLE_LOG,
      seeds: [opts.seed],
      methods: [method, ...baselines().filter((b) => b !== method)],
      jobs: Math.min(2, cpus().length),
    },
    "(main job: built-in config)",
  );
  const result = await runExperimentConfig(config, { out: opts.out, quiet: opts.quiet });
  if (!opts.quiet) {
    const row = result.rows.find((r) => r.method === method);
    const say = (s: string) => process.stdout.write(`${s}\n`);
    // Every parameter the method ran with, its defaults filled in ("swap (k=3 delta=1.2 …)").
    say(`\nMain job: ${method} (${paramsLabel(row?.params ?? {}) || "-"}) on ${SAMPLE_LOG}`);
    if (row?.status === "error") say(`  ${method} failed: ${row.error}`);
    else if (row) {
      const v = (k: string) => {
        const x = row.values[k];
        return typeof x === "number" ? `${x.toFixed(1)}%` : "n/a";
      };
      say(
        `  record linkage RL ${v("rl.rl")}; background attacker (m=2) re-identifies ${v("background.m2.reidentified")}`,
      );
      say(`  query events kept ${v("retention.events")}; top-1000 queries kept ${v("frequency.recall")}`);
      say(`  guarantee: ${describeGuarantee(row.guarantee)}`);
      say(`  audit (querymask audit's checks): ${row.audit ?? "n/a"}`);
      for (const x of row.auditViolations ?? []) say(`    ${x}`);
    }
    for (const n of result.meta.notes) say(`  note: ${n}`);
    say(`Report: ${result.files.html}`);
  }
  return result.files.html;
}

export const DEFAULT_OUT = join("out", "main-job");
