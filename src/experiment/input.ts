/**
 * The experiment's input, in two steps: {@link loadInput} reads the config's log (or takes one already loaded)
 * and fingerprints it for the cache; {@link classifyInput} sends an unclassified log through the classifier as
 * `querymask classify` does, so the methods see what a user's would.
 */
import { loadClassifier } from "../classify/categorize.ts";
import { classifyLog } from "../classify/classify-log.ts";
import type { KnowledgeService } from "../classify/service.ts";
import { loadLog } from "../log/read.ts";
import type { QueryLog } from "../log/record.ts";
import type { Progress } from "../util/progress.ts";
import { contentHash, hashFiles } from "./cache.ts";
import type { ExperimentConfig } from "./config.ts";
import type { PreparedInput } from "./run-one.ts";

export interface LoadedInput {
  readonly log: QueryLog;
  /** SHA-256 of the log files (or of the records, for a log given in memory): the cache's log identity. */
  readonly sha256: string;
}

/** Read the config's log, or take `given` (tests, the main job); fingerprint it. */
export async function loadInput(
  config: ExperimentConfig,
  given: QueryLog | undefined,
  progress: Progress,
): Promise<LoadedInput> {
  if (given) return { log: given, sha256: contentHash(given.records) };
  progress.start("read", undefined);
  const log = await loadLog(config.log, { format: config.format, keepSource: false, progress });
  progress.stop();
  return { log, sha256: await hashFiles(config.log) };
}

export interface ClassifiedInput {
  readonly input: PreparedInput;
  /** Whether the project's classifier categorises (classified the input or will classify new query texts). */
  readonly classifier: boolean;
  /** For the report: how the input was classified, or why not. */
  readonly notes: readonly string[];
}

/**
 * Classify an unclassified log (category, unit, identifiers scrubbed from the text and from click URLs), unless
 * the config turns classification off; a classified log passes through. `classify: true` without a classifier
 * is an error.
 */
export async function classifyInput(
  config: ExperimentConfig,
  loaded: QueryLog,
  knowledge: KnowledgeService,
  progress: Progress,
): Promise<ClassifiedInput> {
  const notes: string[] = [];
  const { categorize, note } =
    config.classify === false ? { note: "classification off (config)" } : await loadClassifier(knowledge);
  if (note) notes.push(note);
  if (config.classify === true && !categorize) throw new Error(`classify: true, but ${note}`);
  let records = loaded.records;
  if (categorize && !loaded.classified) {
    const classified = classifyLog(await knowledge.classifier(), loaded, progress);
    records = classified.log.records;
    notes.push(
      `input classified as querymask classify does: identifiers scrubbed from ${classified.counts.scrubbed} query events, ${classified.clicksDropped} click URLs dropped (identifier in host), ${classified.singleUserClicksDropped} (clicked by one user only)`,
    );
  }
  return {
    input: {
      log: { ...loaded, records, classified: loaded.classified || !!categorize },
      categorizer: categorize ? async () => categorize : undefined,
      knowledge,
    },
    classifier: !!categorize,
    notes,
  };
}
