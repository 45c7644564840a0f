/** A batch method's partial sums of a whole log computed in one process, and a check of PostgreSQL's against them. */
import assert from "node:assert/strict";
import type pg from "pg";
import { shardPartials } from "../../src/cluster/batch-shard.ts";
import { openLog } from "../../src/log/read.ts";
import type { LogRecord } from "../../src/log/record.ts";
import { PartialTable, type UserAdder } from "../../src/methods/sharded.ts";
import { emptyCounts } from "../../src/scrub/scrub-log.ts";
import { scrubbedPasses } from "../../src/stream/user-passes.ts";

/** The sums of `add` over the log at `logPath` (scrubbed as the workers scrub it), as one shard. */
export async function wholeLogSums(
  logPath: string,
  add: UserAdder,
  singleUserClicks: boolean,
): Promise<PartialTable> {
  const first = await openLog([logPath], { lenient: true });
  const passes = await scrubbedPasses(first, [logPath], { counts: emptyCounts(), singleUserClicks });
  const files = new Map(first.files.map((f, i) => [f, i]));
  const order = (r: LogRecord) => files.get(r.source!.file)! * 2 ** 32 + r.source!.line;
  const all = new PartialTable();
  await shardPartials(passes, add, { shard: 0, shards: 1, batchUsers: 1e9 }, order, async (_b, t) => {
    for (const r of t.rows()) all.add(r.kind, r.key, r.key2, r.a, r.b, r.first);
  });
  return all;
}

/** PostgreSQL's sums (`qm_batch_sum`) are `whole`'s rows, each once. */
export async function assertSums(db: pg.Client, whole: PartialTable): Promise<void> {
  const want = new Map(whole.rows().map((r) => [`${r.kind}\u0000${r.key}\u0000${r.key2}`, r]));
  const got = await db.query<{
    kind: number;
    key: string;
    key2: string;
    a: string;
    b: string;
    first: string;
  }>("SELECT kind, key, key2, a, b, first FROM qm_batch_sum");
  assert.equal(got.rows.length, want.size);
  for (const r of got.rows) {
    const w = want.get(`${r.kind}\u0000${r.key}\u0000${r.key2}`);
    assert.ok(w, `${r.key} is in the whole log's sums`);
    assert.deepEqual([Number(r.a), Number(r.b), Number(r.first)], [w.a, w.b, w.first], r.key);
  }
}
