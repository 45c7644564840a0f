/**
 * A streaming pipeline stage: batches of records in, batches out, its whole state serializable. The embedded
 * runner (one process) and a distributed runner (NATS JetStream workers with crash recovery) drive the same
 * stage code, in the spirit of PipelineDP's backend abstraction.
 */
import { createHash } from "node:crypto";
import type { LogRecord } from "../log/record.ts";

export interface Stage<S = unknown> {
  /** Consume a batch; return the records this batch caused to be released (possibly none). */
  push(batch: readonly LogRecord[]): LogRecord[];
  /** End of stream: release or suppress whatever is still held, per the stage's documented policy. */
  flush(): LogRecord[];
  /** The whole state (buffers, parameters that evolve such as k, PRNG state), JSON-serializable. */
  snapshot(): S;
  /** What the stage did so far, for the summary. */
  counts(): Record<string, number>;
}

/** Run a stage over a stream of batches (the embedded mode). */
export async function* runStage(
  stage: Stage,
  input: AsyncIterable<LogRecord[]>,
): AsyncGenerator<LogRecord[]> {
  for await (const batch of input) {
    const out = stage.push(batch);
    if (out.length > 0) yield out;
  }
  const rest = stage.flush();
  if (rest.length > 0) yield rest;
}

/*
 * The contract a second runtime needs to drive a stage: a snapshot envelope with a schema version and the input
 * position it covers, checked on restore, and deterministic ids for what a stage releases. The embedded service
 * (`serve --state`) and the cluster's anonymizers both use these, so there is one definition of each.
 */

/** The envelope's schema version. A snapshot of another version is refused, never guessed at. */
export const STAGE_SNAPSHOT_VERSION = 1;
const FORMAT = "querymask-stage-snapshot";

/** What a snapshot is of: checked on restore against what the runtime is about to run. */
export interface SnapshotScope {
  /** The method whose stage state it holds. */
  readonly method: string;
  /** Which stage(s) of the run: "partition 3", "2 partitions" … */
  readonly scope: string;
}

export interface SnapshotHeader<P> extends SnapshotScope {
  readonly format: typeof FORMAT;
  readonly version: number;
  /** The input position the state covers: everything before it is in the state, nothing after it. */
  readonly position: P;
  /** SHA-256 of the state's JSON text: a snapshot damaged or edited in place is refused. */
  readonly digest: string;
}

/** A snapshot that cannot be restored: the message says which and why. */
export class SnapshotError extends Error {
  override readonly name = "SnapshotError";
}

/**
 * The snapshot as text: the header's JSON, a newline, the state's JSON (JSON text never holds a raw newline, so
 * the first one splits them). The digest is over the state's text as written, so no canonical form is needed.
 */
export function sealSnapshot<P>(scope: SnapshotScope, position: P, state: unknown): string {
  const body = JSON.stringify(state);
  const header: SnapshotHeader<P> = {
    format: FORMAT,
    version: STAGE_SNAPSHOT_VERSION,
    method: scope.method,
    scope: scope.scope,
    position,
    digest: createHash("sha256").update(body).digest("hex"),
  };
  return `${JSON.stringify(header)}\n${body}`;
}

/**
 * Open a sealed snapshot for `expect`: its format, schema version, method, scope and digest are checked and the
 * position by `isPosition`; anything else is a {@link SnapshotError} naming `what` (e.g. the file or key).
 */
export function openSnapshot<P>(
  text: string,
  expect: SnapshotScope,
  isPosition: (p: unknown) => p is P,
  what = "snapshot",
): { position: P; state: unknown } {
  const refuse = (why: string): never => {
    throw new SnapshotError(`${what}: ${why}; not restored`);
  };
  const nl = text.indexOf("\n");
  let header: Partial<SnapshotHeader<unknown>> | undefined;
  try {
    header = JSON.parse(nl < 0 ? text : text.slice(0, nl)) as Partial<SnapshotHeader<unknown>>;
  } catch {
    // not JSON: refused below
  }
  if (header === null || typeof header !== "object" || header.format !== FORMAT || nl < 0)
    return refuse(`not a querymask stage snapshot`);
  if (header.version !== STAGE_SNAPSHOT_VERSION)
    return refuse(
      `schema version ${String(header.version)}, this querymask reads version ${STAGE_SNAPSHOT_VERSION}`,
    );
  if (header.method !== expect.method)
    return refuse(`holds a ${String(header.method)} stage, this run is ${expect.method}`);
  if (header.scope !== expect.scope) return refuse(`is of ${String(header.scope)}, not ${expect.scope}`);
  if (!isPosition(header.position))
    return refuse(`its input position ${JSON.stringify(header.position)} is malformed`);
  const body = text.slice(nl + 1);
  if (createHash("sha256").update(body).digest("hex") !== header.digest)
    return refuse("damaged or edited: its state does not match its digest");
  return { position: header.position, state: JSON.parse(body) as unknown };
}

/**
 * The id of the records stage `partition` released while consuming input batch `position` (ingest stream
 * sequence in the cluster, request number in the service): a batch id, and record i of it `<batch id>.<i>`. A
 * replay from a snapshot consumes the same batches with the same state, so it releases the same records under
 * the same ids, which the sinks drop as duplicates.
 */
export const releasedBatchId = (partition: number, position: number): string => `r.${partition}.${position}`;
export const releasedRecordId = (partition: number, position: number, index: number): string =>
  `p${partition}.${position}.${index}`;
