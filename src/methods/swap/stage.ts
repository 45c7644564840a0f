/**
 * The swap anonymizer as a streaming pipeline {@link Stage}: batches of records in, released records out, the
 * whole state (buckets, each bucket's k, PRNG, the event being assembled, counters) in a JSON snapshot. The
 * embedded runner and a JetStream worker drive this same code; restoring a snapshot and continuing gives the same
 * output as an uninterrupted run.
 *
 * Rows are grouped into query events on the fly (consecutive rows with the same user, query and time: AOL click
 * rows of one search; ./events.ts). An event enters its bucket when the next different row arrives (or at flush), so the
 * grouping does not depend on how the stream is cut into batches.
 */

import type { Categorize } from "../../classify/categorize.ts";
import type { LogRecord } from "../../log/record.ts";
import type { Stage } from "../../stream/stage.ts";
import { UsageError } from "../../util/errors.ts";
import type { Rng } from "../../util/random.ts";
import { SwapCore } from "./core.ts";
import type { CoreSnapshot, Emit, Entry } from "./entry.ts";
import { EventGrouper, type GrouperState, recordSink } from "./events.ts";
import type { SwapParams } from "./meta.ts";

/** The stage's whole state; the raw-row stage (./rows.ts) writes and reads the same. */
export interface SwapStageSnapshot extends GrouperState<LogRecord[]> {
  readonly core: CoreSnapshot;
}

/** Copy of a row as released: new user and time; the input position is dropped (it would re-link). */
export function releasedRow(row: LogRecord, user: string, time: number): LogRecord {
  const out: LogRecord = { user, query: row.query, time };
  if (row.itemRank !== undefined) out.itemRank = row.itemRank;
  if (row.clickUrl !== undefined) out.clickUrl = row.clickUrl;
  if (row.category !== undefined) out.category = row.category;
  if (row.unit !== undefined) out.unit = row.unit;
  return out;
}

export class SwapStage implements Stage<SwapStageSnapshot> {
  private readonly core: SwapCore;
  private out: LogRecord[] = [];
  private readonly events: EventGrouper<readonly LogRecord[], LogRecord[]>;

  constructor(
    params: SwapParams,
    rng: Rng,
    /** For records without a category (unclassified input); absent = such records are an error. */
    private readonly categorize?: Categorize,
    snapshot?: SwapStageSnapshot,
    /** Told each released event (the batch release keeps its origins). */
    private readonly released?: Emit,
  ) {
    this.core = new SwapCore(params, rng, (e, u, t) => this.emit(e, u, t), snapshot?.core);
    this.events = new EventGrouper(
      recordSink((rows, tag) => this.add(rows, tag)),
      snapshot && {
        ...snapshot,
        pending: snapshot.pending && { ...snapshot.pending, rows: [...snapshot.pending.rows] },
      },
    );
  }

  private emit(e: Entry, user: string, time: number): void {
    for (const row of e.rows) this.out.push(releasedRow(row, user, time));
    this.released?.(e, user, time);
  }

  push(batch: readonly LogRecord[]): LogRecord[] {
    this.events.push(batch, batch.length);
    return this.take();
  }

  flush(): LogRecord[] {
    this.events.flush();
    this.core.flushAll();
    return this.take();
  }

  private add(input: LogRecord[], tag: number): void {
    const rows = input[0]!.category === undefined ? this.classify(input) : input;
    const first = rows[0]!;
    this.core.add({ user: first.user, time: first.time, tag, rows }, first.category ?? "");
  }

  /** Classify copies of the rows of an event (the input records stay untouched). */
  private classify(rows: LogRecord[]): LogRecord[] {
    const categorize = this.categorize;
    if (categorize === undefined) {
      throw new UsageError(
        "swap: a record has no category; give a classified log, or use --batch to classify on the way",
      );
    }
    return rows.map((r) => {
      const copy = { ...r };
      categorize(copy);
      return copy;
    });
  }

  private take(): LogRecord[] {
    const out = this.out;
    this.out = [];
    return out;
  }

  snapshot(): SwapStageSnapshot {
    return { core: this.core.snapshot(), ...this.events.state((rows) => [...rows]) };
  }

  /** Each bucket's key and final k. */
  bucketKs(): [string, number][] {
    return this.core.bucketKs();
  }

  counts(): Record<string, number> {
    return swapCounts(this.core);
  }
}

/** The summary counts of a run: every input row is released, suppressed, or still held. */
export function swapCounts<R>(core: SwapCore<R>): Record<string, number> {
  const ks = core.kValues();
  const c = core.c;
  return {
    "input rows": c.inRows,
    "input events": c.inEvents,
    "released rows": c.outRows,
    "released events": c.outEvents,
    "suppressed rows": c.suppressedRows,
    "suppressed events": c.suppressedEvents,
    "held events": core.heldEvents(),
    "forced by max delay": c.forcedEvents,
    "released a second later (would read back merged)": c.shiftedEvents,
    "k growths": c.kGrowths,
    "handed up": c.handedUp,
    buckets: ks.length,
    "final k mean": ks.length === 0 ? 0 : ks.reduce((a, b) => a + b, 0) / ks.length,
    "final k max": ks.length === 0 ? 0 : Math.max(...ks),
    "max held events": c.maxHeld,
  };
}
