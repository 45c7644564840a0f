/**
 * A file release by a method that reads each user's records together ({@link Method.anonymizeByUser}: dp's set
 * selections). The files are read again for each pass the method asks for, prepared on the way as the batch path
 * prepares the loaded log (per record only, unless the method allows cross-user evidence: then the single-user
 * clicks are counted in a first, lighter pass), so memory follows one user and the method's own tables instead of
 * the log. Every pass goes through `userBlocks`, which verifies the grouping: a user whose rows are not contiguous
 * stops the pass, so no caller can make a user count twice. Such a log, or an input that is not a regular file
 * (it cannot be read twice), goes to the batch path instead.
 */
import { statSync } from "node:fs";
import { openLog } from "../log/read.ts";
import type { LogRecord } from "../log/record.ts";
import { NotGroupedByUser, userBlocks } from "../log/user-blocks.ts";
import { type Method, type MethodContext, type Release, withParamRange } from "../methods/method.ts";
import { ClickUsers } from "../scrub/click-url.ts";
import { emptyCounts, scrubRecords, scrubsInput } from "../scrub/scrub-log.ts";
import { createScrubber } from "../scrub/scrubber.ts";
import { type FileRelease, scrubCounts } from "./release.ts";

export interface ByUserRun {
  readonly release: Release;
  /** What scrubbing did (first pass), as summary counts; empty when the input was not scrubbed. */
  readonly scrub: Record<string, number>;
  readonly rejected: number;
}

/**
 * The method's release read by user, or undefined when this input needs the batch path (then nothing was
 * written, and a line says why when the log turned out not to be grouped by user).
 */
export async function releaseByUser<P>(
  method: Method<P>,
  params: P,
  ctx: MethodContext,
  req: Pick<FileRelease<P>, "inputs" | "read" | "progress" | "say" | "heap" | "allow">,
): Promise<ByUserRun | undefined> {
  // The state grows with the log's distinct queries, not its rows.
  req.heap?.byUser(true);
  const run = await attempt();
  if (run === undefined) req.heap?.byUser(false);
  return run;

  async function attempt(): Promise<ByUserRun | undefined> {
    const release = method.anonymizeByUser?.bind(method);
    const { inputs, progress } = req;
    if (release === undefined) return undefined;
    // The reader's progress counts rows; the method's phases count users' rows themselves.
    const first = await openLog(inputs, { ...req.read, progress: undefined });
    if (!first.files.every((f) => statSync(f).isFile())) {
      await first.rejects.abort();
      return undefined;
    }
    // Later passes read what the first one read: bad lines were reported (or, lenient, set aside) by it.
    const again = { format: first.format, lenient: true };
    const scrubs = scrubsInput(method.input.text, first);
    const scrubbed = emptyCounts();
    let released: Release;
    try {
      let clicks: ClickUsers | undefined;
      if (scrubs && method.input.crossUser) {
        // Through userBlocks too: a log not grouped by user is found here, before a whole pass is spent on it.
        progress.start(
          "counting each clicked URL's and each name's users (cross-user evidence for the scrubber)",
        );
        try {
          clicks = await ClickUsers.of(userBlocks((await openLog(inputs, { ...again, progress })).batches()));
        } finally {
          progress.stop();
        }
      }
      const scrubber = scrubs
        ? createScrubber({ allow: req.allow ?? ctx.knowledge?.allow, nameUsers: clicks?.names })
        : undefined;
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
      // Where the grouping broke is a position in the data: said only by a method whose summary may be exact.
      const where = method.disclosure === "exact" ? `${e.where}: ` : "";
      req.say?.(
        `${where}the log is not grouped by user, so it cannot be read one user at a time; loading it whole`,
      );
      return undefined;
    }
    await first.rejects.close();
    return {
      release: released,
      scrub: scrubs ? scrubCounts(scrubbed) : {},
      rejected: first.rejects.count,
    };
  }
}
