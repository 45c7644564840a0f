/**
 * `querymask attack --attack NAME --original <in> --released <out>`: run one attack on a released log and say
 * how many released records it links to their true author, with the run's time per record and peak memory.
 * Without the anonymizer's ground truth, a guess counts when the original log holds that (user, query).
 */
import type { Command } from "commander";
import { notSwapShaped, releaseShape } from "../../attacks/fit.ts";
import { attacks, getAttack } from "../../attacks/registry.ts";
import { profileRun } from "../../attacks/resources.ts";
import { loadCategorize } from "../../classify/categorize.ts";
import { createKnowledgeService } from "../../classify/service.ts";
import { loadLog } from "../../log/read.ts";
import type { QueryLog } from "../../log/record.ts";
import { RejectSink } from "../../log/rejects.ts";
import { StringTable } from "../../log/strings.ts";
import { Rng } from "../../util/random.ts";
import { addParamFlags, givenParams } from "../param-flags.ts";
import {
  addInputOptions,
  checkOutputs,
  DEFAULT_SEED,
  fileOutputs,
  type InputFlags,
  parseSeed,
  printTable,
  readOptions,
  reportRejects,
} from "../shared.ts";

interface AttackFlags extends InputFlags {
  attack: string;
  original: string;
  released: string;
  seed: number;
  json?: boolean;
  [param: string]: unknown;
}

async function withCategories(log: QueryLog): Promise<QueryLog> {
  if (log.records.every((r) => r.category !== undefined)) return log;
  const categorize = await loadCategorize(createKnowledgeService());
  return {
    ...log,
    records: log.records.map((r) => {
      const copy = { ...r };
      categorize(copy);
      return copy;
    }),
  };
}

export function register(program: Command): void {
  const cmd = program
    .command("attack")
    .requiredOption("-a, --attack <name>", `attack: ${attacks.map((a) => a.name).join(", ")}`)
    .requiredOption("--original <file>", "the original log")
    .requiredOption("--released <file>", "the released (anonymized) log")
    .option("--seed <n>", "random seed", parseSeed, DEFAULT_SEED)
    .option("--json", "print JSON instead of a table");
  addParamFlags(cmd, attacks, "attack", "attack");
  cmd.addHelpText(
    "after",
    `\nAttacks:\n${attacks.map((a) => `  ${a.name.padEnd(10)} ${a.summary} (${a.paper})`).join("\n")}\n\nExample:\n  querymask attack --attack deanon3 --k 3 --original in.tsv --released out.tsv`,
  );
  addInputOptions(cmd).action(async (flags: AttackFlags) => {
    const attack = getAttack(flags.attack);
    const params = attack.parse(givenParams(attack, attacks, flags, "attack"));
    const opts = readOptions(flags);
    await checkOutputs(
      [
        { path: flags.original, role: "original log" },
        { path: flags.released, role: "released log" },
      ],
      fileOutputs(undefined, opts.rejectsPath),
    );
    // One reject file for both logs (each reject names its file), closed once both are read.
    const rejects = new RejectSink(opts.rejectsPath);
    opts.progress.start("reading the original log");
    const strings = new StringTable(); // the texts both logs hold, held once
    const original = await loadLog([flags.original], { ...opts, strings, rejects });
    opts.progress.start("reading the release");
    let released: QueryLog = await loadLog([flags.released], { ...opts, strings, rejects });
    opts.progress.stop();
    await rejects.close();
    reportRejects(rejects.count, opts.rejectsPath);
    // An attack modelled on one release (deanon1–4: the swap's) says so when run on a release of another shape.
    const misfit =
      attack.designedFor === "k-bucket"
        ? notSwapShaped(releaseShape(original.records, released.records))
        : undefined;
    if (misfit !== undefined && !flags.quiet) {
      process.stderr.write(
        `querymask: note: ${attack.name} models a swap release (the same users, each with their own number of query events); this release is not one (${misfit}), so its figure does not measure what the paper's does\n`,
      );
    }
    if (attack.name.startsWith("deanon")) released = await withCategories(released);
    const { result, profile } = await profileRun(released.records.length, () =>
      attack.run({ original, released, params, rng: Rng.fromSeed(flags.seed), progress: opts.progress }),
    );
    if (flags.json) {
      const fit =
        attack.designedFor === undefined
          ? {}
          : { designedFor: attack.designedFor, fits: misfit === undefined, ...(misfit ? { misfit } : {}) };
      process.stdout.write(`${JSON.stringify({ ...result, ...fit, resources: profile }, null, 2)}\n`);
      return;
    }
    printTable([
      ["attack", result.attack],
      ["released records", result.total],
      ["guessed", result.guessed],
      ["linked to their author", `${result.linked} (${result.linkedPct.toFixed(2)}%)`],
      ["users with a linked record", `${result.usersLinked} of ${result.users}`],
      ...Object.entries(result.counts).map(([k, v]): [string, number] => [k, v]),
      ["time per record (µs)", profile.usPerRecord.toFixed(2)],
      ["peak RSS (MiB)", profile.peakRssMiB.toFixed(1)],
    ]);
  });
}
