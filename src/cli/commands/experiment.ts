/**
 * `querymask experiment <config>`: every method × parameter grid × seed of a config on the same log, attacked
 * and measured with the same yardsticks; writes results.tsv, results.json and report.html (see
 * src/experiment/runner.ts and docs/experiment.md).
 */
import type { Command } from "commander";
import { loadConfig, MAX_COMBINATIONS } from "../../experiment/config.ts";
import { runExperimentConfig } from "../../experiment/runner.ts";
import { UsageError } from "../../util/errors.ts";
import { checkOutputs } from "../shared.ts";

/** The files an experiment writes in its output directory. */
const EXPERIMENT_FILES = ["results.tsv", "results.json", "report.html"];

export function register(program: Command): void {
  program
    .command("experiment")
    .argument("[config]", "experiment config, JSON or YAML (see examples/experiment.yaml)")
    .option(
      "-o, --out <dir>",
      "output directory (results.tsv, results.json, report.html, .cache/)",
      "out/experiment",
    )
    .option(
      "-j, --jobs <n>",
      "parallel workers, at most the number of CPUs (default: the config's jobs, else that)",
    )
    .option("--seed <n>", "run only this seed (overrides the config's seeds)")
    .option("--force", `run even a grid of more than ${MAX_COMBINATIONS.toLocaleString("en")} combinations`)
    .option("--json", "print the results as JSON on stdout")
    .option("-q, --quiet", "no progress on stderr")
    .option("--json-schema", "print the JSON Schema of a config (every method's parameters) and exit")
    .action(
      async (
        configPath: string | undefined,
        o: {
          out: string;
          jobs?: string;
          seed?: string;
          json?: boolean;
          quiet?: boolean;
          force?: boolean;
          jsonSchema?: boolean;
        },
      ) => {
        if (o.jsonSchema) {
          const { configJsonSchema } = await import("../../experiment/schema.ts");
          process.stdout.write(`${JSON.stringify(await configJsonSchema(), null, 2)}\n`);
          return;
        }
        if (configPath === undefined)
          throw new UsageError("missing the experiment config (or --json-schema)");
        await checkOutputs([{ path: configPath, role: "config" }], []);
        let config = loadConfig(configPath, { force: o.force ?? false });
        // What the run writes in the directory must not be what it reads: a log named results.tsv, the config…
        await checkOutputs(
          [
            ...config.log,
            { path: configPath, role: "config" },
            config.allowList === undefined ? undefined : { path: config.allowList, role: "allow list" },
            config.options.bids === undefined ? undefined : { path: config.options.bids, role: "bid table" },
          ],
          [{ path: o.out, role: "output directory", directory: true, files: EXPERIMENT_FILES }],
        );
        const int = (flag: string, v: string | undefined, min: number) => {
          if (v === undefined) return undefined;
          const n = Number(v);
          if (!Number.isInteger(n) || n < min)
            throw new UsageError(`${flag} must be an integer ≥ ${min}, got ${v}`);
          return n;
        };
        const jobs = int("--jobs", o.jobs, 1);
        const seed = int("--seed", o.seed, 0);
        if (seed !== undefined) {
          config = {
            ...config,
            seeds: [seed],
            combinations: [
              ...new Map(
                config.combinations.map((c) => [JSON.stringify([c.method, c.params]), { ...c, seed }]),
              ).values(),
            ],
          };
        }
        const result = await runExperimentConfig(config, { out: o.out, jobs, quiet: o.quiet });
        if (o.json)
          process.stdout.write(`${JSON.stringify({ meta: result.meta, rows: result.rows }, null, 2)}\n`);
        else {
          const failed = result.rows.filter((r) => r.status === "error").length;
          process.stdout.write(
            `${result.rows.length} combinations (${result.meta.computed} computed, ${result.meta.cached} from cache` +
              `${failed ? `, ${failed} failed` : ""})\n` +
              `results: ${result.files.tsv}\n         ${result.files.json}\nreport:  ${result.files.html}\n`,
          );
        }
        if (result.rows.some((r) => r.status === "error")) process.exitCode = 1;
      },
    );
}
