/**
 * How a file release reads its log, by plan (release.ts): the seam where another reader plugs in — one that holds
 * a bounded amount of memory, or reads a store instead of files — for every method at once. `load` gives the
 * batch path the whole log; `open` gives a pass over its records (the record stream, and each pass of the by-user
 * path, which reads the files again). The raw-row stream reads the bytes itself (src/log/rows.ts).
 */
import { loadLog, type OpenedLog, openLog, type ReadOptions } from "../log/read.ts";
import type { QueryLog } from "../log/record.ts";

export interface LogReading {
  /** The whole log in memory, with the count of lines set aside (lenient). */
  load(inputs: readonly string[], opts: ReadOptions): Promise<QueryLog & { readonly rejected: number }>;
  /** One pass over the log's records, its layout known before the first. */
  open(inputs: readonly string[], opts: ReadOptions): Promise<OpenedLog>;
}

/** The files as they are, read with src/log/read.ts. */
export const fileReading: LogReading = { load: loadLog, open: openLog };
