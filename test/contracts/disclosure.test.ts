/**
 * The pipeline keeps each method's declared preparation and disclosure: a method that declares per-record
 * preparation (dp) is never given a cross-user step (the single-clicker URL rule), and a DP run's published
 * summary carries no exact data-dependent figure, which `--diagnostics` writes to a `*.PRIVATE.*` file instead.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type { LogRecord, QueryLog } from "../../src/log/record.ts";
import { writeLog } from "../../src/log/write.ts";
import { methodEntry } from "../../src/methods/registry.ts";
import { prepareFor } from "../../src/pipeline/memory.ts";
import { generateLog } from "../../src/synth/generate.ts";
import { tempDir } from "../helpers/tmp.ts";

/** Three users searching `weather`; one of them alone clicks an invented site. */
function soleClicker(): QueryLog {
  const records: LogRecord[] = ["1", "2", "3"].map((user, i) => ({
    user,
    query: "weather",
    time: 1_141_171_200 + i * 60,
  }));
  records.push({ ...records[0]!, itemRank: 1, clickUrl: "http://www.zorblewx.example" });
  return { records, format: "aol", classified: false };
}

test("the single-clicker URL rule is applied only where a method allows cross-user preparation", async () => {
  const clicks = async (method: string) =>
    (await prepareFor(methodEntry(method), soleClicker(), {})).log.records.filter((r) => r.clickUrl).length;
  assert.equal(methodEntry("dp").input.crossUser, false);
  assert.equal(
    await clicks("dp"),
    1,
    "dp's input keeps the sole clicker's click (its pair selection decides)",
  );
  assert.equal(methodEntry("threshold").input.crossUser, true);
  assert.equal(await clicks("threshold"), 0, "threshold's input drops it, as querymask scrub does");
});

test("a DP run publishes no exact figure of the run; --diagnostics writes them to a PRIVATE file, with a warning", async () => {
  const dir = tempDir();
  const input = join(dir, "log.tsv");
  await writeLog(input, generateLog({ users: 30, seed: 2 }));
  const out = join(dir, "counts.tsv");
  const r = spawnSync(
    process.execPath,
    [
      "bin/querymask.js",
      "anonymize",
      "--method",
      "dp",
      "--noise",
      "seeded",
      "--json",
      "--diagnostics",
      input,
      "-o",
      out,
    ],
    { encoding: "utf8" },
  );
  assert.equal(r.status, 0, r.stderr);
  const summary = JSON.parse(r.stdout) as Record<string, unknown>;
  for (const exact of ["rows read", "rejected", "seconds", "users", "rows with an identifier scrubbed"]) {
    assert.ok(!(exact in summary), `the published summary holds ${exact}`);
  }
  assert.ok("queries released" in summary, "it holds what is read off the released table");
  const path = `${out}.diagnostics.PRIVATE.json`;
  assert.ok(existsSync(path));
  const diagnostics = JSON.parse(readFileSync(path, "utf8")) as Record<string, number>;
  for (const key of ["rows read", "rejected lines", "seconds"])
    assert.equal(typeof diagnostics[key], "number", key);
  assert.match(r.stderr, /diagnostics\.PRIVATE\.json — they are not private: never publish them/);
  assert.doesNotMatch(r.stderr, /\d[\d,]* done/, "progress lines name no count");
});
