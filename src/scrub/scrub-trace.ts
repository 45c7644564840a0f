/**
 * What the scrubber decided about each record of a log read several times (the by-user passes,
 * src/stream/user-passes.ts), so that a later pass replays the first one's decisions instead of scrubbing again:
 * 2 bits a record (kept as it was, kept without its single-user click, changed, removed), and for the changed ones
 * a bit saying whether their click went for having a single user. A later pass then calls the scrubber (through its
 * memo) only on the records whose query changed, and needs no click counts once the trace covers the whole log.
 *
 * A record is known by its position in the stream of records the passes scrub: every pass reads the same files
 * with the same rules (bad lines set aside in each), filtered by the same users, so position i is the same record
 * in each. A pass that finds more or fewer records than a whole trace, or a changed record whose query now has no
 * identifier, throws: the files changed between passes.
 */
import type { LogRecord } from "../log/record.ts";
import { grownBytes } from "../util/arrays.ts";
import { withoutClick } from "./click-url.ts";
import { type ScrubCounts, type ScrubLogOptions, scrubbedRecord, scrubMemo } from "./scrub-log.ts";
import type { Scrubber } from "./scrubber.ts";

/** The query had no identifier: the record is released as it was. */
const KEPT = 0;
/** The query had no identifier; the record's click went (only one user made it). */
const CLICK_DROPPED = 1;
/** The query changed: scrubbed again (by the memo) when replayed; its single-user click drop is in a bit of its own. */
const CHANGED = 2;
/** Nothing was left of the query: the record is not released. */
const REMOVED = 3;

/** A bit array that grows by doubling. */
class Bits {
  private bytes = new Uint8Array(1 << 10);
  get(i: number): boolean {
    return ((this.bytes[i >> 3] ?? 0) & (1 << (i & 7))) !== 0;
  }
  set(i: number): void {
    if (i >> 3 >= this.bytes.length) this.bytes = grownTo(this.bytes, (i >> 3) + 1);
    this.bytes[i >> 3]! |= 1 << (i & 7);
  }
}

/** `a` grown to hold at least `n` bytes, doubling. */
const grownTo = (a: Uint8Array, n: number) => grownBytes(a, Math.max(a.length * 2, n));

export class ScrubTrace {
  /** 2 bits per record, 4 records a byte. */
  private codes = new Uint8Array(1 << 12);
  private n = 0;
  /** Per changed record (by its rank among the changed ones): set when its single-user click was dropped. */
  private readonly singleDropped = new Bits();
  private changedCount = 0;
  /** Whether the trace covers every record of the stream (a pass reached its end with the trace as long). */
  complete = false;

  /** Records traced. */
  get length(): number {
    return this.n;
  }

  /** Bytes held by the trace (its arrays' capacity). */
  get bytes(): number {
    return this.codes.byteLength;
  }

  code(i: number): number {
    return (this.codes[i >> 2]! >> ((i & 3) << 1)) & 3;
  }

  private push(code: number): void {
    const i = this.n++;
    if (i >> 2 >= this.codes.length) this.codes = grownTo(this.codes, (i >> 2) + 1);
    this.codes[i >> 2]! |= code << ((i & 3) << 1);
  }

  /** Trace the next record: `rec` was scrubbed to `released`, its query having `spans` identifier spans. */
  append(rec: LogRecord, released: LogRecord | undefined, spans: number, singleDropped: boolean): void {
    if (spans === 0) this.push(released === rec ? KEPT : CLICK_DROPPED);
    else if (released === undefined) this.push(REMOVED);
    else {
      if (singleDropped) this.singleDropped.set(this.changedCount);
      this.changedCount++;
      this.push(CHANGED);
    }
  }

  /** Whether the changed record of rank `rank` lost its click for having a single user. */
  changedSingleDropped(rank: number): boolean {
    return this.singleDropped.get(rank);
  }
}

/** The files were not the same in a later pass as in the one traced. */
export class LogChangedBetweenPasses extends Error {
  constructor(detail: string) {
    super(`the log changed between two passes over it (${detail}); run again on files left as they are`);
    this.name = "LogChangedBetweenPasses";
  }
}

/**
 * `scrubRecords` (./scrub-log.ts) with a trace: with `record`, every record is scrubbed and counted in `counts` (the
 * first pass) and traced where the trace ends; otherwise the records the trace holds are replayed (uncounted) and
 * the rest scrubbed and traced. The same records either way.
 */
export async function* tracedScrub(
  batches: AsyncIterable<readonly LogRecord[]>,
  scrubber: Scrubber,
  counts: ScrubCounts,
  opts: ScrubLogOptions,
  trace: ScrubTrace,
  record: boolean,
): AsyncGenerator<LogRecord[]> {
  const scrub = scrubMemo(scrubber);
  let row = 0;
  /** Changed records so far in this pass (the rank of the next one). */
  let changed = 0;
  for await (const batch of batches) {
    const out: LogRecord[] = [];
    for (const rec of batch) {
      const i = row++;
      if (!record && i < trace.length) {
        const code = trace.code(i);
        if (code === KEPT) out.push(rec);
        else if (code === CLICK_DROPPED) out.push(withoutClick(rec));
        else if (code === CHANGED) {
          const r = scrub(rec.query);
          if (r.spans.length === 0)
            throw new LogChangedBetweenPasses(`record ${i + 1} has no identifier now`);
          const released = scrubbedRecord(rec, r, counts, { ...opts, clicks: undefined });
          if (released === undefined) throw new LogChangedBetweenPasses(`record ${i + 1} is removed now`);
          out.push(trace.changedSingleDropped(changed) ? withoutClick(released) : released);
          changed++;
        }
        continue;
      }
      if (i >= trace.length && trace.complete) {
        throw new LogChangedBetweenPasses(`more than the ${trace.length} records read before`);
      }
      const before = counts.singleUserClicksDropped;
      const r = scrub(rec.query);
      const released = scrubbedRecord(rec, r, counts, opts);
      if (i === trace.length)
        trace.append(rec, released, r.spans.length, counts.singleUserClicksDropped !== before);
      if (r.spans.length > 0 && released !== undefined) changed++;
      if (released !== undefined) out.push(released);
    }
    if (out.length > 0) yield out;
  }
  if (row === trace.length) trace.complete = true;
  else if (row < trace.length) {
    throw new LogChangedBetweenPasses(`${row} records where ${trace.length} were read before`);
  }
}
