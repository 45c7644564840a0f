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
import type { LogFormat } from "../log/record.ts";
import { NotGroupedByUser } from "../log/user-blocks.ts";
import { createLogWriter, type LogWriter } from "../log/write.ts";
import {
  type Method,
  type MethodContext,
  type Release,
  type ReleaseSink,
  type UserPasses,
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

/** How a by-user run differs on a log this run sorted by user (./spill.ts). */
export interface ByUserHow<P> {
  /** The passes read a sorted copy (read once, so the input need not be a regular file; it is grouped). */
  readonly sorted?: boolean;
  /** The release from the passes (default: the method's `anonymizeByUser`). */
  readonly release?: (log: UserPasses, params: P, ctx: MethodContext, out: ReleaseSink) => Promise<Release>;
  /** The writer of the released log (default: the log writer; a sorted copy's puts the log order back). */
  readonly writer?: (path: string, format: LogFormat, opts: { classified: boolean }) => LogWriter;
}

/**
 * The method's release read by user; undefined when this input needs the batch path, "not grouped" when the log
 * turned out not to be grouped by user (a line says where; ./spill.ts sorts it). Either way nothing was written.
 */
export async function releaseByUser<P>(
  method: Method<P>,
  params: P,
  ctx: MethodContext,
  req: Pick<FileRelease<P>, "inputs" | "read" | "out" | "progress" | "say" | "heap" | "allow" | "reading">,
  how: ByUserHow<P> = {},
): Promise<ByUserRun | "not grouped" | undefined> {
  // The state grows with the log's distinct queries, not its rows.
  req.heap?.byUser(true);
  const run = await attempt();
  if (run === undefined) req.heap?.byUser(false);
  return run;

  async function attempt(): Promise<ByUserRun | "not grouped" | undefined> {
    const release = how.release ?? method.anonymizeByUser?.bind(method);
    const { inputs, progress } = req;
    if (release === undefined) return undefined;
    // The reader's progress counts rows; the method's phases count users' rows themselves.
    const openLog = (req.reading ?? fileReading).open;
    const first = await openLog(inputs, { ...req.read, progress: undefined });
    if (!how.sorted && !first.files.every((f) => statSync(f).isFile())) {
      await first.rejects.abort();
      return undefined;
    }
    const scrubs = scrubsInput(method.input.text, first);
    const scrubbed = emptyCounts();
    let released: Release;
    // The release file, opened at the method's first write (during its last pass).
    let writer: LogWriter | undefined;
    const open = () =>
      (how.writer ?? createLogWriter)(req.out, first.format, { classified: first.classified });
    const sink: ReleaseSink = {
      write(records) {
        writer ??= open();
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
        writer ??= open();
        await writer.close();
      } else if (writer !== undefined) {
        throw new Error(`method ${method.name} wrote records and returned a release too`);
      }
    } catch (e) {
      await writer?.abort();
      if (!(e instanceof NotGroupedByUser) || how.sorted) throw e;
      await first.rejects.abort();
      // Where the grouping broke is a position in the data: said only by a method whose summary may be exact.
      const where = method.disclosure === "exact" ? `${e.where}: ` : "";
      const next = method.input.sortable === false ? "loading it whole" : "sorting it by user on disk";
      req.say?.(`${where}the log is not grouped by user; ${next}`);
      return "not grouped";
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
