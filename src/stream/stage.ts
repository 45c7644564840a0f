/**
 * A streaming pipeline stage: batches of records in, batches out, its whole state serializable. The embedded
 * runner (one process) and a distributed runner (NATS JetStream workers with crash recovery) drive the same
 * stage code, in the spirit of PipelineDP's backend abstraction.
 */
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
