/**
 * A log read one user at a time, as many times as a method asks (the shape of `Method.anonymizeByUser`'s
 * `UserPasses`), scrubbed on the way exactly as the batch path scrubs the loaded log: the clicks only one user made
 * are counted in a first, lighter pass, then the first pass scrubs its records and traces what it did, which the
 * later passes replay (./scrub-trace.ts). The CLI's by-user path and the cluster's
 * batch workers and coordinator read logs through it.
 */
import { type OpenedLog, openLog, type ReadOptions } from "../log/read.ts";
import type { LogFormat, LogRecord } from "../log/record.ts";
import { userBlocks } from "../log/user-blocks.ts";
import type { AllowList } from "../scrub/allow-list.ts";
import { ClickUsers } from "../scrub/click-url.ts";
import type { NameEvidence } from "../scrub/recognizer.ts";
import { emptyCounts, type ScrubCounts } from "../scrub/scrub-log.ts";
import { ScrubTrace, tracedScrub } from "../scrub/scrub-trace.ts";
import { createScrubber } from "../scrub/scrubber.ts";
import type { Progress } from "../util/progress.ts";

/** Cross-user evidence for the scrubber: the clicks only one user made, and each name's users. */
export interface CrossUserEvidence {
  readonly clicks: ClickUsers;
  readonly names: NameEvidence;
}

/** Passes over a log by user (structurally `UserPasses` of src/methods/method.ts). */
export interface LogPasses {
  readonly format: LogFormat;
  readonly classified: boolean;
  pass(): AsyncIterable<LogRecord[]>;
}

/**
 * Passes over `first` (opened on `inputs`): the first pass reads `first` itself (its bad lines are reported, or set
 * aside, there), later ones open the inputs again, leniently. With `scrub`, every pass scrubs its records and the
 * first one's counts go to `counts`; the click count pass reads by user too, so a log not grouped by user is found
 * (NotGroupedByUser) before a whole pass is spent on it. `keep`: the passes hold only the records of these users
 * (the click counts are the whole log's).
 */
export async function scrubbedPasses(
  first: OpenedLog,
  inputs: readonly string[],
  scrub:
    | {
        readonly allow?: AllowList;
        readonly counts: ScrubCounts;
        /** Drop the clicks only one user made (a cross-user rule: only for methods that allow such evidence). */
        readonly singleUserClicks?: boolean;
        /** The whole log's cross-user evidence, counted before (a cluster's coordinator): no counting pass then. */
        readonly evidence?: CrossUserEvidence;
      }
    | undefined,
  progress?: Progress,
  keep?: (user: string) => boolean,
  open: (inputs: readonly string[], opts: ReadOptions) => Promise<OpenedLog> = openLog,
): Promise<LogPasses> {
  const again = { format: first.format, lenient: true };
  let clicks: ClickUsers | undefined = scrub?.evidence?.clicks;
  if (scrub && scrub.singleUserClicks !== false && clicks === undefined) {
    progress?.start(
      "counting each clicked URL's and each name's users (cross-user evidence for the scrubber)",
    );
    try {
      clicks = (
        await ClickUsers.of(userBlocks((await open(inputs, { ...again, progress })).batches()))
      ).settle();
    } finally {
      progress?.stop();
    }
  }
  const scrubber = scrub
    ? createScrubber({ allow: scrub.allow, nameUsers: scrub.evidence?.names ?? clicks?.names })
    : undefined;
  // The first pass's decisions, replayed by the later ones: the scrubber runs again only on changed queries.
  const trace = new ScrubTrace();
  let passes = 0;
  return {
    format: first.format,
    classified: first.classified,
    pass(): AsyncIterable<LogRecord[]> {
      const n = passes++;
      return (async function* () {
        const opened = n === 0 ? first : await open(inputs, again);
        const read = keep === undefined ? opened.batches() : only(opened.batches(), keep);
        const batches =
          scrubber === undefined
            ? read
            : tracedScrub(
                read,
                scrubber,
                n === 0 ? scrub!.counts : emptyCounts(),
                { clicks },
                trace,
                n === 0,
              );
        yield* userBlocks(batches);
        // A whole trace answers for every record's click: the counts are no longer needed.
        if (trace.complete) clicks = undefined;
      })();
    },
  };
}

/** The records of the users `keep` takes (before scrubbing: a shard scrubs only its own users' records). */
async function* only(
  batches: AsyncIterable<readonly LogRecord[]>,
  keep: (user: string) => boolean,
): AsyncGenerator<LogRecord[]> {
  for await (const batch of batches) {
    const mine = batch.filter((r) => keep(r.user));
    if (mine.length > 0) yield mine;
  }
}
