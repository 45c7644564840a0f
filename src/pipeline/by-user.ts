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
import { NotGroupedByUser } from "../log/user-blocks.ts";
import { createLogWriter, type LogWriter } from "../log/write.ts";
import {
  type Method,
  type MethodContext,
  type Release,
  type ReleaseSink,
  withParamRange,
} from "../methods/method.ts";
import { emptyCounts, scrubsInput } from "../scrub/scrub-log.ts";
import { scrubbedPasses } from "../stream/user-passes.ts";
import { fileReading } from "./read.ts";
import { type FileRelease, scrubCounts } from "./release.ts";

export interface ByUserRun {
  readonly release: Release;
  /** The method wrote its released log to `out` itself (it is in place). */
  readonly written: boolean;
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
  req: Pick<FileRelease<P>, "inputs" | "read" | "out" | "progress" | "say" | "heap" | "allow" | "reading">,
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
    const openLog = (req.reading ?? fileReading).open;
    const first = await openLog(inputs, { ...req.read, progress: undefined });
    if (!first.files.every((f) => statSync(f).isFile())) {
      await first.rejects.abort();
      return undefined;
    }
    const scrubs = scrubsInput(method.input.text, first);
    const scrubbed = emptyCounts();
    let released: Release;
    // The release file, opened at the method's first write (during its last pass).
    let writer: LogWriter | undefined;
    const sink: ReleaseSink = {
      write(records) {
        writer ??= createLogWriter(req.out, first.format, { classified: first.classified });
        const w = writer;
        let behind: Promise<void> | undefined;
        for (const r of records) behind = w.write(r) ?? behind;
        return behind;
      },
    };
    try {
      const log = await scrubbedPasses(
        first,
        inputs,
        scrubs
          ? {
              allow: req.allow ?? ctx.knowledge?.allow,
              counts: scrubbed,
              singleUserClicks: method.input.crossUser,
            }
          : undefined,
        progress,
        undefined,
        openLog,
      );
      released = await withParamRange(method.name, () => release(log, params, ctx, sink));
      if (released.log === undefined && released.table === undefined) {
        // The method wrote its log (an empty release still gets its header).
        writer ??= createLogWriter(req.out, first.format, { classified: first.classified });
        await writer.close();
      } else if (writer !== undefined) {
        throw new Error(`method ${method.name} wrote records and returned a release too`);
      }
    } catch (e) {
      await writer?.abort();
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
      written: writer !== undefined,
      scrub: scrubs ? scrubCounts(scrubbed) : {},
      rejected: first.rejects.count,
    };
  }
}
