/**
 * Meaning and identifiers for library callers: {@link classify} (paper 000's Algorithm 1 and the learned layer:
 * category, unit, identifiers scrubbed) and {@link scrub} (identifiers dropped or tagged), on logs held in memory
 * or streamed, as `querymask classify` and `querymask scrub` do them.
 */
import { ClassifyTally, classifyBatches, classifyLog } from "../classify/classify-log.ts";
import { type ContextSignal, LOG_CONTEXT } from "../classify/log-context.ts";
import type { KnowledgeService } from "../classify/service.ts";
import type { LogRecord, QueryLog } from "../log/record.ts";
import { ClickUsers } from "../scrub/click-url.ts";
import { emptyCounts, type ScrubCounts, scrubRecords } from "../scrub/scrub-log.ts";
import { createScrubber, type ScrubberOptions } from "../scrub/scrubber.ts";
import { knowledgeOr } from "./knowledge.ts";
import { type ProgressCallback, progressOf } from "./progress.ts";

export interface ClassifyOptions {
  /** The knowledge base and classifier (default: the CLI's, built on first use — seconds to a minute, once). */
  readonly knowledge?: KnowledgeService;
  readonly onProgress?: ProgressCallback;
  /**
   * `querymask classify --context`: each query's branch also read off its log — the sites its searchers clicked
   * (`clicks`), the same users' queries around it (`users`, within `contextMinutes`, default 120), in
   * `contextRounds` passes (`--context-rounds`).
   */
  readonly context?: readonly ContextSignal[];
  readonly contextMinutes?: number;
  readonly contextRounds?: number;
}

export interface Classified {
  /** The log with `category` and `unit` on every record, identifiers scrubbed from its queries. */
  readonly log: QueryLog;
  /** Query events per top-level category, plus `events`, `unclassified` and `scrubbed`. */
  readonly counts: Readonly<Record<string, number>>;
  /** Click URLs dropped because their host carries an identifier removed from the query. */
  readonly clicksDropped: number;
  /** Click URLs dropped because only one user clicked them. */
  readonly singleUserClicksDropped: number;
  /** With `context`: the distinct queries and query events it moved to another branch. */
  readonly context?: { readonly queriesChanged: number; readonly eventsChanged: number };
}

/** Classify a log held in memory, as `querymask classify` does. */
export async function classify(log: QueryLog, opts: ClassifyOptions = {}): Promise<Classified> {
  const classifier = await knowledgeOr(opts.knowledge).classifier();
  const context =
    opts.context === undefined
      ? undefined
      : {
          ...LOG_CONTEXT,
          signals: opts.context,
          minutes: opts.contextMinutes ?? LOG_CONTEXT.minutes,
          rounds: opts.contextRounds ?? LOG_CONTEXT.rounds,
        };
  return classifyLog(classifier, log, progressOf(opts.onProgress), context);
}

/**
 * Classify a stream of batches (memory flat in the log size). `counts()` gives the running counts. With
 * `clickUsers` (the whole log's clicks, from {@link countClickUsers}) a click only one user made is dropped, as
 * `querymask classify` does; a live feed cannot know them.
 */
export async function classifyStream(
  batches: AsyncIterable<readonly LogRecord[]>,
  opts: { readonly knowledge?: KnowledgeService; readonly clickUsers?: ClickUsers } = {},
): Promise<{ batches: AsyncGenerator<LogRecord[]>; counts(): Readonly<Record<string, number>> }> {
  const classifier = (await knowledgeOr(opts.knowledge).classifier()).withNameUsers(opts.clickUsers?.names);
  const tally = new ClassifyTally();
  return {
    batches: classifyBatches(classifier, batches, tally, opts.clickUsers),
    counts: () => tally.counts,
  };
}

/**
 * How many users clicked each URL of a log and typed each name (one pass), for {@link classifyStream} and
 * {@link scrubStream}: the cross-user evidence of a batch path.
 */
export function countClickUsers(batches: AsyncIterable<readonly LogRecord[]>): Promise<ClickUsers> {
  return ClickUsers.of(batches);
}

export interface ScrubOptions extends ScrubberOptions {
  /** Keep records whose query is empty after scrubbing (default: remove them). */
  readonly keepEmpty?: boolean;
  /** Keep clicks only one user made (default: drop them, as `querymask scrub` does). */
  readonly keepSingleUserClicks?: boolean;
}

export type { ScrubCounts };

/** Scrub the identifiers out of a log held in memory, as `querymask scrub` does. */
export async function scrub(
  log: QueryLog,
  opts: ScrubOptions = {},
): Promise<{ log: QueryLog; counts: ScrubCounts }> {
  const counts = emptyCounts();
  const clicks = opts.keepSingleUserClicks ? undefined : new ClickUsers().add(log.records);
  const records: LogRecord[] = [];
  const one = (async function* () {
    yield log.records;
  })();
  for await (const batch of scrubStream(one, counts, {
    ...opts,
    ...(clicks ? { clickUsers: clicks } : {}),
  })) {
    for (const r of batch) records.push(r);
  }
  return { log: { ...log, records }, counts };
}

/** Scrub a stream of batches, counting into `counts` (from `emptyScrubCounts()`). */
export function scrubStream(
  batches: AsyncIterable<readonly LogRecord[]>,
  counts: ScrubCounts,
  opts: ScrubOptions & { readonly clickUsers?: ClickUsers } = {},
): AsyncGenerator<LogRecord[]> {
  const scrubber = createScrubber({
    ...(opts.mode ? { mode: opts.mode } : {}),
    ...(opts.tags ? { tags: opts.tags } : {}),
    ...(opts.types ? { types: opts.types } : {}),
    ...(opts.allow ? { allow: opts.allow } : {}),
    // the whole log's counts carry its name evidence too (how many users typed each name)
    nameUsers: opts.nameUsers ?? opts.clickUsers?.names,
  });
  return scrubRecords(batches, scrubber, counts, {
    ...(opts.keepEmpty ? { keepEmpty: true } : {}),
    ...(opts.clickUsers ? { clicks: opts.clickUsers } : {}),
  });
}

export { emptyCounts as emptyScrubCounts };
