/**
 * What travels on the streams: a batch of records with the ingest position it comes from, in a compact columnar
 * JSON (one array per field instead of one object per record; users and categories as indexes into the batch's own
 * dictionaries; clicks as a sparse list). Against one JSON object per record it halves the bytes through NATS and
 * the time to encode and decode (bench/cluster.bench.ts). Records lose their source position (a file line would
 * re-link a released record to its input row).
 */
import type { LogRecord } from "../log/record.ts";

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

/** An ingest batch before the stream has given it a position. */
export interface IngestBatch {
  readonly end?: true;
  readonly records: LogRecord[];
}

type AnyBatch = WireBatch | ReleasedBatch | IngestBatch;

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

export function encode(batch: AnyBatch): Uint8Array {
  const { records } = batch;
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
  if ("ix" in batch && batch.ix !== undefined) cols.ix = batch.ix;
  if (batch.end) cols.end = true;
  if (anyCat) {
    cols.c = c;
    cols.cats = cats.values;
  }
  if (anyUnit) cols.un = un;
  if (k.length > 0) cols.k = k;
  return enc.encode(JSON.stringify(cols));
}

export function decode<T extends AnyBatch>(data: Uint8Array): T {
  const cols = JSON.parse(dec.decode(data)) as Columns;
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
  if (cols.ix !== undefined) out.ix = cols.ix;
  return out as T;
}
