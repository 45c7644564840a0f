/**
 * The log's own evidence about names: how many distinct users typed a query holding each name the person-name
 * recognizer weighs. On a search engine's volume a public figure is searched by many people and a private person by
 * few, so the recognizer takes a name many users typed as one signal for public among the others (never alone: a
 * name with a private cue, or with strong evidence of its own, is removed however many typed it; docs/scrub.md).
 *
 * Cross-user evidence: a record's release then depends on other records. So it is counted by the caller over the
 * whole log (a first pass, as the single-user click counts of ./click-url.ts are) and given to `createScrubber`
 * explicitly; a per-record-only path (a DP method's input) is never given it. Counts stop at {@link CAP}: the
 * recognizer asks only whether a name reaches a few users.
 */
import type { LogRecord } from "../log/record.ts";
import type { RowBlock } from "../log/row-block.ts";
import { DEFAULT_NAME_WEIGHTS } from "./name-weights.ts";
import type { NameEvidence, RecognizerContext } from "./recognizer.ts";
import { personNameKeys } from "./recognizers/person-name.ts";
import { prepare } from "./tokenize.ts";

/** Users counted per name at most. */
const CAP = 16;
/** Distinct queries whose names are remembered at a time (AOL repeats a query on each of its click rows). */
const MEMO_LIMIT = 100_000;

export class NameUsers implements NameEvidence {
  /** Name → the distinct users seen, up to {@link CAP}. */
  private seen = new Map<string, string[]>();
  private memo = new Map<string, readonly string[]>();
  private readonly context: RecognizerContext = { nameWeights: DEFAULT_NAME_WEIGHTS };
  /** After {@link settle}: name → its number of users (the users themselves let go). */
  private counts: Map<string, number> | undefined;

  /** Distinct users who typed `name` (at most {@link CAP}). */
  users(name: string): number {
    if (this.counts !== undefined) return this.counts.get(name) ?? 0;
    return this.seen.get(name)?.length ?? 0;
  }

  /** How many names were seen. */
  get size(): number {
    return this.counts?.size ?? this.seen.size;
  }

  /** Counting is over: keep each name's number of users, not the users (nor the memo). Counting more throws. */
  settle(): this {
    if (this.counts !== undefined) return this;
    const counts = new Map<string, number>();
    for (const [name, users] of this.seen) counts.set(name, users.length);
    this.counts = counts;
    this.seen = new Map();
    this.memo = new Map();
    return this;
  }

  /** Count one query typed by `user`. */
  addQuery(user: string, query: string): void {
    if (query === "") return;
    if (this.counts !== undefined) throw new Error("names counted after the counts were settled");
    let keys = this.memo.get(query);
    if (keys === undefined) {
      if (this.memo.size >= MEMO_LIMIT) this.memo.clear();
      keys = personNameKeys(prepare(query), this.context);
      this.memo.set(query, keys);
    }
    for (const k of keys) {
      const users = this.seen.get(k);
      if (users === undefined) this.seen.set(k, [user]);
      else if (users.length < CAP && !users.includes(user)) users.push(user);
    }
  }

  /** Count a batch of records. */
  add(records: readonly LogRecord[]): this {
    for (const r of records) this.addQuery(r.user, r.query);
    return this;
  }

  /** Count a block of raw rows (a first pass over an AOL log). */
  addRows(rows: RowBlock): this {
    for (let i = 0; i < rows.n; i++) {
      const rec = rows.rec[i];
      if (rec !== undefined) this.addQuery(rec.user, rec.query);
      // A row repeating the row before's query adds nothing only when it is the same user's (users are interned).
      else if (i === 0 || !rows.sameQueryAsBefore(i) || rows.user[i] !== rows.user[i - 1])
        this.addQuery(rows.user[i]!, rows.query(i));
    }
    return this;
  }

  /** Count a stream of batches (a first pass over a log). */
  static async of(batches: AsyncIterable<readonly LogRecord[]>): Promise<NameUsers> {
    const c = new NameUsers();
    for await (const b of batches) c.add(b);
    return c;
  }

  /** Count a stream of raw row blocks. */
  static async ofRows(blocks: AsyncIterable<RowBlock>): Promise<NameUsers> {
    const c = new NameUsers();
    for await (const b of blocks) c.addRows(b);
    return c;
  }

  /** The counts as plain data (to hand to worker threads). */
  toJSON(): [string, number][] {
    if (this.counts !== undefined) return [...this.counts];
    return [...this.seen].map(([k, u]) => [k, u.length]);
  }

  /** Counts made by {@link toJSON}. */
  static fromJSON(entries: readonly (readonly [string, number])[]): NameEvidence {
    const m = new Map(entries);
    return { users: (name) => m.get(name) ?? 0 };
  }
}
