/**
 * `querymask attack --attack NAME --original <in> --released <out>`: run one attack on a released log and say
 * how many released records it links to their true author, with the run's time per record and peak memory.
 * Without the anonymizer's ground truth, a guess counts when the original log holds that (user, query).
 */
import type { Command } from "commander";
import type { AttackParams } from "../../attacks/attack.ts";
import { attacks, getAttack } from "../../attacks/registry.ts";
import { profileRun } from "../../attacks/resources.ts";
import { loadLog } from "../../log/read.ts";
import type { QueryLog } from "../../log/record.ts";
import { loadCategorize } from "../../methods/swap/classify.ts";
import { Rng } from "../../util/random.ts";
import {
  addInputOptions,
  DEFAULT_SEED,
  type InputFlags,
  parseSeed,
  printTable,
  readOptions,
} from "../shared.ts";

interface AttackFlags extends InputFlags {
  attack: string;
  original: string;
  released: string;
  k: string;
  delta: string;
  depth: string;
  seed: number;
  json?: boolean;
}

async function withCategories(log: QueryLog): Promise<QueryLog> {
  if (log.records.every((r) => r.category !== undefined)) return log;
  const categorize = await loadCategorize();
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
    .option("--k <n>", "k the attacker assumes (de-anonymizers)", "3")
    .option("--delta <x>", "δ the attacker assumes", "1.2")
    .option("--depth <n>", "category depth the attacker assumes", "1")
    .option("--seed <n>", "random seed", parseSeed, DEFAULT_SEED)
    .option("--json", "print JSON instead of a table")
    .addHelpText(
      "after",
      `\nAttacks:\n${attacks.map((a) => `  ${a.name.padEnd(10)} ${a.summary} (${a.paper})`).join("\n")}\n\nExample:\n  querymask attack --attack deanon3 --k 3 --original in.tsv --released out.tsv`,
    );
  addInputOptions(cmd).action(async (flags: AttackFlags) => {
    const attack = getAttack(flags.attack);
    const opts = readOptions(flags);
    const original = await loadLog([flags.original], opts);
    let released: QueryLog = await loadLog([flags.released], opts);
    if (attack.name.startsWith("deanon")) released = await withCategories(released);
    const params: AttackParams = {
      k: Number(flags.k),
      delta: Number(flags.delta),
      depth: Number(flags.depth),
    };
    const { result, profile } = await profileRun(released.records.length, () =>
      attack.run({ original, released, params, rng: Rng.fromSeed(flags.seed), progress: opts.progress }),
    );
    if (flags.json) {
      process.stdout.write(`${JSON.stringify({ ...result, resources: profile }, null, 2)}\n`);
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
