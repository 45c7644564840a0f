/**
 * km read one user at a time (`Method.anonymizeByUser`): the histories are built from a first pass (memory holds
 * the (user, term) pairs and the vocabulary, not the events), each rescan of the shortened texts is a pass that
 * visits only the users whose history lost a term since their last visit (or no pass: the few users left are
 * held from the rescan before), a classified input gives the columns of the final shortened texts in one more,
 * and the last pass writes each user's rewritten events. The same release and counts as {@link kmRecords} on a log grouped by user.
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
import {
  type Columns,
  columnsByText,
  keptIn,
  Rewriter,
  shortenedText,
  suppressFlaggedIn,
} from "./release.ts";
import { Suppression } from "./suppression.ts";

/**
 * Rows of the users a rescan suppressed in that it keeps for the next rescan (at most about 100 MiB of records):
 * those few are usually all the next one has to visit (measured: 104 of 20,553 users at 1M rows, 287 at 3M), so
 * it reads no log.
 */
export const HELD_ROWS = 300_000;

/** {@link kmRecords} on a log read by user; the released records go to `out` (or into the result without one). */
export async function kmByUser(
  log: UserPasses,
  params: Omit<KmParams, "bid">,
  rng: Rng,
  out: ReleaseSink | undefined,
  bids?: BidTable,
  progress?: Progress,
  allow?: AllowList,
  heldRows = HELD_ROWS,
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
  const h = index.histories;
  // A rescan of a user's events depends only on that user's history: one unchanged since the user's last rescan
  // (or since the first pass, when no text is shortened) flags nothing again, so only users whose history lost a
  // term since are visited. Histories only shrink, so the length tells.
  const seen = h.len.slice();
  const s = new Suppression(index, params, rng, bids, progress, allow);
  // The texts the release shortens: each user's from the last rescan that visited the user (which found nothing
  // to suppress there, so they are final), with stale ones of earlier visits (columns of extra texts go unused).
  const shortened = new Set<string>();
  // The blocks of the users the last rescan suppressed in (each is due again), when few: the next rescan reads
  // them instead of the log when it has no other user to visit (the greedy in between touched none of the rest).
  let held: { u: number; block: readonly LogRecord[] }[] | undefined;
  const visit = (u: number, block: readonly LogRecord[]): number => {
    seen[u] = h.len[u]!;
    let suppressed = 0;
    for (const ev of groupEvents(block)) {
      suppressed += suppressFlaggedIn(u, ev, index, s.flag);
      if (columns) {
        const text = shortenedText(u, ev, index);
        if (text !== undefined) shortened.add(text);
      }
    }
    return suppressed;
  };
  for (let more = true; more; ) {
    let due = 0;
    for (let u = 0; u < h.users; u++) if (h.len[u] !== seen[u]) due++;
    let heldDue = 0;
    if (held) for (const { u } of held) if (h.len[u] !== seen[u]) heldDue++;
    let suppressed = 0;
    const next: { u: number; block: readonly LogRecord[] }[] = [];
    let nextRows = 0;
    const keep = (u: number, block: readonly LogRecord[]): void => {
      if (h.len[u] === seen[u] || nextRows > heldRows) return;
      nextRows += block.length;
      next.push({ u, block });
    };
    if (held && heldDue === due) {
      for (const { u, block } of held) {
        if (h.len[u] === seen[u]) continue;
        suppressed += visit(u, block);
        keep(u, block);
      }
    } else if (due > 0) {
      let u = 0;
      for await (const block of log.pass()) {
        if (h.len[u] !== seen[u]) {
          suppressed += visit(u, block);
          keep(u, block);
        }
        u++;
      }
    }
    held = nextRows <= heldRows ? next : undefined;
    more = s.rescanned(suppressed);
  }
  held = undefined;
  const byText = new Map<string, Columns>();
  if (columns && shortened.size > 0) {
    for await (const block of log.pass()) columnsByText(block, shortened, byText);
  }
  shortened.clear();
  const rewriter = new Rewriter(keptIn(index), byText);
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
