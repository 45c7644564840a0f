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
  /** Per preparation: the identifiers it removed, by kind. */
  const removed = new Map<string, Record<string, number>>();
  const using = methods.filter((x) => used.has(x.name));
  for (const m of using) {
    const key = preparationKey(m, loaded);
    if (prepared.has(key) || key === "as-read" || (key === "classified" && !categorize)) continue;
    if (key === "classified") {
      const classified = classifyLog(await knowledge.classifier(), loaded, progress);
      prepared.set(key, classified.log);
      removed.set(key, classified.identifiers);
      notes.push(
        `input classified as querymask classify does for the methods that take a classified log: identifiers scrubbed from ${classified.counts.scrubbed} query events, ${classified.clicksDropped} click URLs dropped (identifier in host), ${classified.singleUserClicksDropped} (clicked by one user only)`,
      );
    } else {
      const { log, scrub } = await prepareLog(loaded, "scrubbed", {
        crossUser: key === "scrubbed",
        allow: knowledge.allow,
        progress,
      });
      prepared.set(key, log);
      if (scrub !== undefined) removed.set(key, scrub.spans);
    }
  }
  notes.push(...identifierNotes(using, loaded, removed));
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

/**
 * For the report, per method: which identifiers its input preparation removed, by kind — the same scrubber decision
 * for every text-releasing method, given the cross-user evidence only where the method allows it. A preparation
 * some differentially private method gets says no exact count (its summary may hold none).
 */
export function identifierNotes(
  using: readonly Pick<MethodDeclaration, "name" | "input" | "disclosure">[],
  loaded: QueryLog,
  removed: ReadonlyMap<string, Record<string, number>>,
): string[] {
  const byKey = new Map<string, Pick<MethodDeclaration, "name" | "input" | "disclosure">[]>();
  for (const m of using) {
    const key = preparationKey(m, loaded);
    byKey.set(key, [...(byKey.get(key) ?? []), m]);
  }
  const out: string[] = [];
  for (const [key, ms] of byKey) {
    const names = ms.map((m) => m.name).join(", ");
    if (key === "as-read") {
      const raw = ms.every((m) => m.input.text === "raw");
      out.push(
        `identifiers removed before ${names}: ${raw ? "none (released as typed, by design)" : "none here (the log was classified already)"}`,
      );
      continue;
    }
    const kinds = removed.get(key);
    if (kinds === undefined) continue;
    const how =
      key === "classified"
        ? "classified"
        : key === "scrubbed"
          ? "scrubbed with the log's cross-user evidence"
          : "scrubbed per record";
    if (ms.some((m) => m.disclosure !== "exact")) {
      out.push(
        `identifiers removed before ${names} (${how}): counts withheld (a differentially private summary holds no exact figure)`,
      );
      continue;
    }
    const list = Object.entries(kinds)
      .filter(([, n]) => n > 0)
      .map(([k, n]) => `${k} ${n.toLocaleString("en")}`);
    out.push(
      `identifiers removed before ${names} (${how}): ${list.length > 0 ? list.join(", ") : "none found"}`,
    );
  }
  return out;
}
