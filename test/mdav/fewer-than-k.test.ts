import assert from "node:assert/strict";
import { test } from "node:test";
import type { LogRecord } from "../../src/log/record.ts";
import { erola } from "../../src/methods/erola/index.ts";
import { mdav } from "../../src/methods/mdav/index.ts";
import { mdavStrings } from "../../src/methods/mdav-strings/index.ts";
import type { Method } from "../../src/methods/method.ts";
import { navarro } from "../../src/methods/navarro/index.ts";
import { silentProgress } from "../../src/util/progress.ts";
import { Rng } from "../../src/util/random.ts";

test("the microaggregation methods release no cluster of fewer than k users (a log of fewer than k users)", async () => {
  const records: LogRecord[] = [
    { user: "1", query: "cheap flights", time: 1_141_000_000 },
    { user: "2", query: "soccer scores", time: 1_141_000_060 },
  ];
  for (const m of [mdav, mdavStrings, erola, navarro] as Method[]) {
    const r = await m.anonymize({ records, format: "aol" }, m.parse({ k: 3 }), {
      rng: Rng.fromSeed(1),
      progress: silentProgress,
    });
    assert.equal(r.log!.records.length, 0, m.name);
    assert.equal(r.counts["users suppressed (fewer than k users)"], 2, m.name);
    assert.deepEqual(r.guarantee, { model: "k-anonymity", k: 3 });
  }
});
