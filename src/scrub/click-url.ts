/**
 * The ClickURL field through the scrubber. AOL logs the host of the clicked result (`http://www.site.com`);
 * for a personal page that host is an identifier in its own right: the query `helenwatson133 aol com` loses the
 * e-mail address to the scrubber, but its click on `http://www.helenwatson1334u.com` would name her anyway
 * (HIPAA Safe Harbor counts personal web URLs as identifiers).
 *
 * Rule: a click URL whose host contains a word of an identifier removed from the same record's query is
 * **dropped** (the record stays, as a query without a click: ItemRank and ClickURL empty). It is not
 * generalised to its registered domain, because for a personal page the registered domain is the identifier.
 * The words compared are the identifier's runs of letters and digits of 4 or more characters, less the words
 * of web addresses (`www`, `mail`, `aol`, …); dates are not compared (`march 2006` says nothing about a host).
 */
import type { LogRecord } from "../log/record.ts";
import type { RowBlock } from "../log/row-block.ts";
import { grown } from "../util/arrays.ts";
import { NameUsers } from "./name-users.ts";
import type { PiiSpan } from "./types.ts";

/** Words of e-mail and web addresses that name a provider or a protocol, not a person. */
const WEB_WORDS = new Set([
  "http",
  "https",
  "html",
  "mail",
  "email",
  "gmail",
  "hotmail",
  "yahoo",
  "aol",
  "msn",
  "live",
  "outlook",
  "comcast",
  "earthlink",
  "verizon",
  "bellsouth",
  "juno",
  "netscape",
]);

/** Words of the identifiers in `spans` that could be part of a host name (see the module comment). */
export function identifierWords(spans: readonly PiiSpan[]): string[] {
  const out: string[] = [];
  for (const s of spans) {
    if (s.type === "date") continue;
    for (const w of s.value.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
      if (w.length >= 4 && !WEB_WORDS.has(w) && !out.includes(w)) out.push(w);
    }
  }
  return out;
}

/** The host of a click URL, lower-cased, without scheme, user, port or path ("" when there is none). */
export function urlHost(url: string): string {
  let s = url.trim().toLowerCase();
  const scheme = s.indexOf("://");
  if (scheme >= 0) s = s.slice(scheme + 3);
  const end = s.search(/[/?#]/);
  if (end >= 0) s = s.slice(0, end);
  const at = s.lastIndexOf("@");
  if (at >= 0) s = s.slice(at + 1);
  const port = s.indexOf(":");
  return port >= 0 ? s.slice(0, port) : s;
}

/** True when the host of `url` contains one of `words` (as {@link identifierWords} gives them). */
export function hostCarries(url: string, words: readonly string[]): boolean {
  if (words.length === 0) return false;
  const host = urlHost(url);
  return words.some((w) => host.includes(w));
}

/** Why a click is dropped: its host carries an identifier removed from its query, or only one user made it. */
export type ClickDrop = "identifier" | "singleUser";

/**
 * Whether the click on `url` is dropped, and why: its host carries one of the identifiers removed from its query
 * (`spans`, as the scrubber found them in the query before scrubbing), else only one user ever clicked it (with
 * `clicks`, the whole log's counts); undefined when it stays (or there is no click).
 */
export function clickDrop(
  url: string | undefined,
  spans: readonly PiiSpan[],
  clicks?: ClickUsers,
): ClickDrop | undefined {
  if (url === undefined || url === "") return undefined;
  if (spans.length > 0 && hostCarries(url, identifierWords(spans))) return "identifier";
  return clicks?.singleUser(url) ? "singleUser" : undefined;
}

/** {@link clickDrop} of row i of a block of raw rows; a line's single-user verdict is asked by row (no URL text). */
export function rowClickDrop(
  rows: RowBlock,
  i: number,
  spans: readonly PiiSpan[],
  clicks?: ClickUsers,
): ClickDrop | undefined {
  const rec = rows.rec[i];
  if (rec !== undefined) return clickDrop(rec.clickUrl, spans, clicks);
  if (rows.urlEnd[i]! <= rows.tab4[i]! + 1) return undefined;
  if (spans.length > 0 && hostCarries(rows.urlText(i), identifierWords(spans))) return "identifier";
  return clicks?.singleUserRow(rows, i) ? "singleUser" : undefined;
}

/** `record` as a query without a click (no ItemRank, no ClickURL). */
export function withoutClick<R extends LogRecord>(record: R): R {
  const { clickUrl: _url, itemRank: _rank, ...rest } = record;
  return rest as R;
}

/** `record` without its click when its host carries an identifier removed from its query; the same object otherwise. */
export function scrubClick<R extends LogRecord>(record: R, spans: readonly PiiSpan[]): R {
  return clickDrop(record.clickUrl, spans) === "identifier" ? withoutClick(record) : record;
}

/**
 * Distinct users per click URL over a whole log. A URL only one user ever clicked can point at that user as
 * surely as a name (a personal page, a small club's site: HIPAA Safe Harbor counts personal web URLs as
 * identifiers), and in AOL's layout, which logs only the host, "generalising it to its registered domain"
 * changes nothing. So such a click is **dropped** (the record stays as a query without a click), like a click
 * whose host carries a scrubbed identifier. On the AOL subset that is 71% of distinct URLs and 27% of click rows.
 * The rule needs the whole log: the batch paths count it first (a pass over the file or the records in memory);
 * a live stream (the cluster, `serve`) cannot know a URL's future clicks and does not apply it.
 *
 * The same pass counts the distinct users of each name the person-name recognizer weighs ({@link ClickUsers.names},
 * ./name-users.ts): the other cross-user evidence a batch path gives its scrubber.
 *
 * Counted from raw rows ({@link ClickUsers.ofRows}), it also remembers which URL each line of each file clicked,
 * so that the second pass over the same files asks by line ({@link ClickUsers.singleUserRow}) and makes no
 * string and no look-up per row.
 */
export class ClickUsers {
  /** URL (trimmed, lower-cased) → its index in {@link owner}. */
  private ids = new Map<string, number>();
  /** Per URL: its one user so far, or null once a second user clicked it. */
  private owner: (string | null)[] = [];
  /** After {@link settle}: the URLs only one user clicked (trimmed, lower-cased), all a look-up needs. */
  private single: Set<string> | undefined;
  /** The record {@link add} counted last: a record repeating its user and query or click adds nothing. */
  private lastUser: string | undefined;
  private lastQuery: string | undefined;
  private lastUrl: string | undefined;
  /** Per file counted by rows: each line's URL index + 1 (0: no click), until {@link singleUserRow} seals it. */
  private readonly lineUrls = new Map<string, Int32Array>();
  /** Per file, sealed: a bit per line, set when the line's click only one user made. */
  private readonly lineSingle = new Map<string, Uint8Array>();
  /** How many distinct users typed each name, counted in the same pass (for `createScrubber({ nameUsers })`). */
  readonly names = new NameUsers();

  add(records: Iterable<LogRecord>): this {
    for (const r of records) {
      // AOL repeats a query on each of its click rows: a user already counted for it (or its URL) changes nothing.
      const sameUser = r.user === this.lastUser;
      if (r.clickUrl !== undefined && !(sameUser && r.clickUrl === this.lastUrl))
        this.addClick(r.clickUrl, r.user);
      if (!(sameUser && r.query === this.lastQuery)) this.names.addQuery(r.user, r.query);
      this.lastUser = r.user;
      this.lastQuery = r.query;
      this.lastUrl = r.clickUrl;
    }
    return this;
  }

  /** Count the clicks of a block of raw rows (src/log/rows.ts), remembering each line's URL. */
  addRows(rows: RowBlock): this {
    this.names.addRows(rows);
    let urls = this.lineUrls.get(rows.file);
    if (urls === undefined) {
      if (this.lineSingle.has(rows.file))
        throw new Error(`${rows.file}: counted again after its clicks were asked for`);
      urls = new Int32Array(1 << 12);
    }
    for (let i = 0; i < rows.n; i++) {
      const rec = rows.rec[i];
      let id = -1;
      if (rec !== undefined) {
        if (rec.clickUrl !== undefined) id = this.addClick(rec.clickUrl, rec.user);
      } else if (rows.urlEnd[i]! > rows.tab4[i]! + 1) id = this.addClick(rows.urlText(i), rows.user[i]!);
      if (id < 0) continue;
      const line = rows.line[i]!;
      if (line >= urls.length) urls = grown(urls, Math.max(urls.length * 2, line + 1));
      urls[line] = id + 1;
    }
    this.lineUrls.set(rows.file, urls);
    return this;
  }

  /** Count one click; returns its URL's index (-1 for an empty URL, which is not counted). */
  private addClick(url: string, user: string): number {
    if (url === "") return -1;
    if (this.single !== undefined) throw new Error("clicks counted after the counts were settled");
    const key = url.trim().toLowerCase();
    const id = this.ids.get(key);
    if (id === undefined) {
      this.ids.set(key, this.owner.length);
      this.owner.push(user);
      return this.owner.length - 1;
    }
    const seen = this.owner[id];
    if (seen !== null && seen !== user) this.owner[id] = null;
    return id;
  }

  /** Count a stream of raw row blocks (a first pass over an AOL log). */
  static async ofRows(blocks: AsyncIterable<RowBlock>): Promise<ClickUsers> {
    const c = new ClickUsers();
    for await (const b of blocks) c.addRows(b);
    return c;
  }

  /** Count a stream of batches (a first pass over a log). */
  static async of(batches: AsyncIterable<readonly LogRecord[]>): Promise<ClickUsers> {
    const c = new ClickUsers();
    for await (const b of batches) c.add(b);
    return c;
  }

  /** The URLs (trimmed, lower-cased) only one user clicked, one a line: all {@link singleUser} needs, to ship. */
  toLines(): string[] {
    if (this.single !== undefined) return [...this.single];
    const out: string[] = [];
    for (const [key, id] of this.ids) if (this.owner[id] !== null) out.push(key);
    return out;
  }

  /** Counts made by {@link toLines} (the names are not in them: see {@link NameUsers.toJSON}). */
  static fromLines(lines: Iterable<string>): ClickUsers {
    const c = new ClickUsers();
    c.single = new Set(lines);
    return c;
  }

  /** Whether exactly one user clicked `url` in the counted log. */
  singleUser(url: string): boolean {
    const key = url.trim().toLowerCase();
    if (this.single !== undefined) return this.single.has(key);
    const id = this.ids.get(key);
    return id !== undefined && this.owner[id] !== null;
  }

  /**
   * Counting is over: keep only what look-ups ask (the single-user URLs, each counted file's per-line verdicts,
   * each name's number of users) and let each URL's user state go. Counting more afterwards throws.
   */
  settle(): this {
    for (const file of [...this.lineUrls.keys()]) this.seal(file);
    if (this.single === undefined) {
      const single = new Set<string>();
      for (const [url, id] of this.ids) if (this.owner[id] !== null) single.add(url);
      this.single = single;
      this.ids = new Map();
      this.owner = [];
      this.lastUser = this.lastQuery = this.lastUrl = undefined;
    }
    this.names.settle();
    return this;
  }

  /**
   * {@link singleUser} of the click URL of row i, a line the reader kept as bytes, with a URL: by its line when its
   * file was counted by rows (the same file, read again), else by its URL.
   */
  singleUserRow(rows: RowBlock, i: number): boolean {
    const single = this.lineSingle.get(rows.file) ?? this.seal(rows.file);
    if (single === undefined) return this.singleUser(rows.urlText(i));
    const line = rows.line[i]!;
    return ((single[line >> 3] ?? 0) & (1 << (line & 7))) !== 0;
  }

  /** The per-line verdicts of a file counted by rows (its URL indexes are no longer needed); undefined if it was not. */
  private seal(file: string): Uint8Array | undefined {
    const urls = this.lineUrls.get(file);
    if (urls === undefined) return undefined;
    const single = new Uint8Array((urls.length >> 3) + 1);
    for (let line = 0; line < urls.length; line++) {
      const id = urls[line]! - 1;
      if (id >= 0 && this.owner[id] !== null) single[line >> 3]! |= 1 << (line & 7);
    }
    this.lineUrls.delete(file);
    this.lineSingle.set(file, single);
    return single;
  }
}

/** `record` without its click when only one user ever clicked its URL; the same object otherwise. */
export function dropSingleUserClick<R extends LogRecord>(record: R, clicks: ClickUsers): R {
  return clickDrop(record.clickUrl, [], clicks) === "singleUser" ? withoutClick(record) : record;
}
