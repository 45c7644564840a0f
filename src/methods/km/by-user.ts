/**
 * km read one user at a time (`Method.anonymizeByUser`): the histories are built from a first pass (memory holds
 * the (user, term) pairs and the vocabulary, not the events), each rescan of the shortened texts is a pass, a
 * classified input gives the columns of the final shortened texts in one more, and the last pass writes each
 * user's rewritten events. The same release and counts as {@link kmRecords} on a log grouped by user.
 */
import { groupEvents } from "../../log/events.ts";
import type { LogRecord } from "../../log/record.ts";
import type { AllowList } from "../../scrub/allow-list.ts";
import type { Progress } from "../../util/progress.ts";
import type { Rng } from "../../util/random.ts";
import type { ReleaseSink, UserPasses } from "../method.ts";
import type { BidTable } from "./bids.ts";
import { IndexByUser } from "./histories.ts";
import type { KmResult } from "./index.ts";
import type { KmParams } from "./meta.ts";
import { type Columns, columnsByText, Rewriter, shortenedText, suppressFlaggedIn } from "./release.ts";
import { Suppression } from "./suppression.ts";

/** {@link kmRecords} on a log read by user; the released records go to `out` (or into the result without one). */
export async function kmByUser(
  log: UserPasses,
  params: Omit<KmParams, "bid">,
  rng: Rng,
  out: ReleaseSink | undefined,
  bids?: BidTable,
  progress?: Progress,
  allow?: AllowList,
): Promise<Omit<KmResult, "records" | "origin"> & Partial<Pick<KmResult, "records" | "origin">>> {
  const builder = new IndexByUser();
  let records = 0;
  let events = 0;
  let columns = false;
  progress?.start("km: reading the users' terms, one user at a time");
  for await (const block of log.pass()) {
    const evs = groupEvents(block);
    builder.add(block, evs);
    records += block.length;
    events += evs.length;
    columns ||= block.some((r) => r.category !== undefined || r.unit !== undefined);
    progress?.tick(block.length);
  }
  progress?.stop();
  const index = builder.finish();
  const s = new Suppression(index, params, rng, bids, progress, allow);
  // The texts the release shortens, from the last rescan (which suppressed nothing, so they are final).
  let shortened = new Set<string>();
  for (let more = true; more; ) {
    let suppressed = 0;
    const texts = new Set<string>();
    let u = 0;
    for await (const block of log.pass()) {
      for (const ev of groupEvents(block)) {
        suppressed += suppressFlaggedIn(u, ev, index, s.flag);
        if (columns) {
          const text = shortenedText(u, ev, index);
          if (text !== undefined) texts.add(text);
        }
      }
      u++;
    }
    more = s.rescanned(suppressed);
    shortened = texts;
  }
  const byText = new Map<string, Columns>();
  if (columns && shortened.size > 0) {
    for await (const block of log.pass()) columnsByText(block, shortened, byText);
  }
  shortened.clear();
  const rewriter = new Rewriter(index, byText);
  const kept: LogRecord[] | undefined = out === undefined ? [] : undefined;
  const origin: number[] = [];
  let released = 0;
  let row = 0;
  let u = 0;
  progress?.start("km: writing the users' queries without their suppressed terms");
  for await (const block of log.pass()) {
    const rows: LogRecord[] = [];
    for (const ev of groupEvents(block)) {
      const before = rows.length;
      rewriter.event(u, block, ev, rows);
      if (kept) for (let i = 0; i < rows.length - before; i++) origin.push(row + ev.first + i);
    }
    u++;
    row += block.length;
    released += rows.length;
    progress?.tick(block.length);
    if (kept) kept.push(...rows);
    else if (rows.length > 0) {
      const behind = out!.write(rows);
      if (behind) await behind;
    }
  }
  progress?.stop();
  const { retained, counts } = s.result({ records, released, events }, rewriter);
  return { retained, counts, ...(kept ? { records: kept, origin: Int32Array.from(origin) } : {}) };
}
