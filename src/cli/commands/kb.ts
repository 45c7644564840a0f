/**
 * `querymask kb build`, `kb train` and `kb info`: build the knowledge-base snapshot the classifier loads, train
 * the classifier's learned layer on labelled queries, and show what is in the snapshot (sizes, counts, build
 * inputs and their licences).
 */
import { mkdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { type Command, Option } from "commander";
import { BUNDLED_MODEL } from "../../classify/classifier.ts";
import { labelledBeside, readLabelled, readQueries } from "../../classify/labels.ts";
import { type Pool, readPool, SELF_TRAINING } from "../../classify/self-training.ts";
import { precisionRecall, trainFromLabels } from "../../classify/train.ts";
import { buildKnowledgeBase, loadKnowledgeBase } from "../../knowledge/knowledge-base.ts";
import { BUILD_SNAPSHOT, DEFAULT_SNAPSHOT, readSnapshot } from "../../knowledge/snapshot.ts";
import { writeFileAtomic } from "../../log/atomic.ts";
import { UsageError } from "../../util/errors.ts";
import { checkOutputs, printTable } from "../shared.ts";

/** The project's training set (../shared, next to the project). */
const DEFAULT_LABELS = join(
  resolve(BUNDLED_MODEL, "..", "..", "..", ".."),
  "shared",
  "data",
  "labels",
  "train.tsv",
);

interface TrainFlags {
  out: string;
  seed: string;
  folds: string;
  pool?: string;
  contextLabels?: boolean;
  json?: boolean;
  quiet?: boolean;
}

export function register(program: Command): void {
  const kb = program.command("kb");

  kb.command("build")
    .description(
      "build the knowledge-base snapshot (the package ships one built; a checkout builds its own on first use)",
    )
    .addOption(
      new Option("-o, --out <file>", "snapshot file").default(
        BUILD_SNAPSHOT,
        "$QUERYMASK_KB, else .cache/kb/knowledge-base.json in a checkout, the user's cache in an install",
      ),
    )
    .option(
      "--termstats <tsv>",
      "term-specificity table 'term TAB count' (Porter stems; line 1 = number of documents)",
    )
    .addHelpText(
      "after",
      "\nExample:\n  querymask kb build\n  querymask kb build --termstats my-hit-counts.tsv",
    )
    .option("-q, --quiet", "no progress or result lines on stderr")
    .action(async (flags: { out: string; termstats?: string; quiet?: boolean }) => {
      // The default place is the user's cache in an install: made here, as any cache is on first use.
      if (flags.out === BUILD_SNAPSHOT) mkdirSync(dirname(resolve(flags.out)), { recursive: true });
      await checkOutputs(
        [
          flags.termstats === undefined
            ? undefined
            : { path: flags.termstats, role: "term-specificity table" },
        ],
        [{ path: flags.out, role: "snapshot" }],
      );
      // What -o names is replaced only when it is a snapshot (an older one, or one of this build): this throws for
      // any other file.
      readSnapshot(flags.out);
      const t0 = performance.now();
      const snap = buildKnowledgeBase(flags.out, flags.termstats ? { termstats: flags.termstats } : {});
      const secs = ((performance.now() - t0) / 1000).toFixed(1);
      if (!flags.quiet) {
        process.stderr.write(
          `built ${flags.out} (${snap.categories.length} categories referenced) in ${secs} s\n`,
        );
        if (resolve(flags.out) !== resolve(DEFAULT_SNAPSHOT))
          process.stderr.write(`commands load it with QUERYMASK_KB=${flags.out}\n`);
      }
    });

  kb.command("train")
    .description(
      "train the classifier's learned decision layer on labelled queries (TSV with 'query' and 'label' columns)",
    )
    .argument("[labels]", "labelled queries (default: ../shared/data/labels/train.tsv beside the project)")
    .addOption(
      new Option("-o, --out <file>", "model file").default(
        BUNDLED_MODEL,
        "the bundled data/model/classifier-model.json",
      ),
    )
    .option("--seed <n>", "seed of the example order and the folds", "1")
    .option("--folds <k>", "cross-validate with k folds first (0 = skip)", "5")
    .option(
      "--pool <log>",
      "also self-train on the distinct queries of this unlabelled log (e.g. ../shared/data/aol-top1000/aol_top1000_users.tsv.gz)",
    )
    .option(
      "--no-context-labels",
      "with --pool: leave out the third fit, on the labels the log context gives the pool (docs/classifier.md)",
    )
    .option("--json", "print the figures as JSON")
    .option("-q, --quiet", "no progress lines on stderr")
    .addHelpText(
      "after",
      "\nThe model is bound to the current knowledge-base snapshot: rebuild the snapshot, retrain.\n" +
        "--pool leaves out the queries of the labels file and of a dev.tsv beside it; a word, pair or 4-gram\n" +
        "learned from the pool alone must occur in queries of at least 5 distinct users of the log. Where the\n" +
        "log has clicks, a pool query whose clicked sites the labelled queries' clicks agree on takes their label.\n" +
        "Then that model's branches, reconsidered in the light of the log (as classify --context clicks,users),\n" +
        "label the pool queries they are sure of, and the model is fitted a third time on those instead\n" +
        "(--no-context-labels: not). The bundled model is `kb train --pool <the AOL subset> --folds 0`.\n" +
        "Example:\n  querymask kb train ../shared/data/labels/train.tsv\n  querymask kb train my-labels.tsv -o my-model.json --folds 0",
    )
    .action(async (labelsArg: string | undefined, flags: TrainFlags) => {
      const labels = labelsArg ?? DEFAULT_LABELS;
      const say = (line: string) => {
        if (!flags.quiet) process.stderr.write(`${line}\n`);
      };
      const seed = Number(flags.seed);
      const folds = Number(flags.folds);
      if (!Number.isSafeInteger(seed)) throw new UsageError(`--seed: expected an integer, got ${flags.seed}`);
      if (!Number.isInteger(folds) || folds < 0 || folds === 1)
        throw new UsageError(`--folds: expected 0 or an integer ≥ 2, got ${flags.folds}`);
      await checkOutputs(
        [
          { path: labels, role: "labelled queries" },
          flags.pool === undefined ? undefined : { path: flags.pool, role: "pool log" },
        ],
        [{ path: flags.out, role: "model" }],
      );
      const t0 = performance.now();
      const rows = readLabelled(labels);
      say(`training on ${rows.length} labelled queries of ${labels}…`);
      const withhold = readQueries(labels);
      let pool: Pool | undefined;
      if (flags.pool !== undefined) {
        pool = await readPool(flags.pool, labelledBeside(labels));
        say(
          `self-training on ${pool.users.size} distinct unlabelled queries of ${flags.pool} (${pool.clicks.size} queries with clicks)…`,
        );
      }
      const run = await trainFromLabels(rows, {
        seed,
        folds,
        withhold,
        ...(pool !== undefined ? { pool } : {}),
        ...(flags.contextLabels === false ? { selfTraining: SELF_TRAINING } : {}),
        progress: say,
      });
      await writeFileAtomic(flags.out, `${JSON.stringify(run.file)}\n`);
      const secs = ((performance.now() - t0) / 1000).toFixed(1);
      const summary = {
        labels,
        out: flags.out,
        examples: run.examples,
        features: run.model.size,
        seed,
        seconds: Number(secs),
        ...(run.cv !== undefined
          ? {
              cv: {
                folds: run.cv.folds,
                mean: run.cv.mean,
                sd: run.cv.sd,
                perCategory: precisionRecall(run.cv.pooled),
              },
            }
          : {}),
      };
      if (flags.json) {
        process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
        return;
      }
      if (run.cv !== undefined) {
        const pct = (x: number) => (100 * x).toFixed(2);
        process.stdout.write(
          `${folds}-fold cross-validated top-level accuracy: ${pct(run.cv.mean)}% ± ${pct(run.cv.sd)} (folds ${run.cv.folds.map(pct).join(", ")})\n`,
        );
        process.stdout.write("category        queries  precision  recall\n");
        for (const r of precisionRecall(run.cv.pooled))
          process.stdout.write(
            `${r.label.padEnd(15)} ${String(r.n).padStart(7)}  ${r.precision.toFixed(2).padStart(9)}  ${r.recall.toFixed(2).padStart(6)}\n`,
          );
      }
      say(`wrote ${flags.out} (${run.model.size} features) in ${secs} s`);
    });

  kb.command("info")
    .description("sizes, counts, build inputs and their licences")
    .addOption(
      new Option("--snapshot <file>", "snapshot file").default(
        DEFAULT_SNAPSHOT,
        "$QUERYMASK_KB, else the one the package ships, or .cache/kb/knowledge-base.json in a checkout",
      ),
    )
    .option("--json", "print JSON instead of a table")
    .option("-q, --quiet", "no progress lines on stderr")
    .action(async (flags: { snapshot: string; json?: boolean; quiet?: boolean }) => {
      // A missing snapshot is built there: the path must be one a file can be written at.
      await checkOutputs([], [{ path: flags.snapshot, role: "snapshot" }]);
      const t0 = performance.now();
      const k = await loadKnowledgeBase(flags.snapshot);
      const loadMs = Math.round(performance.now() - t0);
      const info = {
        snapshot: flags.snapshot,
        bytes: statSync(flags.snapshot).size,
        loadMs,
        categories: k.taxonomy.size,
        phrases: k.phraseCount,
        terms: k.termStats.size,
        termDocuments: k.termStats.documents,
        spellingWords: k.spelling.vocabularySize,
        misspellings: k.spelling.misspellingCount,
        inputs: k.inputs,
      };
      if (flags.json) {
        process.stdout.write(`${JSON.stringify(info, null, 2)}\n`);
        return;
      }
      printTable([
        ["snapshot", info.snapshot],
        ["size (bytes)", info.bytes],
        ["load time (ms)", info.loadMs],
        ["ODP categories", info.categories],
        ["phrases → categories", info.phrases],
        ["term-specificity entries", info.terms],
        ["term-specificity documents", info.termDocuments],
        ["spelling vocabulary", info.spellingWords],
        ["listed misspellings", info.misspellings],
      ]);
      process.stdout.write("\nbuild inputs:\n");
      for (const i of info.inputs) {
        process.stdout.write(
          `  ${i.name}: ${i.source} (${i.entries.toLocaleString("en")} entries) — ${i.licence}\n`,
        );
      }
    });
}
