/**
 * km over shards of users (`querymask cluster run --method km`). The greedy suppresses terms from the users who
 * hold a violating combination, one violation after another, so it needs every user's history, not only the
 * supports: each worker adds, per user, one row (or a few, for a long history) carrying the user's terms in the
 * order they first appear in the user's queries with the user's occurrences, impressions and clicks of each; a user's
 * row's order is the position of the user's first record. The coordinator numbers users and terms from those rows
 * exactly as the single machine does (by first appearance in the log), sums the term statistics, and runs the same
 * greedy with the same random draws. The rescans of the shortened texts are later passes: their input is, for each
 * user whose history lost a term since the user's last rescan, the terms suppressed from it (each worker is sent its
 * own users'); their rows are the (user, term) pairs the scrubber flags, which the coordinator suppresses before the
 * greedy runs again, until a rescan flags none. A classified input takes one more pass for the columns of the
 * shortened texts. The workers then write the release: each user's events without the user's suppressed terms.
 */
import { groupEvents } from "../../log/events.ts";
import type { LogRecord } from "../../log/record.ts";
import { NO_GUARANTEE, type Release } from "../method.ts";
import {
  type ByUser,
  byUser,
  isByUser,
  type PartialTable,
  type ShardedRelease,
  type SummedRows,
} from "../sharded.ts";
import { readBids } from "./bids.ts";
import { type HistoryTerm, IndexByUser, type KmIndex } from "./histories.ts";
import type { KmParams } from "./meta.ts";
import { type Columns, Rewriter } from "./release.ts";
import { kmRelease } from "./summary.ts";
import { flagger, Suppression } from "./suppression.ts";
import { queryTerms } from "./terms.ts";

/** Rows of the partial aggregates: users' histories, record tallies, flagged pairs, shortened texts, columns. */
const USERS = 0;
const TALLY = 1;
const FLAGGED = 2;
const SHORT = 3;
const COLUMNS = 4;

/**
 * The most UTF-8 bytes of history text in one row: a row's key is indexed in PostgreSQL, whose index entries are
 * at most 2,704 bytes; a longer history takes several rows, numbered.
 */
const CHUNK_BYTES = 1800;

/** A rescan's input, common to the users: whether to report the shortened texts (a classified input). */
interface Rescan {
  readonly columns: boolean;
}

/** The pass for the columns of the shortened texts: the texts. */
interface ColumnsPass {
  readonly texts: readonly string[];
}

/** The release decision: the shortened texts' columns, and each user's suppressed terms. */
type Decision = ByUser<
  { readonly columns: readonly (readonly [string, string | null, string | null])[] },
  string[]
>;

/** Add one user's history and tallies (the first pass). */
function addHistory(block: readonly LogRecord[], order: (r: LogRecord) => number, table: PartialTable): void {
  const events = groupEvents(block);
  table.add(TALLY, "records", "", block.length, events.length, 0);
  if (block.some((r) => r.category !== undefined || r.unit !== undefined))
    table.add(TALLY, "columns", "", 1, 0, 0);
  if (events.length === 0) return;
  const user = events[0]!.user;
  const at = new Map<string, number>();
  const terms: string[] = [];
  const occ: number[] = [];
  const imp: number[] = [];
  const clk: number[] = [];
  const last: number[] = [];
  events.forEach((ev, e) => {
    for (const term of queryTerms(block[ev.first]!.query)) {
      let i = at.get(term);
      if (i === undefined) {
        i = terms.length;
        at.set(term, i);
        terms.push(term);
        occ.push(0);
        imp.push(0);
        clk.push(0);
        last.push(-1);
      }
      occ[i]!++;
      if (last[i] !== e) {
        last[i] = e;
        imp[i]!++;
        clk[i]! += ev.clicks;
      }
    }
  });
  const first = order(block[0]!);
  let chunk = 0;
  let data = "";
  let bytes = 0;
  const flush = () => {
    table.add(USERS, user, `${String(chunk++).padStart(6, "0")} ${data}`, 1, 0, first);
    data = "";
    bytes = 0;
  };
  for (let i = 0; i < terms.length; i++) {
    // Terms hold no whitespace (terms.ts), so a space separates the fields.
    const entry = `${terms[i]} ${occ[i]} ${imp[i]} ${clk[i]}`;
    const b = Buffer.byteLength(entry) + 1;
    if (bytes > 0 && bytes + b > CHUNK_BYTES) flush();
    data = bytes === 0 ? entry : `${data} ${entry}`;
    bytes += b;
  }
  flush();
}

/** The index the single machine builds, from the summed histories; with the record tallies. */
async function indexOfSums(
  sums: SummedRows,
): Promise<{ index: KmIndex; records: number; events: number; columns: boolean }> {
  const users = new Map<string, { first: number; chunks: string[] }>();
  for await (const page of sums.rows(USERS)) {
    for (const r of page) {
      const sp = r.key2.indexOf(" ");
      let u = users.get(r.key);
      if (u === undefined) {
        u = { first: r.first, chunks: [] };
        users.set(r.key, u);
      }
      u.first = Math.min(u.first, r.first);
      u.chunks[Number(r.key2.slice(0, sp))] = r.key2.slice(sp + 1);
    }
  }
  const names = [...users.keys()].sort((a, b) => users.get(a)!.first - users.get(b)!.first);
  const builder = new IndexByUser();
  for (const name of names) {
    const u = users.get(name)!;
    users.delete(name);
    const terms: HistoryTerm[] = [];
    for (const chunk of u.chunks) {
      if (chunk === "") continue;
      const f = chunk.split(" ");
      for (let i = 0; i < f.length; i += 4) {
        terms.push({
          term: f[i]!,
          occurrences: Number(f[i + 1]),
          impressions: Number(f[i + 2]),
          clicks: Number(f[i + 3]),
        });
      }
    }
    builder.addHistory(name, terms);
  }
  let records = 0;
  let events = 0;
  let columns = false;
  for await (const page of sums.rows(TALLY)) {
    for (const r of page) {
      if (r.key === "records") {
        records += r.a;
        events += r.b;
      } else if (r.key === "columns" && r.a > 0) columns = true;
    }
  }
  return { index: builder.finish(), records, events, columns };
}

/** The text an event is released with when the user's history `held` shortens it (else undefined). */
function shortened(query: string, held: ReadonlySet<string>): string | undefined {
  const terms = queryTerms(query);
  const kept = terms.filter((t) => held.has(t));
  return kept.length === 0 || kept.length === terms.length ? undefined : kept.join(" ");
}

/** A rescan's adder: each due user's events, shortened by the user's history, flagged by the scrubber. */
function rescanAdder(input: ByUser<Rescan, string[]>) {
  const due = new Map(input.users);
  const flag = flagger();
  return (block: readonly LogRecord[], _order: (r: LogRecord) => number, table: PartialTable): void => {
    const user = block[0]!.user;
    const removed = due.get(user);
    if (removed === undefined) return;
    const events = groupEvents(block);
    const held = new Set<string>();
    for (const ev of events) for (const t of queryTerms(ev.query)) held.add(t);
    for (const t of removed) held.delete(t);
    for (const ev of events) {
      const text = shortened(ev.query, held);
      if (text !== undefined) {
        for (const word of flag(text)) if (held.delete(word)) table.add(FLAGGED, user, word, 1, 0, 0);
      }
      if (input.common.columns) {
        const now = shortened(ev.query, held);
        if (now !== undefined) table.add(SHORT, now, "", 1, 0, 0);
      }
    }
  };
}

/** The columns pass's adder: each wanted text's classified records, by position (the first one's are kept). */
function columnsAdder(input: ColumnsPass) {
  const wanted = new Set(input.texts);
  return (block: readonly LogRecord[], order: (r: LogRecord) => number, table: PartialTable): void => {
    for (const r of block) {
      if ((r.category !== undefined || r.unit !== undefined) && wanted.has(r.query)) {
        table.add(COLUMNS, r.query, JSON.stringify([r.category ?? null, r.unit ?? null]), 0, 0, order(r));
      }
    }
  };
}

/** What the coordinator keeps of a decision for the merge: the suppression (its counts) and the tallies. */
const decided = new WeakMap<object, { s: Suppression; records: number; events: number }>();

const parts: NonNullable<ShardedRelease<KmParams>["parts"]> = {
  async decide(sums, params, ctx, again): Promise<Decision> {
    const bids = params.bid === undefined ? undefined : await readBids(params.bid);
    ctx.progress.start("km: numbering the summed histories' users and terms");
    const { index, records, events, columns } = await indexOfSums(sums);
    ctx.progress.stop();
    const h = index.histories;
    const names = index.userNames;
    const userIndex = new Map(names.map((n, u) => [n, u]));
    const original = { items: h.items.slice(), len: h.len.slice() };
    /** The terms suppressed from user `u` so far: the first history's run less the current one (both sorted). */
    const removedFrom = (u: number): string[] => {
      const out: string[] = [];
      let j = h.start[u]!;
      const end = j + h.len[u]!;
      for (let i = h.start[u]!; i < h.start[u]! + original.len[u]!; i++) {
        const t = original.items[i]!;
        if (j < end && h.items[j] === t) j++;
        else out.push(index.vocab[t]!);
      }
      return out;
    };
    // As kmByUser: a rescan visits the users whose history lost a term since their last visit.
    const seen = h.len.slice();
    const s = new Suppression(index, params, ctx.rng, bids, ctx.progress);
    const texts = new Set<string>();
    for (;;) {
      const due: [string, string[]][] = [];
      for (let u = 0; u < h.users; u++) {
        if (h.len[u] === seen[u]) continue;
        seen[u] = h.len[u]!;
        due.push([names[u]!, removedFrom(u)]);
      }
      if (due.length === 0) break;
      const rows = await again(byUser({ columns } satisfies Rescan, due));
      let flagged = 0;
      for await (const page of rows.rows(FLAGGED)) {
        for (const r of page) if (h.remove(userIndex.get(r.key)!, index.termId.get(r.key2)!)) flagged++;
      }
      if (columns) for await (const page of rows.rows(SHORT)) for (const r of page) texts.add(r.key);
      if (!s.rescanned(flagged)) break;
    }
    const byText: [string, string | null, string | null][] = [];
    if (columns && texts.size > 0) {
      const rows = await again({ texts: [...texts] } satisfies ColumnsPass);
      const best = new Map<string, { first: number; columns: string }>();
      for await (const page of rows.rows(COLUMNS)) {
        for (const r of page) {
          const b = best.get(r.key);
          if (b === undefined || r.first < b.first) best.set(r.key, { first: r.first, columns: r.key2 });
        }
      }
      for (const [text, b] of best)
        byText.push([text, ...(JSON.parse(b.columns) as [string | null, string | null])]);
    }
    const users: [string, string[]][] = [];
    for (let u = 0; u < h.users; u++)
      if (h.len[u] !== original.len[u]) users.push([names[u]!, removedFrom(u)]);
    const decision: Decision = byUser({ columns: byText }, users);
    decided.set(decision, { s, records, events });
    return decision;
  },

  async write(decision, log, _params, out): Promise<Release> {
    const d = decision as Decision;
    const removed = new Map(d.users.map(([u, ts]) => [u, new Set(ts)]));
    const byText = new Map<string, Columns>(
      d.common.columns.map(([t, category, unit]) => [
        t,
        { category: category ?? undefined, unit: unit ?? undefined },
      ]),
    );
    let current: ReadonlySet<string> | undefined;
    const rewriter = new Rewriter(
      (_u, terms) => (current === undefined ? terms : terms.filter((t) => !current!.has(t))),
      byText,
    );
    let released = 0;
    for await (const block of log.pass()) {
      current = removed.get(block[0]!.user);
      const rows: LogRecord[] = [];
      for (const ev of groupEvents(block)) rewriter.event(0, block, ev, rows);
      released += rows.length;
      if (rows.length > 0) {
        const behind = out.write(rows);
        if (behind) await behind;
      }
    }
    return {
      counts: {
        released,
        "events dropped": rewriter.eventsDropped,
        "events shortened": rewriter.eventsShortened,
        "occurrences removed": rewriter.occurrencesRemoved,
      },
      guarantee: NO_GUARANTEE,
    };
  },

  merge(decision, shards, params): Release {
    const d = decided.get(decision as object);
    if (d === undefined) throw new Error("km: the release's decision was not made in this process");
    const sum = (name: string) => shards.reduce((a, r) => a + (r.counts[name] ?? 0), 0);
    const { retained, counts } = d.s.result(
      { records: d.records, released: sum("released"), events: d.events },
      {
        eventsDropped: sum("events dropped"),
        eventsShortened: sum("events shortened"),
        occurrencesRemoved: sum("occurrences removed"),
      },
    );
    return kmRelease({ retained, counts }, params, {});
  },
};

/** km's `Method.sharded`. */
export const shardedKm: ShardedRelease<KmParams> = {
  addUser: (block, order, table) => addHistory(block, order, table),
  later: (input) =>
    isByUser(input) ? rescanAdder(input as ByUser<Rescan, string[]>) : columnsAdder(input as ColumnsPass),
  parts,
  async release(sums, log, params, ctx, out, again): Promise<Release> {
    const decision = await parts.decide(sums, params, ctx, again);
    return parts.merge(decision, [await parts.write(decision, log, params, out)], params);
  },
};
