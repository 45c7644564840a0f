/**
 * `querymask kb build` and `querymask kb info`: build the knowledge-base snapshot the classifier loads, and
 * show what is in it (sizes, counts, build inputs and their licences).
 */
import { statSync } from "node:fs";
import type { Command } from "commander";
import { buildKnowledgeBase, loadKnowledgeBase } from "../../knowledge/knowledge-base.ts";
import { DEFAULT_SNAPSHOT } from "../../knowledge/snapshot.ts";
import { printTable } from "../shared.ts";

export function register(program: Command): void {
  const kb = program.command("kb");

  kb.command("build")
    .description("build the knowledge-base snapshot (done automatically on first use if missing)")
    .option("-o, --out <file>", "snapshot file", DEFAULT_SNAPSHOT)
    .option(
      "--termstats <tsv>",
      "term-specificity table 'term TAB count' (Porter stems; line 1 = number of documents)",
    )
    .addHelpText(
      "after",
      "\nExample:\n  querymask kb build\n  querymask kb build --termstats my-hit-counts.tsv",
    )
    .action((flags: { out: string; termstats?: string }) => {
      const t0 = performance.now();
      const snap = buildKnowledgeBase(flags.out, flags.termstats ? { termstats: flags.termstats } : {});
      const secs = ((performance.now() - t0) / 1000).toFixed(1);
      process.stderr.write(
        `built ${flags.out} (${snap.categories.length} categories referenced) in ${secs} s\n`,
      );
    });

  kb.command("info")
    .description("sizes, counts, build inputs and their licences")
    .option("--snapshot <file>", "snapshot file", DEFAULT_SNAPSHOT)
    .option("--json", "print JSON instead of a table")
    .action(async (flags: { snapshot: string; json?: boolean }) => {
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
