/**
 * The swap anonymizer on raw rows (src/log/rows.ts), for the CLI's stream of a classified AOL log: the same
 * {@link SwapCore} and the same grouping into events as {@link SwapStage}, so the same log, parameters and seed
 * give the same release byte for byte; but a released row is written straight to the {@link RowWriter} (its new
 * user and time spliced into its bytes) instead of being copied into a new record and printed.
 */
import type { RowWriter } from "../../log/row-write.ts";
import type { RawRow } from "../../log/rows.ts";
import type { Rng } from "../../util/random.ts";
import type { RowStage } from "../method.ts";
import { SwapCore } from "./core.ts";
import type { SwapParams } from "./params.ts";
import { sameEvent, swapCounts } from "./stage.ts";

export class SwapRowStage implements RowStage {
  readonly timeOrdered = true;
  private readonly core: SwapCore<RawRow>;
  private pending: RawRow[] | null = null;
  private pendingTag = 0;
  private nextTag = 0;

  constructor(params: SwapParams, rng: Rng, out: RowWriter) {
    this.core = new SwapCore<RawRow>(params, rng, (e, user, time) => {
      for (const row of e.rows) {
        out.release(row, user, time);
        row.done = true;
      }
    });
  }

  push(batch: readonly RawRow[]): void {
    for (const row of batch) {
      if (this.pending !== null && sameEvent(this.pending[0]!, row)) {
        this.pending.push(row);
      } else {
        this.closePending();
        this.pending = [row];
        this.pendingTag = this.nextTag;
      }
      this.nextTag++;
    }
    // What is still held (in a bucket, or the event being assembled) must outlive the reader's buffer.
    for (const row of batch) if (!row.done) row.detach();
  }

  flush(): void {
    this.closePending();
    this.core.flushAll();
  }

  private closePending(): void {
    const rows = this.pending;
    if (rows === null) return;
    this.pending = null;
    const first = rows[0]!;
    this.core.add({ user: first.user, time: first.time, tag: this.pendingTag, rows }, first.category ?? "");
  }

  counts(): Record<string, number> {
    return swapCounts(this.core);
  }
}
