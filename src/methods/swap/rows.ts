/**
 * The swap anonymizer on raw rows (src/log/rows.ts), for the CLI's stream of a classified AOL log: the same
 * {@link SwapCore} and the same grouping into events as {@link SwapStage}, so the same log, parameters and seed
 * give the same release byte for byte; but a released row is written straight to the {@link RowWriter} (its new
 * user and time spliced into its bytes) instead of being copied into a new record and printed.
 */
import type { RowWriter } from "../../log/row-write.ts";
import { type RawRow, sameRawEvent } from "../../log/rows.ts";
import type { Rng } from "../../util/random.ts";
import type { RowStage } from "../method.ts";
import { SwapCore } from "./core.ts";
import { EventGrouper } from "./events.ts";
import type { SwapParams } from "./params.ts";
import { swapCounts } from "./stage.ts";

export class SwapRowStage implements RowStage {
  readonly timeOrdered = true;
  private readonly core: SwapCore<RawRow>;
  private readonly events: EventGrouper<RawRow>;

  constructor(params: SwapParams, rng: Rng, out: RowWriter) {
    this.core = new SwapCore<RawRow>(params, rng, (e, user, time) => {
      for (const row of e.rows) {
        out.release(row, user, time);
        row.done = true;
      }
    });
    this.events = new EventGrouper(
      (rows, tag) => {
        const first = rows[0]!;
        this.core.add({ user: first.user, time: first.time, tag, rows }, first.category ?? "");
      },
      undefined,
      sameRawEvent,
    );
  }

  push(batch: readonly RawRow[]): void {
    this.events.push(batch);
    // What is still held (in a bucket, or the event being assembled) must outlive the reader's buffer.
    for (const row of batch) if (!row.done) row.detach();
    // The last released row's query is compared with the next release's (SwapCore.release); one copy per batch.
    this.core.lastReleased()?.detach();
  }

  flush(): void {
    this.events.flush();
    this.core.flushAll();
  }

  counts(): Record<string, number> {
    return swapCounts(this.core);
  }
}
