/**
 * What travels on the streams: a batch of records with the ingest position it comes from, in a compact columnar
 * JSON (one array per field instead of one object per record; users and categories as indexes into the batch's own
 * dictionaries; clicks as a sparse list): 41% fewer bytes through NATS than one JSON object per record, and
 * cheaper to encode and decode at every batch size (research/bench/wire.bench.ts). A batch is a sequence of such JSON
 * texts of at most ~48k characters of field text each, so no string crosses the ~128 KiB past which V8 allocates
 * it in its large-object space and each row costs 3–4× as much to encode and decode. Records lose their source
 * position (a file line would re-link a released record to its input row).
 *
 * An ingest batch is split by classify shard where it enters ({@link encodeSegments}): one segment per shard, each
 * a columnar batch of that shard's records with their indexes in the ingest batch, published on the shard's own
 * subject, then a small commit ({@link encodeCommit}) naming the segments, whose ingest stream sequence is the
 * batch's input position (one per batch, whoever published it). Every shard reads every commit and fetches only
 * its own segment.
 */
import type { LogRecord } from "../log/record.ts";
import { classifyShardOf } from "./partition.ts";

export interface WireBatch {
  /** The ingest stream sequence of the batch these records come from (1, 2, 3, … in input order). */
  readonly inSeq: number;
  /** Last batch of the input: the anonymizer flushes after it. */
  readonly end?: true;
  /** The classify shard that sent this part of the ingest batch (absent with one shard). */
  readonly shard?: number;
  /** Each record's index in its ingest batch, so the parts of several shards merge back into input order. */
  readonly ix?: number[];
  readonly records: LogRecord[];
}

/**
 * What partition p's anonymizer released for input batch inSeq, published as `r.<p>.<inSeq>`. Record i of it has
 * the id `p<p>.<inSeq>.<i>`: implied by its position, the same on every replay, so it is not sent.
 */
export interface ReleasedBatch {
  readonly partition: number;
  readonly inSeq: number;
  readonly end?: true;
  readonly records: LogRecord[];
}

type AnyBatch = WireBatch | ReleasedBatch | Segment;

/** The columnar form. Optional columns are absent when no record of the batch has the field. */
interface Columns {
  inSeq?: number;
  partition?: number;
  end?: true;
  shard?: number;
  ix?: number[];
  /** Users, as indexes into `users`. */
  u: number[];
  users: string[];
  q: string[];
  t: number[];
  /** Categories as indexes into `cats`; -1 = none. */
  c?: number[];
  cats?: string[];
  /** Units; null = none. */
  un?: (string | null)[];
  /** Clicks: [record index, rank or null, URL or null]. */
  k?: [number, number | null, string | null][];
}

const enc = new TextEncoder();
const dec = new TextDecoder();

function indexer(): { ix(s: string): number; values: string[] } {
  const map = new Map<string, number>();
  const values: string[] = [];
  return {
    values,
    ix(s) {
      let i = map.get(s);
      if (i === undefined) {
        i = values.length;
        values.push(s);
        map.set(s, i);
      }
      return i;
    },
  };
}

/** The columnar JSON text of the batch's rows `from` to `to` (exclusive), with the batch's fields. */
function encodeChunk(batch: AnyBatch, from: number, to: number): string {
  const records = batch.records.slice(from, to);
  const users = indexer();
  const cats = indexer();
  const n = records.length;
  const u = new Array<number>(n);
  const q = new Array<string>(n);
  const t = new Array<number>(n);
  const c = new Array<number>(n);
  const un = new Array<string | null>(n);
  const k: [number, number | null, string | null][] = [];
  let anyCat = false;
  let anyUnit = false;
  for (let i = 0; i < n; i++) {
    const r = records[i]!;
    u[i] = users.ix(r.user);
    q[i] = r.query;
    t[i] = r.time;
    if (r.category === undefined) c[i] = -1;
    else {
      c[i] = cats.ix(r.category);
      anyCat = true;
    }
    if (r.unit === undefined) un[i] = null;
    else {
      un[i] = r.unit;
      anyUnit = true;
    }
    if (r.itemRank !== undefined || r.clickUrl !== undefined)
      k.push([i, r.itemRank ?? null, r.clickUrl ?? null]);
  }
  const cols: Columns = { u, users: users.values, q, t };
  if ("inSeq" in batch) cols.inSeq = batch.inSeq;
  if ("partition" in batch) cols.partition = batch.partition;
  if ("shard" in batch && batch.shard !== undefined) cols.shard = batch.shard;
  if ("ix" in batch && batch.ix !== undefined) cols.ix = batch.ix.slice(from, to);
  if ("end" in batch && batch.end) cols.end = true;
  if (anyCat) {
    cols.c = c;
    cols.cats = cats.values;
  }
  if (anyUnit) cols.un = un;
  if (k.length > 0) cols.k = k;
  return JSON.stringify(cols);
}

function decodeChunk(text: string): Columns & { records: LogRecord[] } {
  const cols = JSON.parse(text) as Columns;
  const { u, users, q, t, c, cats, un, k } = cols;
  const records = new Array<LogRecord>(u.length);
  const clicks = k ?? [];
  let next = 0; // clicks are in record order
  for (let i = 0; i < u.length; i++) {
    const r: LogRecord = { user: users[u[i]!]!, query: q[i]!, time: t[i]! };
    const click = clicks[next];
    if (click !== undefined && click[0] === i) {
      next++;
      if (click[1] !== null) r.itemRank = click[1];
      if (click[2] !== null) r.clickUrl = click[2];
    }
    if (c !== undefined && c[i]! >= 0) r.category = cats![c[i]!]!;
    const unit = un?.[i];
    if (unit !== undefined && unit !== null) r.unit = unit;
    records[i] = r;
  }
  return Object.assign(cols, { records });
}

/**
 * Rows of text per chunk, about: a JSON text over ~128 KiB is a string V8 allocates in its large-object space, and
 * encoding or decoding one costs 3–4× as much per row as two smaller ones (research/bench/wire.bench.ts), so a batch is
 * encoded as a sequence of chunks of at most this many characters of field text each.
 */
const CHUNK_CHARS = 48 * 1024;
/** The first byte of a batch: chunked columnar. */
const CHUNKED = 0x02;

/** A batch as chunks of columnar JSON: marker byte, chunk count (uint32), each chunk's byte length (uint32), the chunks. */
export function encode(batch: AnyBatch): Uint8Array {
  const { records } = batch;
  const texts: Uint8Array[] = [];
  let from = 0;
  let chars = 0;
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    chars += r.user.length + r.query.length + (r.clickUrl?.length ?? 0) + (r.unit?.length ?? 0) + 24;
    if (chars >= CHUNK_CHARS) {
      texts.push(enc.encode(encodeChunk(batch, from, i + 1)));
      from = i + 1;
      chars = 0;
    }
  }
  if (from < records.length || texts.length === 0)
    texts.push(enc.encode(encodeChunk(batch, from, records.length)));
  const head = 5 + 4 * texts.length;
  const out = new Uint8Array(head + texts.reduce((a, t) => a + t.length, 0));
  const view = new DataView(out.buffer);
  out[0] = CHUNKED;
  view.setUint32(1, texts.length);
  let at = head;
  texts.forEach((t, c) => {
    view.setUint32(5 + 4 * c, t.length);
    out.set(t, at);
    at += t.length;
  });
  return out;
}

export function decode<T extends AnyBatch>(data: Uint8Array): T {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (data.length < 5 || data[0] !== CHUNKED) throw new Error("not a batch of the cluster's wire format");
  const n = view.getUint32(1);
  let at = 5 + 4 * n;
  let first: (Columns & { records: LogRecord[] }) | undefined;
  const records: LogRecord[] = [];
  let ix: number[] | undefined;
  for (let c = 0; c < n; c++) {
    const len = view.getUint32(5 + 4 * c);
    const chunk = decodeChunk(dec.decode(data.subarray(at, at + len)));
    at += len;
    first ??= chunk;
    for (const r of chunk.records) records.push(r);
    if (chunk.ix !== undefined) ix = ix === undefined ? chunk.ix : ix.concat(chunk.ix);
  }
  const cols = first!;
  const out: {
    inSeq?: number;
    partition?: number;
    end?: true;
    shard?: number;
    ix?: number[];
    records: LogRecord[];
  } = { records };
  if (cols.inSeq !== undefined) out.inSeq = cols.inSeq;
  if (cols.partition !== undefined) out.partition = cols.partition;
  if (cols.end) out.end = true;
  if (cols.shard !== undefined) out.shard = cols.shard;
  if (ix !== undefined) out.ix = ix;
  return out as T;
}

/**
 * An ingest batch split by classify shard (`classifyShardOf(query, shards)`): segment s holds shard s's records
 * with their indexes in the batch (absent with one shard: 0, 1, 2, …), so the anonymizers can restore input order;
 * undefined for a shard with no records (nothing is published for it). Each segment travels on its shard's own
 * subject; the batch's commit ({@link encodeCommit}) names them.
 */
export function encodeSegments(records: readonly LogRecord[], shards: number): (Uint8Array | undefined)[] {
  if (!Number.isInteger(shards) || shards < 1 || shards > 0xffff)
    throw new Error(`bad shard count ${shards}`);
  const parts: LogRecord[][] = Array.from({ length: shards }, () => []);
  const ixs: number[][] = Array.from({ length: shards }, () => []);
  records.forEach((r, i) => {
    const s = classifyShardOf(r.query, shards);
    parts[s]!.push(r);
    ixs[s]!.push(i);
  });
  return parts.map((part, s) =>
    part.length === 0 ? undefined : encode({ ...(shards > 1 ? { ix: ixs[s]! } : {}), records: part }),
  );
}

/** One shard's segment of an ingest batch: its records and their indexes in the batch (absent: one shard). */
export interface Segment {
  readonly ix?: number[];
  readonly records: LogRecord[];
}

export const decodeSegment = (data: Uint8Array): Segment => decode<Segment>(data);

/**
 * The commit of an ingest batch, the message on the ingest stream whose sequence is the batch's input position:
 * the end mark and, per classify shard, the segment stream's sequence of that shard's segment (0 = the shard has
 * no records in this batch). Published after its segments are stored, so a batch whose publisher died half-way
 * has no commit and no stage ever reads its segments: nothing of it is half-applied.
 */
export interface Commit {
  readonly end?: true;
  readonly segments: readonly number[];
}

/** The first byte of a commit. */
const COMMIT = 0x03;
/** Marker byte, flags byte (bit 0 = end), shard count (uint16), then each segment's sequence (float64). */
export function encodeCommit(commit: Commit): Uint8Array {
  const n = commit.segments.length;
  const out = new Uint8Array(4 + 8 * n);
  const view = new DataView(out.buffer);
  out[0] = COMMIT;
  out[1] = commit.end ? 1 : 0;
  view.setUint16(2, n);
  commit.segments.forEach((seq, s) => {
    view.setFloat64(4 + 8 * s, seq);
  });
  return out;
}

/** A commit of a run with `shards` classify shards (one of another shard count is refused). */
export function decodeCommit(data: Uint8Array, shards: number): Commit {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (data.length < 4 || data[0] !== COMMIT)
    throw new Error("ingest message is not a batch commit (published by an older ingest?)");
  const n = view.getUint16(2);
  if (n !== shards) throw new Error(`ingest batch is split into ${n} classify shards, the run has ${shards}`);
  if (data.length !== 4 + 8 * n) throw new Error(`ingest commit of ${data.length} bytes for ${n} shards`);
  const segments = Array.from({ length: n }, (_, s) => view.getFloat64(4 + 8 * s));
  return { ...(data[1]! & 1 ? { end: true as const } : {}), segments };
}
