/**
 * "km": (k,m)-anonymity of a search log by term suppression (paper 003). A user's history is the set of terms
 * (whitespace tokens) of the user's queries; the log is (k,m)-anonymous when every combination of at most m terms
 * out of a history is held by at least k histories. The greedy heuristic (greedy.ts, Algorithms 1–2) suppresses
 * terms from individual histories, choosing among the terms of each violating combination by a target function
 * (targets.ts), until no combination violates; the released log is the input with those terms removed from the
 * user's queries (release.ts). See docs/methods/km.md.
 */
import { groupEvents } from "../../log/events.ts";
import type { LogRecord } from "../../log/record.ts";
import type { AllowList } from "../../scrub/allow-list.ts";
import type { Progress } from "../../util/progress.ts";
import type { Rng } from "../../util/random.ts";
import type { Method, Release } from "../method.ts";
import { type BidTable, readBids } from "./bids.ts";
import { indexLog } from "./histories.ts";
import type { Retained } from "./measures.ts";
import { type KmParams, kmDeclaration } from "./meta.ts";
import { rewriteLog, suppressFlagged } from "./release.ts";
import { shardedKm } from "./sharded.ts";
import { kmRelease } from "./summary.ts";
import { Suppression } from "./suppression.ts";

export { type BidTable, readBids } from "./bids.ts";
export { adValueRetained, type Retained } from "./measures.ts";

/** The result of {@link kmRecords}: the released records, their origins, and what was done. */
export interface KmResult {
  readonly records: LogRecord[];
  readonly origin: Int32Array;
  readonly counts: Record<string, number>;
  /** Paper 003's measures (percentages kept). */
  readonly retained: Retained;
}

/**
 * Anonymize records in memory (the method without file I/O); `bids` is required for the bid/revenue targets;
 * `allow`: phrases that are not identifiers (`--allow-list`), left in the texts it rescans.
 */
export function kmRecords(
  input: readonly LogRecord[],
  params: Omit<KmParams, "bid">,
  rng: Rng,
  bids?: BidTable,
  progress?: Progress,
  allow?: AllowList,
): KmResult {
  const events = groupEvents(input);
  const index = indexLog(input, events);
  const s = new Suppression(index, params, rng, bids, progress, allow);
  while (s.rescanned(suppressFlagged(events, index, s.flag))) {}
  const out = rewriteLog(input, events, index);
  const { retained, counts } = s.result(
    { records: input.length, released: out.records.length, events: events.length },
    out,
  );
  return { records: out.records, origin: out.origin, retained, counts };
}

export const km: Method<KmParams> = {
  ...kmDeclaration,
  parse: (raw) => kmDeclaration.params.parse(raw),

  async anonymize(input, params, ctx): Promise<Release> {
    const bids = params.bid === undefined ? undefined : await readBids(params.bid);
    const r = kmRecords(input.records, params, ctx.rng, bids, ctx.progress, ctx.knowledge?.allow);
    const log = { records: r.records, format: input.format, classified: input.classified };
    return kmRelease(r, params, { log, origin: r.origin });
  },

  async anonymizeByUser(log, params, ctx, out): Promise<Release> {
    const bids = params.bid === undefined ? undefined : await readBids(params.bid);
    const { kmByUser } = await import("./by-user.ts");
    const r = await kmByUser(log, params, ctx.rng, out, bids, ctx.progress, ctx.knowledge?.allow);
    const held =
      r.records === undefined
        ? {}
        : {
            log: { records: r.records, format: log.format ?? "aol", classified: log.classified },
            origin: r.origin!,
          };
    return kmRelease(r, params, held);
  },

  sharded: shardedKm,
};
