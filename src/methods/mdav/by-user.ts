/**
 * Semantic MDAV read one user at a time (`Method.anonymizeByUser`): the release of {@link semanticMicroaggregation}
 * on a log grouped by user, byte for byte, without holding the log.
 *
 *  1. First pass, one user at a time: her query events are mapped (the batch path's `mapLogs`, in the same order)
 *     into her profile, kept packed, with its dominant category path (the blocked variant's sort key), and every
 *     mapped event joins its categories' event lists (the pool). Only event numbers are kept, no text.
 *  2. The partition (exact, or blocks of profiles made one block at a time), then each cluster's representative
 *     and its picked events (the same Rng derivations as the batch path).
 *  3. Second pass: the rows of the picked events only, held column-wise (texts as bytes in an arena), since a
 *     cluster's synthetic log draws from anywhere in the log.
 *  4. Each user's cluster log, users in log order (the batch path's first-appearance order, since each user's rows
 *     are together), is written to the sink.
 *
 * Memory: the pool, the packed profiles and the picked rows (typed arrays, outside the JS heap), one block's
 * profiles, and the users' ids; not the log's records.
 */
import { groupEvents } from "../../log/events.ts";
import type { LogRecord } from "../../log/record.ts";
import type { ConceptMapper } from "../../semantic/concept-mapper.ts";
import { type Profile, profileOf } from "../../semantic/profile.ts";
import type { Progress } from "../../util/progress.ts";
import type { Rng } from "../../util/random.ts";
import type { Release, ReleaseSink, UserPasses } from "../method.ts";
import { cutBlocks, dominantPath } from "./blocking.ts";
import { effectiveVariant } from "./index.ts";
import { checkClusterK } from "./limits.ts";
import type { MdavParams } from "./meta.ts";
import { partitionBlocks, partitionsWhole, semanticPartition } from "./partition.ts";
import { representativeCategories } from "./representative.ts";

/** Int32 values appended one at a time (grown by half, so at most a third is slack). */
class Ints {
  data: Int32Array;
  length = 0;
  constructor(capacity = 16) {
    this.data = new Int32Array(capacity);
  }
  push(x: number): void {
    if (this.length === this.data.length) {
      const more = new Int32Array(Math.max(16, Math.ceil(this.data.length * 1.5)));
      more.set(this.data);
      this.data = more;
    }
    this.data[this.length++] = x;
  }
  /** The values, trimmed to their length (a copy only when there is slack). */
  trimmed(): Int32Array {
    return this.length === this.data.length ? this.data : this.data.slice(0, this.length);
  }
}

/** Float64 values appended one at a time. */
class Floats {
  data = new Float64Array(16);
  length = 0;
  push(x: number): void {
    if (this.length === this.data.length) {
      const more = new Float64Array(Math.ceil(this.data.length * 1.5));
      more.set(this.data);
      this.data = more;
    }
    this.data[this.length++] = x;
  }
}

/**
 * Strings kept as bytes: one-byte (Latin-1) strings in chunks of a Buffer, length-prefixed; any other string
 * (rare: a character above U+00FF) as itself. A string kept this way holds no part of the line it was read from.
 */
class Texts {
  private static readonly CHUNK = 1 << 24;
  private readonly chunks: Buffer[] = [];
  private used = Texts.CHUNK;
  private readonly wide: string[] = [];

  /** A reference to `s`, for {@link get}. */
  add(s: string): number {
    // Above 2^31 − 1: an index into `wide`.
    if (s.length > 0xffff || !ONE_BYTE.test(s)) {
      this.wide.push(s);
      return -this.wide.length;
    }
    const need = 2 + s.length;
    if (this.used + need > Texts.CHUNK) {
      if (this.chunks.length >= 127) throw new RangeError("mdav: more than 2 GiB of held query texts");
      this.chunks.push(Buffer.allocUnsafe(Texts.CHUNK));
      this.used = 0;
    }
    const chunk = this.chunks[this.chunks.length - 1]!;
    const at = this.used;
    chunk[at] = s.length & 0xff;
    chunk[at + 1] = s.length >>> 8;
    chunk.write(s, at + 2, "latin1");
    this.used += need;
    return (this.chunks.length - 1) * Texts.CHUNK + at;
  }

  get(ref: number): string {
    if (ref < 0) return this.wide[-ref - 1]!;
    const chunk = this.chunks[Math.floor(ref / Texts.CHUNK)]!;
    const at = ref % Texts.CHUNK;
    const length = chunk[at]! | (chunk[at + 1]! << 8);
    return chunk.toString("latin1", at + 2, at + 2 + length);
  }
}
const ONE_BYTE = /^[\u0000-\u00ff]*$/;

/** The optional fields of a record, each kept as absent, present but undefined, or a value (two bits each). */
const FIELDS = ["itemRank", "clickUrl", "category", "unit"] as const;
const KNOWN = new Set<string>(["user", "query", "time", "source", ...FIELDS]);

/**
 * The rows of the picked events, column-wise, events in log order. A row whose shape the columns cannot hold
 * exactly (another field, a rank that is not an int32) is kept as an object.
 */
class HeldRows {
  /** Per event: its query, time, first input row, and first held row (`rowStart[e + 1]` ends it). */
  readonly query = new Ints();
  readonly time = new Floats();
  readonly first = new Floats();
  readonly rowStart = new Ints();
  /** Per row: the field codes, the rank and the texts' references. */
  private readonly shape = new Ints();
  private readonly rank = new Ints();
  private readonly url = new Ints();
  private readonly extra = new Map<number, { category?: number; unit?: number }>();
  private readonly odd = new Map<number, Omit<LogRecord, "source">>();
  private readonly texts = new Texts();

  addEvent(block: readonly LogRecord[], from: number, rows: number, firstRow: number): void {
    const r0 = block[from]!;
    this.query.push(this.texts.add(r0.query));
    this.time.push(r0.time);
    this.first.push(firstRow);
    this.rowStart.push(this.shape.length);
    for (let i = from; i < from + rows; i++) this.addRow(block[i]!);
  }

  /** Close the last event (call once, after the last {@link addEvent}). */
  finish(): void {
    this.rowStart.push(this.shape.length);
  }

  private addRow(r: LogRecord): void {
    const row = this.shape.length;
    let code = 0;
    let plain = true;
    for (const key of Object.keys(r)) if (!KNOWN.has(key)) plain = false;
    FIELDS.forEach((key, i) => {
      if (!Object.hasOwn(r, key)) return;
      const v = r[key];
      if (v === undefined) code |= 1 << (2 * i);
      else code |= 2 << (2 * i);
    });
    const rank = r.itemRank;
    if (rank !== undefined && !((rank | 0) === rank && !Object.is(rank, -0))) plain = false;
    for (const key of ["clickUrl", "category", "unit"] as const) {
      const v = r[key];
      if (v !== undefined && typeof v !== "string") plain = false;
    }
    if (!plain) {
      const { source: _source, ...copy } = r;
      this.odd.set(row, copy);
      this.shape.push(-1);
      this.rank.push(0);
      this.url.push(0);
      return;
    }
    this.shape.push(code);
    this.rank.push(rank ?? 0);
    this.url.push(r.clickUrl === undefined ? 0 : this.texts.add(r.clickUrl));
    if (r.category !== undefined || r.unit !== undefined) {
      this.extra.set(row, {
        ...(r.category !== undefined ? { category: this.texts.add(r.category) } : {}),
        ...(r.unit !== undefined ? { unit: this.texts.add(r.unit) } : {}),
      });
    }
  }

  /** Held row `row` of event `e`, as the batch release copies it (no source), under `user`. */
  record(e: number, row: number, user: string): LogRecord {
    const code = this.shape.data[row]!;
    if (code < 0) return { ...this.odd.get(row)!, user };
    const out: LogRecord = { user, query: this.texts.get(this.query.data[e]!), time: this.time.data[e]! };
    const extra = this.extra.get(row);
    for (let i = 0; i < FIELDS.length; i++) {
      const c = (code >>> (2 * i)) & 3;
      if (c === 0) continue;
      const key = FIELDS[i]!;
      if (c === 1) {
        out[key] = undefined;
        continue;
      }
      if (key === "itemRank") out.itemRank = this.rank.data[row]!;
      else if (key === "clickUrl") out.clickUrl = this.texts.get(this.url.data[row]!);
      else out[key] = this.texts.get(extra![key]!);
    }
    return out;
  }
}

/** Users' profiles, packed: categories and weights of user u at `off[u]…off[u + 1]`. */
class PackedProfiles {
  readonly cats = new Ints();
  readonly weights = new Ints();
  readonly off = new Ints();
  /** Dominant category paths, packed alike. */
  readonly paths = new Ints();
  readonly pathOff = new Ints();
  constructor() {
    this.off.push(0);
    this.pathOff.push(0);
  }

  add(p: Profile, path: readonly number[]): void {
    for (let i = 0; i < p.cats.length; i++) {
      this.cats.push(p.cats[i]!);
      this.weights.push(p.weights[i]!);
    }
    this.off.push(this.cats.length);
    for (const c of path) this.paths.push(c);
    this.pathOff.push(this.paths.length);
  }

  get size(): number {
    return this.off.length - 1;
  }

  /** User u's profile, in arrays of its own (so a worker thread is sent only them). */
  profile(u: number): Profile {
    const from = this.off.data[u]!;
    const to = this.off.data[u + 1]!;
    const weights = Float64Array.from(this.weights.data.subarray(from, to));
    let total = 0;
    for (const w of weights) total += w;
    return { cats: this.cats.data.slice(from, to), weights, total };
  }

  /** `comparePaths` of users a and b's dominant paths, read in place (the sort makes ~20 comparisons a user). */
  comparePaths(a: number, b: number): number {
    const p = this.paths.data;
    const off = this.pathOff.data;
    const fa = off[a]!;
    const fb = off[b]!;
    const la = off[a + 1]! - fa;
    const lb = off[b + 1]! - fb;
    for (let i = 0; i < Math.min(la, lb); i++) if (p[fa + i] !== p[fb + i]) return p[fa + i]! - p[fb + i]!;
    return la - lb;
  }
}

/** {@link semanticMicroaggregation} on a log read by user; released rows go to `out` (or into the result). */
export async function mdavByUser(
  log: UserPasses,
  params: MdavParams,
  mapper: ConceptMapper,
  rng: Rng,
  out: ReleaseSink | undefined,
  progress?: Progress,
  warn?: (message: string) => void,
  exactLimit?: number,
): Promise<Release> {
  const space = mapper.space;
  const profiles = new PackedProfiles();
  const pool = new Map<number, Ints>();
  let unmapped = 0;
  let events = 0;
  // The first record of each of the first k users: what the batch path's check of k against the users reads.
  const firstRecords: LogRecord[] = [];
  progress?.start("mdav: mapping the users' queries, one user at a time");
  for await (const block of log.pass()) {
    if (firstRecords.length < params.k && block.length > 0) firstRecords.push(block[0]!);
    const cats: number[] = [];
    let any = false;
    for (const ev of groupEvents(block)) {
      if (ev.query === "") continue;
      any = true;
      const e = events++;
      const ids = mapper.map(ev.query);
      if (ids.length === 0) unmapped++;
      for (const c of ids) {
        cats.push(c);
        let list = pool.get(c);
        if (!list) {
          list = new Ints(4);
          pool.set(c, list);
        }
        list.push(e);
      }
    }
    // A user with no query (only next-page requests) is not one of the batch path's users.
    if (any) {
      const p = profileOf(cats);
      profiles.add(p, dominantPath(space, p));
    }
    progress?.tick(block.length);
  }
  progress?.stop();
  if (events > 0x7fffffff) throw new RangeError("mdav: more than 2^31 query events");
  checkClusterK("mdav", params.k, firstRecords);

  const n = profiles.size;
  const { variant, note } = effectiveVariant(params.variant, n, exactLimit);
  if (note) warn?.(note);
  const opts = { k: params.k, variant, blockSize: params.block, workers: params.workers, progress };
  const clusters = partitionsWhole(opts, n)
    ? await semanticPartition(
        space,
        Array.from({ length: n }, (_, u) => profiles.profile(u)),
        opts,
      )
    : await partitionBlocks(
        space,
        cutBlocks(n, (a, b) => profiles.comparePaths(a, b), params.block, 2 * params.k),
        (u) => profiles.profile(u),
        opts,
      );

  // Each cluster's picked events (with repetitions), packed: cluster c's at synOff[c]…synOff[c + 1].
  const synOff = new Float64Array(clusters.length + 1);
  const picked = new Ints();
  clusters.forEach((members, c) => {
    const cats = representativeCategories(
      space,
      Array.from(members, (u) => profiles.profile(u)),
    );
    pickEvents(cats, pool, rng.derive(`cluster ${c}`), picked);
    synOff[c + 1] = picked.length;
  });
  pool.clear();
  const clusterOf = new Int32Array(n).fill(-1);
  clusters.forEach((members, c) => {
    for (let i = 0; i < members.length; i++) clusterOf[members[i]!] = c;
  });
  const sizes = clusters.length;
  const meanSize = sizes ? picked.length / sizes : 0;

  // The distinct picked events, ascending; each pick then becomes its index there.
  const picks = picked.trimmed();
  const wanted = uniqueSorted(picks);
  for (let i = 0; i < picks.length; i++) picks[i] = lowerBound(wanted, picks[i]!);

  const held = new HeldRows();
  // The users' ids as bytes, so that no id holds on to the line it was read from.
  const ids = new Texts();
  const users = new Ints();
  {
    let e = 0;
    let next = 0;
    let row = 0;
    progress?.start("mdav: collecting the picked queries' rows");
    for await (const block of log.pass()) {
      let any = false;
      for (const ev of groupEvents(block)) {
        if (ev.query === "") continue;
        any = true;
        if (next < wanted.length && wanted[next] === e) {
          held.addEvent(block, ev.first, ev.rows, row + ev.first);
          next++;
        }
        e++;
      }
      if (any) users.push(ids.add(block[0]!.user));
      row += block.length;
      progress?.tick(block.length);
    }
    progress?.stop();
    held.finish();
    if (users.length !== n || next !== wanted.length) {
      throw new Error("mdav: the log read by user changed between passes");
    }
  }
  // Each cluster's events by time (ties: log order), as the batch release sorts them.
  const time = held.time.data;
  for (let c = 0; c < clusters.length; c++) {
    picks.subarray(synOff[c]!, synOff[c + 1]!).sort((a, b) => time[a]! - time[b]! || a - b);
  }

  const kept: LogRecord[] | undefined = out === undefined ? [] : undefined;
  const origin = new Ints();
  let released = 0;
  let empty = 0;
  let small = 0;
  const rowStart = held.rowStart.data;
  const first = held.first.data;
  progress?.start("mdav: writing each user's cluster log");
  for (let u = 0; u < n; u++) {
    const c = clusterOf[u]!;
    if (c >= 0 && clusters[c]!.length < params.k) {
      small++;
      continue;
    }
    const from = c >= 0 ? synOff[c]! : 0;
    const to = c >= 0 ? synOff[c + 1]! : 0;
    const rows: LogRecord[] = [];
    const user = from < to ? ids.get(users.data[u]!) : "";
    for (let i = from; i < to; i++) {
      const e = picks[i]!;
      for (let r = rowStart[e]!; r < rowStart[e + 1]!; r++) {
        rows.push(held.record(e, r, user));
        if (kept) origin.push(first[e]! + r - rowStart[e]!);
      }
    }
    if (rows.length === 0) {
      empty++;
      continue;
    }
    released += rows.length;
    if (kept) for (const r of rows) kept.push(r);
    else {
      const behind = out!.write(rows);
      if (behind) await behind;
    }
  }
  progress?.stop();
  return {
    ...(kept
      ? {
          log: { records: kept, format: log.format ?? "aol", classified: log.classified },
          origin: origin.trimmed(),
        }
      : {}),
    counts: {
      users: n,
      clusters: clusters.length,
      "released rows": released,
      "mean synthetic queries per cluster": meanSize,
      "users with an empty log": empty,
      "users suppressed (fewer than k users)": small,
      "queries not mapped to ODP": unmapped,
      ...(note ? { "exact variant too large: blocked variant used": 1 } : {}),
    },
    guarantee: { model: "k-anonymity", k: params.k },
  };
}

/** `pickQueries` of ./representative.ts into `into`: one random event of each category, the same draws. */
function pickEvents(
  categories: readonly number[],
  pool: ReadonlyMap<number, Ints>,
  rng: Rng,
  into: Ints,
): void {
  for (const c of categories) {
    const events = pool.get(c);
    if (!events || events.length === 0) throw new Error(`mdav: no query of category ${c} to pick`);
    into.push(events.data[rng.int(events.length)]!);
  }
}

function uniqueSorted(values: Int32Array): Int32Array {
  const sorted = values.slice().sort();
  let w = 0;
  for (let i = 0; i < sorted.length; i++)
    if (i === 0 || sorted[i] !== sorted[w - 1]) sorted[w++] = sorted[i]!;
  return sorted.slice(0, w);
}

function lowerBound(sorted: Int32Array, x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
