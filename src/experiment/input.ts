/**
 * The experiment's input, in two steps: {@link loadInput} reads the config's log (or takes one already loaded)
 * and fingerprints it for the cache; {@link prepareInputs} prepares it for each method as the pipeline does
 * (scrubbed, or classified as `querymask classify` does), so the methods see what a user's would.
 */
import { loadClassifier } from "../classify/categorize.ts";
import { classifyLog } from "../classify/classify-log.ts";
import type { KnowledgeService } from "../classify/service.ts";
import { loadLog } from "../log/read.ts";
import type { QueryLog } from "../log/record.ts";
import type { MethodDeclaration } from "../methods/method.ts";
import { methods } from "../methods/registry.ts";
import { preparationFor, prepareLog } from "../pipeline/prepare.ts";
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
  /** For the report: how the input was prepared, or why it was not classified. */
  readonly notes: readonly string[];
}

/** The key of the log a method is given in an experiment: its preparation, per record or not. */
export function preparationKey(method: Pick<MethodDeclaration, "input">, loaded: QueryLog): string {
  const p = preparationFor(method.input.text, loaded);
  return p === "scrubbed" && !method.input.crossUser ? "scrubbed per record" : p;
}

/**
 * The log each of the config's methods is given, prepared once per preparation as the pipeline prepares it
 * (src/pipeline/prepare.ts: scrubbed, or classified as `querymask classify` does, unless the config turns
 * classification off; a classified log passes through), so a combination releases what `querymask anonymize`
 * releases for the same parameters and seed. `classify: true` without a classifier is an error.
 */
export async function prepareInputs(
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
  const used = new Set(config.combinations.map((c) => c.method));
  const prepared = new Map<string, QueryLog>([["as-read", loaded]]);
  for (const m of methods.filter((x) => used.has(x.name))) {
    const key = preparationKey(m, loaded);
    if (prepared.has(key) || key === "as-read" || (key === "classified" && !categorize)) continue;
    if (key === "classified") {
      const classified = classifyLog(await knowledge.classifier(), loaded, progress);
      prepared.set(key, classified.log);
      notes.push(
        `input classified as querymask classify does for the methods that take a classified log: identifiers scrubbed from ${classified.counts.scrubbed} query events, ${classified.clicksDropped} click URLs dropped (identifier in host), ${classified.singleUserClicksDropped} (clicked by one user only)`,
      );
    } else {
      const { log } = await prepareLog(loaded, "scrubbed", {
        crossUser: key === "scrubbed",
        allow: knowledge.allow,
        progress,
      });
      prepared.set(key, log);
    }
  }
  return {
    input: {
      log: prepared.get("classified") ?? loaded,
      prepared,
      categorizer: categorize ? async () => categorize : undefined,
      knowledge,
    },
    classifier: !!categorize,
    notes,
  };
}
