/**
 * The swap anonymizer on raw rows (src/log/rows.ts), for the CLI's stream of a classified AOL log: the same
 * {@link SwapCore} and the same grouping into events as {@link SwapStage} (./events.ts' rule: consecutive rows
 * with the same user, query and time), so the same log, parameters and seed give the same release byte for byte;
 * but no object is made per row. An event is a handle into {@link HeldEvents}: the byte range of its lines (a
 * view of the reader's block while that block is current, a copy of its own once the event outlives it), and a
 * released event's lines are written straight to the {@link RowWriter} with their new user and time spliced in.
 */

import type { LogRecord } from "../../log/record.ts";
import { lineRecord, type RowBlock, sameBytes, textOf } from "../../log/row-block.ts";
import type { RowWriter } from "../../log/row-write.ts";
import { grown } from "../../util/arrays.ts";
import type { Rng } from "../../util/random.ts";
import type { RowStage } from "../method.ts";
import { SwapCore } from "./core.ts";
import type { EventRows } from "./entry.ts";
import { EventGrouper } from "./events.ts";
import type { SwapParams } from "./meta.ts";
import { type SwapStageSnapshot, swapCounts } from "./stage.ts";

const NO_BYTES = Buffer.alloc(0);
const EMPTY: Int32Array = new Int32Array(0);

/**
 * The events the stage holds (waiting in a bucket, being assembled, or the last released one, whose query the
 * core may still compare), by handle. Event h is the lines `bytes[h][start[h], end[h])` joined by newlines, or —
 * when one of its rows is a record the codec read — the records `recs[h]`. Handles are reused.
 */
class HeldEvents implements EventRows<number> {
  bytes: Buffer[] = [];
  recs: (LogRecord[] | undefined)[] = [];
  // The columns start empty and are allocated by the first `make`: a field V8 has seen stored only once is
  // compiled as a constant, and reassigning it when the columns grow (mid-stream, once the hot functions are
  // optimized) would throw away the optimized code of every function that reads it.
  start = EMPTY;
  end = EMPTY;
  /** The query of the event's lines: `bytes[h](queryStart[h], queryEnd[h])`. */
  queryStart = EMPTY;
  queryEnd = EMPTY;
  rows = EMPTY;
  /** The event's user, time and category (of its first row). */
  user: string[] = [];
  time = new Float64Array(0);
  category: string[] = [];
  private readonly free: number[] = [];
  private size = 0;

  count(h: number): number {
    return this.rows[h]!;
  }

  query(h: number): string {
    const recs = this.recs[h];
    return recs !== undefined
      ? recs[0]!.query
      : textOf(this.bytes[h]!, this.queryStart[h]!, this.queryEnd[h]!);
  }

  copy(h: number): number {
    return h;
  }

  /** A new event of row i of `rows`. */
  open(rows: RowBlock, i: number): number {
    const h = this.free.pop() ?? this.make();
    const rec = rows.rec[i];
    if (rec !== undefined) {
      this.bytes[h] = NO_BYTES;
      this.recs[h] = [rec];
    } else {
      this.bytes[h] = rows.bytes;
      this.start[h] = rows.start[i]!;
      this.end[h] = rows.end[i]!;
      this.queryStart[h] = rows.tab1[i]! + 1;
      this.queryEnd[h] = rows.tab2[i]!;
    }
    this.rows[h] = 1;
    this.user[h] = rows.user[i]!;
    this.time[h] = rows.time[i]!;
    this.category[h] = rows.category[i] ?? "";
    return h;
  }

  /** A new event holding `records` (a snapshot's). */
  adopt(records: LogRecord[]): number {
    const h = this.free.pop() ?? this.make();
    const first = records[0]!;
    this.bytes[h] = NO_BYTES;
    this.recs[h] = [...records];
    this.rows[h] = records.length;
    this.user[h] = first.user;
    this.time[h] = first.time;
    this.category[h] = first.category ?? "";
    return h;
  }

  /** Event h's rows as records (for a snapshot): the lines parsed, or the records it holds. */
  records(h: number): LogRecord[] {
    const recs = this.recs[h];
    if (recs !== undefined) return [...recs];
    const out: LogRecord[] = [];
    const b = this.bytes[h]!;
    for (let s = this.start[h]!, end = this.end[h]!; s <= end; ) {
      let nl = b.indexOf(10, s);
      if (nl < 0 || nl > end) nl = end;
      out.push(lineRecord(b, s, nl, true));
      s = nl + 1;
    }
    return out;
  }

  private make(): number {
    const h = this.size++;
    if (h === this.start.length) {
      const more = (a: Int32Array) => grown(a, Math.max(256, a.length * 2));
      this.start = more(this.start);
      this.end = more(this.end);
      this.queryStart = more(this.queryStart);
      this.queryEnd = more(this.queryEnd);
      this.rows = more(this.rows);
      const time = new Float64Array(this.start.length);
      time.set(this.time);
      this.time = time;
    }
    this.bytes.push(NO_BYTES);
    this.recs.push(undefined);
    this.user.push("");
    this.category.push("");
    return h;
  }

  /** Whether row i of `rows` has event h's query. */
  sameQuery(h: number, rows: RowBlock, i: number): boolean {
    if (this.recs[h] !== undefined || rows.rec[i] !== undefined) return this.query(h) === rows.query(i);
    return sameBytes(
      this.bytes[h]!,
      this.queryStart[h]!,
      this.queryEnd[h]!,
      rows.bytes,
      rows.tab1[i]! + 1,
      rows.tab2[i]!,
    );
  }

  /** Add row i of `rows` to event h (a row of the same user, query and time). */
  extend(h: number, rows: RowBlock, i: number): void {
    this.rows[h]!++;
    const rec = rows.rec[i];
    let recs = this.recs[h];
    if (recs === undefined && rec !== undefined) {
      // A record joins lines: the event becomes records (the codec's reading of its lines).
      recs = [];
      const b = this.bytes[h]!;
      for (let s = this.start[h]!, end = this.end[h]!; s <= end; ) {
        let nl = b.indexOf(10, s);
        if (nl < 0 || nl > end) nl = end;
        recs.push(lineRecord(b, s, nl, rows.category[i] !== undefined));
        s = nl + 1;
      }
      this.recs[h] = recs;
      this.bytes[h] = NO_BYTES;
    }
    if (recs !== undefined) {
      recs.push(rows.record(i));
      return;
    }
    const s = rows.start[i]!;
    const e = rows.end[i]!;
    if (this.bytes[h] === rows.bytes && this.end[h] === s - 1) {
      this.end[h] = e; // the next line of the same block: the event's bytes grow over it
      return;
    }
    // Not the next line (another block, or a line between): the event's lines copied together.
    const old = this.bytes[h]!;
    const os = this.start[h]!;
    const oe = this.end[h]!;
    const own = Buffer.allocUnsafe(oe - os + 1 + e - s);
    old.copy(own, 0, os, oe);
    own[oe - os] = 10;
    rows.bytes.copy(own, oe - os + 1, s, e);
    this.bytes[h] = own;
    this.start[h] = 0;
    this.end[h] = own.length;
    this.queryStart[h] = this.queryStart[h]! - os;
    this.queryEnd[h] = this.queryEnd[h]! - os;
  }

  /** Give event h its own copy of its bytes if they are `block`'s (which the reader is about to reuse). */
  detach(h: number, block: Buffer): void {
    if (this.bytes[h] !== block) return;
    const s = this.start[h]!;
    const own = Buffer.allocUnsafe(this.end[h]! - s);
    block.copy(own, 0, s, this.end[h]!);
    this.bytes[h] = own;
    this.start[h] = 0;
    this.end[h] = own.length;
    this.queryStart[h] = this.queryStart[h]! - s;
    this.queryEnd[h] = this.queryEnd[h]! - s;
  }

  /** Write event h under `user` at `time`. */
  write(h: number, out: RowWriter, user: string, time: number): void {
    const recs = this.recs[h];
    if (recs !== undefined) for (const rec of recs) out.releaseRecord(rec, user, time);
    else {
      out.releaseLines(
        this.bytes[h]!,
        this.start[h]!,
        this.end[h]!,
        this.rows[h]!,
        this.queryStart[h]!,
        this.queryEnd[h]!,
        user,
        time,
      );
    }
  }

  suppressed(h: number): void {
    this.drop(h);
  }

  /** Event h is gone: its handle may be reused. */
  drop(h: number): void {
    this.bytes[h] = NO_BYTES;
    this.recs[h] = undefined;
    this.free.push(h);
  }
}

/**
 * The raw-row stage: the {@link RowStage} contract of ./stage.ts' record stage (same grouping, same core, same
 * release byte for byte, and a snapshot in the record stage's format, so either resumes the other's).
 */
export class SwapRowStage implements RowStage {
  readonly timeOrdered = true;
  private readonly core: SwapCore<number>;
  private readonly held = new HeldEvents();
  /** Events opened in the current block (their bytes may be a view of it). */
  private readonly opened: number[] = [];
  /** The last released event: kept until the next release (the core may compare its query). */
  private last = -1;
  private readonly events: EventGrouper<RowBlock, number>;

  constructor(params: SwapParams, rng: Rng, out: RowWriter, snapshot?: SwapStageSnapshot) {
    const held = this.held;
    const core = snapshot?.core;
    this.core = new SwapCore<number>(
      params,
      rng,
      (e, user, time) => {
        held.write(e.rows, out, user, time);
        if (this.last >= 0) held.drop(this.last);
        this.last = e.rows;
      },
      core && {
        ...core,
        buckets: core.buckets.map(([key, b]) => [
          key,
          { ...b, entries: b.entries.map((e) => ({ ...e, rows: held.adopt(e.rows) })) },
        ]),
      },
      held,
    );
    const opened = this.opened;
    this.events = new EventGrouper<RowBlock, number>(
      {
        open: (rows, i) => {
          const h = held.open(rows, i);
          opened.push(h);
          return h;
        },
        continues: (h, rows, i) =>
          rows.user[i] === held.user[h] && rows.time[i] === held.time[h] && held.sameQuery(h, rows, i),
        extend: (h, rows, i) => held.extend(h, rows, i),
        close: (h, tag) =>
          this.core.add({ user: held.user[h]!, time: held.time[h]!, tag, rows: h }, held.category[h]!),
      },
      snapshot && {
        nextTag: snapshot.nextTag,
        pending: snapshot.pending && { tag: snapshot.pending.tag, rows: held.adopt(snapshot.pending.rows) },
      },
    );
  }

  push(rows: RowBlock): void {
    this.events.push(rows, rows.n);
    // What is still held (in a bucket, being assembled, or the last released) must outlive the reader's buffer.
    for (const h of this.opened) this.held.detach(h, rows.bytes);
    this.opened.length = 0;
  }

  flush(): void {
    this.events.flush();
    this.core.flushAll();
  }

  /** The whole state, in the record stage's format (./stage.ts): either stage resumes from it. */
  snapshot(): SwapStageSnapshot {
    const held = this.held;
    const core = this.core.snapshot();
    return {
      core: {
        ...core,
        buckets: core.buckets.map(([key, b]) => [
          key,
          { ...b, entries: b.entries.map((e) => ({ ...e, rows: held.records(e.rows) })) },
        ]),
      },
      ...this.events.state((h) => held.records(h)),
    };
  }

  counts(): Record<string, number> {
    return swapCounts(this.core);
  }
}
