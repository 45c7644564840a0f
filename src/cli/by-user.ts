/**
 * `querymask anonymize` for a method that reads the log one user at a time ({@link Method.anonymizeByUser}: dp's
 * set selections). The files are read again for each pass the method asks for, scrubbed on the way exactly as the
 * batch path scrubs the loaded log (the single-user clicks counted in a first, lighter pass), so memory follows
 * one user and the method's own tables instead of the log. A log whose users' rows are not contiguous, or an
 * input that is not a regular file (it cannot be read twice), goes to the batch path instead.
 */
import { statSync } from "node:fs";
import { openLog, type ReadOptions } from "../log/read.ts";
import type { LogRecord } from "../log/record.ts";
import { NotGroupedByUser, userBlocks } from "../log/user-blocks.ts";
import { type Method, type MethodContext, type Release, withParamRange } from "../methods/method.ts";
import { ClickUsers } from "../scrub/click-url.ts";
import { emptyCounts, type ScrubCounts, scrubRecords, scrubsInput } from "../scrub/scrub-log.ts";
import { createScrubber } from "../scrub/scrubber.ts";
import type { Progress } from "../util/progress.ts";
import { slowOldGenerationGrowth } from "./heap.ts";

export interface ByUserRun {
  readonly release: Release;
  /** What scrubbing did (first pass), when the input was scrubbed. */
  readonly scrub: ScrubCounts | undefined;
  readonly rejected: number;
}

/**
 * The method's release read by user, or undefined when this input needs the batch path (then nothing was
 * written, and a note on stderr says why when the log turned out not to be grouped by user).
 */
export async function releaseByUser<P>(
  method: Method<P>,
  params: P,
  ctx: MethodContext,
  inputs: readonly string[],
  opts: ReadOptions & { progress: Progress },
  quiet: boolean,
): Promise<ByUserRun | undefined> {
  // The state grows with the log's distinct queries, not its rows; V8 would let the old generation grow up to 4×
  // past it between mark-compacts (100k generated users: peak RSS 624 → 500 MiB at 50%, CPU within the noise).
  slowOldGenerationGrowth(50);
  const run = await attempt();
  // The batch path holds the whole log: V8's own sizing (0) again, or it would mark-compact it far more often.
  if (run === undefined) slowOldGenerationGrowth(0);
  return run;

  async function attempt(): Promise<ByUserRun | undefined> {
    const release = method.anonymizeByUser?.bind(method);
    const progress = opts.progress;
    if (release === undefined) return undefined;
    // The reader's progress counts rows; the method's phases count users' rows themselves.
    const first = await openLog(inputs, { ...opts, progress: undefined });
    if (!first.files.every((f) => statSync(f).isFile())) {
      await first.rejects.abort();
      return undefined;
    }
    // Later passes read what the first one read: bad lines were reported (or, lenient, set aside) by it.
    const again = { format: first.format, lenient: true };
    const scrubs = scrubsInput(method.name, first);
    const scrubbed = emptyCounts();
    let released: Release;
    try {
      let clicks: ClickUsers | undefined;
      if (scrubs) {
        // Through userBlocks too: a log not grouped by user is found here, before a whole pass is spent on it.
        progress.start("counting each clicked URL's users (the scrubber drops clicks only one user made)");
        try {
          clicks = await ClickUsers.of(userBlocks((await openLog(inputs, { ...again, progress })).batches()));
        } finally {
          progress.stop();
        }
      }
      const allow = ctx.knowledge?.allow;
      const scrubber = scrubs ? createScrubber({ allow }) : undefined;
      let passes = 0;
      const log = {
        pass(): AsyncIterable<LogRecord[]> {
          const n = passes++;
          return (async function* () {
            const opened = n === 0 ? first : await openLog(inputs, again);
            const batches =
              scrubber === undefined
                ? opened.batches()
                : scrubRecords(opened.batches(), scrubber, n === 0 ? scrubbed : emptyCounts(), { clicks });
            yield* userBlocks(batches);
          })();
        },
      };
      released = await withParamRange(method.name, () => release(log, params, ctx));
    } catch (e) {
      if (!(e instanceof NotGroupedByUser)) throw e;
      await first.rejects.abort();
      if (!quiet) {
        process.stderr.write(
          `querymask: ${e.where}: the log is not grouped by user, so it cannot be read one user at a time; loading it whole\n`,
        );
      }
      return undefined;
    }
    await first.rejects.close();
    return { release: released, scrub: scrubs ? scrubbed : undefined, rejected: first.rejects.count };
  }
}
