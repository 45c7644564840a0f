/**
 * A log read one user at a time. AOL ships its rows grouped by user (then by time), and `querymask generate`
 * writes them so: a method that needs each user's whole history but never two users' at once (dp's contribution
 * bound) can then hold one user's rows instead of the log.
 */
import type { LogRecord } from "./record.ts";

/** A user's rows appear again after another user's: the log is not grouped by user. */
export class NotGroupedByUser extends Error {
  constructor(
    /** `file:line` of the row that showed it (or "row N" when the records carry no source). */
    readonly where: string,
  ) {
    super(
      `${where}: this user's rows appeared earlier, before another user's: the log is not grouped by user`,
    );
    this.name = "NotGroupedByUser";
  }
}

/**
 * Each user's records as one block, users in the order the log gives them. Throws {@link NotGroupedByUser} at
 * the first record of a user whose block has already ended.
 */
export async function* userBlocks(batches: AsyncIterable<readonly LogRecord[]>): AsyncGenerator<LogRecord[]> {
  const ended = new Set<string>();
  let block: LogRecord[] = [];
  let row = 0;
  for await (const batch of batches) {
    for (const r of batch) {
      row++;
      if (block.length > 0 && r.user !== block[0]!.user) {
        ended.add(block[0]!.user);
        yield block;
        block = [];
      }
      if (block.length === 0 && ended.has(r.user)) {
        throw new NotGroupedByUser(r.source ? `${r.source.file}:${r.source.line}` : `row ${row}`);
      }
      block.push(r);
    }
  }
  if (block.length > 0) yield block;
}
