/**
 * What travels on the streams: a batch of records as JSON, with the ingest position it comes from. Records lose
 * their source position (a file line would re-link a released record to its input row).
 */
import type { LogRecord } from "../log/record.ts";

export interface WireBatch {
  /** The ingest stream sequence of the batch these records come from (1, 2, 3, … in input order). */
  readonly inSeq: number;
  /** Last batch of the input: the anonymizer flushes after it. */
  readonly end?: true;
  readonly records: LogRecord[];
}

export interface ReleasedBatch {
  readonly partition: number;
  readonly inSeq: number;
  readonly end?: true;
  /** Deterministic record ids `p<partition>.<inSeq>.<index>`, parallel to `records`. */
  readonly ids: string[];
  readonly records: LogRecord[];
}

const enc = new TextEncoder();
const dec = new TextDecoder();

function strip(r: LogRecord): LogRecord {
  if (r.source === undefined) return r;
  const { source: _, ...rest } = r;
  return rest;
}

export function encode(value: WireBatch | ReleasedBatch | { end?: true; records: LogRecord[] }): Uint8Array {
  return enc.encode(JSON.stringify({ ...value, records: value.records.map(strip) }));
}

export function decode<T>(data: Uint8Array): T {
  return JSON.parse(dec.decode(data)) as T;
}

/** The id of a released record: stable across replays of the same input. */
export function recordId(partition: number, inSeq: number, index: number): string {
  return `p${partition}.${inSeq}.${index}`;
}
