/**
 * Writing the suppression back into the log: every query event of a user loses the terms suppressed from that
 * user's history. All rows of an event get the same new text (kept terms in their original order, joined by one
 * space); an event whose query is left without terms is dropped whole and counted. A query with nothing
 * suppressed keeps its text byte for byte. Events whose query had no term to begin with (Excite's empty
 * next-page queries) carry nothing identifying and are kept as they are.
 *
 * A released record carries only what the method released: the classifier's `category` and `unit` of a
 * shortened query were derived from the text before suppression (query `ohio` with Unit `weight loss`), so they
 * are recomputed from the released text — the columns the input gives that same text, when some input record
 * has it (the classifier is a function of the text), else empty.
 */
import type { QueryEvent } from "../../log/events.ts";
import type { LogRecord } from "../../log/record.ts";
import type { KmIndex } from "./histories.ts";
import { queryTerms } from "./terms.ts";

export interface Rewritten {
  readonly records: LogRecord[];
  /** Input index of each released record. */
  readonly origin: Int32Array;
  /** Events dropped because all their terms were suppressed. */
  readonly eventsDropped: number;
  /** Events whose text changed but that were kept. */
  readonly eventsShortened: number;
  /** Term occurrences removed from query texts. */
  readonly occurrencesRemoved: number;
}

/** The terms of a query that user `u`'s history still holds, in the query's order. */
function keptTerms(terms: readonly string[], u: number, index: KmIndex): string[] {
  const h = index.histories;
  return terms.filter((term) => h.indexOf(u, index.termId.get(term)!) >= 0);
}

/** The terms of a query user `u` keeps, in the query's order (from an index, or a sharded run's decision). */
export type KeptTerms = (u: number, terms: readonly string[]) => readonly string[];

/** {@link KeptTerms} from the index's histories. */
export const keptIn =
  (index: KmIndex): KeptTerms =>
  (u, terms) =>
    keptTerms(terms, u, index);

/** Rewrite `records` after suppression; `index.histories` holds what each user keeps. */
export function rewriteLog(
  records: readonly LogRecord[],
  events: readonly QueryEvent[],
  index: KmIndex,
): Rewritten {
  const out: LogRecord[] = [];
  const origin: number[] = [];
  const rewriter = new Rewriter(keptIn(index), columnsByText(records));
  for (let e = 0; e < events.length; e++) {
    const ev = events[e]!;
    const first = out.length;
    rewriter.event(index.eventUser[e]!, records, ev, out);
    for (let i = 0; i < out.length - first; i++) origin.push(ev.first + i);
  }
  return {
    records: out,
    origin: Int32Array.from(origin),
    eventsDropped: rewriter.eventsDropped,
    eventsShortened: rewriter.eventsShortened,
    occurrencesRemoved: rewriter.occurrencesRemoved,
  };
}

/** Rewrites events one at a time (the batch release and the release read by user share it), counting. */
export class Rewriter {
  eventsDropped = 0;
  eventsShortened = 0;
  occurrencesRemoved = 0;

  constructor(
    private readonly kept: KeptTerms,
    private readonly columns: ReadonlyMap<string, Columns>,
  ) {}

  /** Push the released rows of event `ev` of user `u` (rows in `records`) on `out`. */
  event(u: number, records: readonly LogRecord[], ev: QueryEvent, out: LogRecord[]): void {
    const terms = queryTerms(ev.query);
    const kept = this.kept(u, terms);
    this.occurrencesRemoved += terms.length - kept.length;
    if (terms.length > 0 && kept.length === 0) {
      this.eventsDropped++;
      return;
    }
    const changed = kept.length < terms.length;
    if (changed) this.eventsShortened++;
    const query = changed ? kept.join(" ") : ev.query;
    for (let i = ev.first; i < ev.first + ev.rows; i++) {
      const r = records[i]!;
      out.push(changed ? withText(r, query, this.columns) : { ...r });
    }
  }
}

/** The text event `ev` of user `u` is released with, when suppression shortened it (else undefined). */
export function shortenedText(u: number, ev: QueryEvent, index: KmIndex): string | undefined {
  const terms = queryTerms(ev.query);
  const kept = keptTerms(terms, u, index);
  return kept.length === 0 || kept.length === terms.length ? undefined : kept.join(" ");
}

export type Columns = Pick<LogRecord, "category" | "unit">;

/**
 * The classifier columns the input gives each query text (first record with that text); only the texts `wanted`
 * keeps, when given, into `out`.
 */
export function columnsByText(
  records: readonly LogRecord[],
  wanted?: ReadonlySet<string>,
  out = new Map<string, Columns>(),
): Map<string, Columns> {
  for (const r of records) {
    if ((r.category !== undefined || r.unit !== undefined) && !out.has(r.query)) {
      if (wanted === undefined || wanted.has(r.query))
        out.set(r.query, { category: r.category, unit: r.unit });
    }
  }
  return out;
}

/** `r` with a new query text, and the classifier columns of that text (empty when the input never had it). */
function withText(r: LogRecord, query: string, columns: ReadonlyMap<string, Columns>): LogRecord {
  const out: LogRecord = { ...r, query };
  const own = columns.get(query);
  if (r.category !== undefined) out.category = own?.category ?? "";
  if (r.unit !== undefined) out.unit = own?.unit ?? "";
  return out;
}

/**
 * Suppression puts words next to each other that were apart, and the identifier scrubber reads context: a
 * shortened query can look like an identifier its whole text did not (two first names side by side, a number
 * before a street word). `flag` gives the words of such a text that make it one; each is suppressed from that
 * user's history, as a term of a violating combination would be. Returns the (user, term) pairs suppressed —
 * after any, the greedy runs again (it only suppresses more, so (k,m) holds again) and the log is rewritten.
 * Texts the method did not shorten are left to the scrubbing its input went through (docs/audit.md).
 */
export function suppressFlagged(
  events: readonly QueryEvent[],
  index: KmIndex,
  flag: (text: string) => readonly string[],
): number {
  let suppressed = 0;
  for (let e = 0; e < events.length; e++)
    suppressed += suppressFlaggedIn(index.eventUser[e]!, events[e]!, index, flag);
  return suppressed;
}

/** {@link suppressFlagged} for one event `ev` of user `u`. */
export function suppressFlaggedIn(
  u: number,
  ev: QueryEvent,
  index: KmIndex,
  flag: (text: string) => readonly string[],
): number {
  const text = shortenedText(u, ev, index);
  if (text === undefined) return 0;
  let suppressed = 0;
  for (const word of flag(text)) {
    const t = index.termId.get(word);
    if (t !== undefined && index.histories.remove(u, t)) suppressed++;
  }
  return suppressed;
}
