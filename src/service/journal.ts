/**
 * What makes `serve --state` crash-safe: a checkpoint and a write-ahead journal.
 *
 * - The **journal** (`<state>.journal`) gets every accepted batch — its input position, its idempotency key and its
 *   records as classified — appended and fsynced *before* the batch is applied and answered. A batch answered 200
 *   is therefore on disk, whatever happens next.
 * - The **checkpoint** (the state file, written with the durable atomic writer) holds the stages' sealed state at
 *   an input position, the released file's length at that position, the recent idempotency keys, and the stream's
 *   id. After it is written the journal starts again empty.
 *
 * On start, the runtime restores the checkpoint, cuts the released file back to the length it records (dropping
 * what was released after it, and a torn last line), and replays the journal's later batches through the stages:
 * a replay from a snapshot releases the same records (the stage contract, src/stream/stage.ts), so the released
 * file ends as if the process had never stopped — nothing answered is lost and nothing is released twice. The
 * profile database records, in the transaction that applies them, the input position its profiles cover
 * (src/profile/sqlite-store.ts), so the replay skips what it already holds.
 *
 * A journal line cut short by the crash is a batch that was never answered: it is dropped.
 */
import { randomUUID } from "node:crypto";
import { open, readFile, truncate } from "node:fs/promises";
import { writeFileAtomicSync } from "../log/atomic.ts";
import type { LogRecord } from "../log/record.ts";
import { UsageError } from "../util/errors.ts";

/** The answer to one batch, kept under its idempotency key. */
export interface BatchResult {
  readonly accepted: number;
  readonly released: number;
}

/** The state file: a checkpoint. */
export interface Checkpoint {
  /** The stream's id: names this stream's position in a profile database shared with other runs. */
  readonly stream: string;
  /** The stages' sealed snapshot (src/stream/stage.ts), which holds the input position. */
  readonly stages: string;
  /** The released file's length in bytes at this checkpoint (undefined: not known, an older state file). */
  readonly releasedBytes?: number;
  /** The most recent idempotency keys, oldest first, with their answers. */
  readonly keys: readonly (readonly [string, BatchResult])[];
}

/** One accepted batch. */
export interface JournalEntry {
  readonly position: number;
  readonly key?: string;
  readonly records: readonly LogRecord[];
}

const FORMAT = "querymask-serve-state";
const VERSION = 1;
/** A stage snapshot's first bytes: a state file written before checkpoints held more. */
const STAGE_SNAPSHOT = '{"format":"querymask-stage-snapshot"';

/** The journal of the state file `statePath`. */
export const journalPath = (statePath: string): string => `${statePath}.journal`;

function parseCheckpoint(text: string, path: string): Checkpoint {
  if (text.startsWith(STAGE_SNAPSHOT)) return { stream: randomUUID(), stages: text, keys: [] };
  let o: unknown;
  try {
    o = JSON.parse(text);
  } catch {
    throw new UsageError(
      `${path}: not a serve state file (not JSON); give --state a new path to start afresh`,
    );
  }
  const c = o as Partial<Checkpoint & { format: string; version: number }>;
  if (c === null || typeof c !== "object" || c.format !== FORMAT)
    throw new UsageError(`${path}: not a serve state file; give --state a new path to start afresh`);
  if (c.version !== VERSION)
    throw new UsageError(
      `${path}: serve state version ${String(c.version)}, this querymask reads ${VERSION}`,
    );
  if (
    typeof c.stream !== "string" ||
    typeof c.stages !== "string" ||
    !Array.isArray(c.keys) ||
    (c.releasedBytes !== undefined && !(Number.isSafeInteger(c.releasedBytes) && c.releasedBytes >= 0))
  )
    throw new UsageError(`${path}: a damaged serve state file; not restored`);
  return {
    stream: c.stream,
    stages: c.stages,
    keys: c.keys,
    ...(c.releasedBytes === undefined ? {} : { releasedBytes: c.releasedBytes }),
  };
}

function entryOf(line: string): JournalEntry | undefined {
  try {
    const o = JSON.parse(line) as { p?: unknown; k?: unknown; r?: unknown };
    if (!Number.isSafeInteger(o.p) || !Array.isArray(o.r)) return undefined;
    if (o.k !== undefined && typeof o.k !== "string") return undefined;
    return {
      position: o.p as number,
      records: o.r as LogRecord[],
      ...(o.k === undefined ? {} : { key: o.k }),
    };
  } catch {
    return undefined;
  }
}

/** The checkpoint and journal of a state file, opened for appending. */
export class Journal {
  private constructor(
    readonly statePath: string,
    private fh: Awaited<ReturnType<typeof open>>,
    /** Bytes in the journal file. */
    private bytes: number,
  ) {}

  /**
   * Open `statePath`'s checkpoint (undefined: none yet) and journal (the entries after the checkpoint, in order; a
   * torn last line is cut off the file).
   */
  static async open(
    statePath: string,
  ): Promise<{ journal: Journal; checkpoint: Checkpoint | undefined; entries: JournalEntry[] }> {
    let checkpoint: Checkpoint | undefined;
    try {
      checkpoint = parseCheckpoint(await readFile(statePath, "utf8"), statePath);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    }
    const path = journalPath(statePath);
    let text = "";
    try {
      text = await readFile(path, "utf8");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    }
    if (checkpoint === undefined && text !== "")
      throw new UsageError(`${path}: a journal without its state file ${statePath}; not replayed`);
    const entries: JournalEntry[] = [];
    let good = 0;
    for (let at = 0; at < text.length; ) {
      const nl = text.indexOf("\n", at);
      const entry = nl < 0 ? undefined : entryOf(text.slice(at, nl));
      if (entry === undefined) {
        // Only the last line can be cut short by a crash: anything else is damage.
        if (nl >= 0 && nl < text.length - 1)
          throw new UsageError(
            `${path}: damaged at byte ${Buffer.byteLength(text.slice(0, at))}; not replayed`,
          );
        break;
      }
      entries.push(entry);
      at = nl + 1;
      good = at;
    }
    const goodBytes = Buffer.byteLength(text.slice(0, good));
    if (goodBytes < Buffer.byteLength(text)) await truncate(path, goodBytes);
    const fh = await open(path, "a");
    return { journal: new Journal(statePath, fh, goodBytes), checkpoint, entries };
  }

  /** Bytes of batches appended since the last checkpoint. */
  get size(): number {
    return this.bytes;
  }

  /** Append one batch and sync it to disk: when this resolves, the batch survives a crash. */
  async append(entry: JournalEntry): Promise<void> {
    const records = entry.records.map(({ source: _source, ...r }) => r);
    const line = `${JSON.stringify({ p: entry.position, ...(entry.key === undefined ? {} : { k: entry.key }), r: records })}\n`;
    const buf = Buffer.from(line);
    for (let at = 0; at < buf.length; ) at += (await this.fh.write(buf, at, buf.length - at)).bytesWritten;
    await this.fh.datasync();
    this.bytes += buf.length;
  }

  /** Write the checkpoint durably, then start the journal again empty. */
  async checkpoint(c: Checkpoint): Promise<void> {
    writeFileAtomicSync(this.statePath, JSON.stringify({ format: FORMAT, version: VERSION, ...c }));
    // A crash between the two leaves journal entries at or before the checkpoint's position: skipped on replay.
    await this.fh.truncate(0);
    await this.fh.datasync();
    this.bytes = 0;
  }

  async close(): Promise<void> {
    await this.fh.close();
  }
}
