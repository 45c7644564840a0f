/**
 * `querymask anonymize --method swap` (the stream) gives the release the experiment runner's path gives
 * (`swap.anonymize` with the method's random stream for the seed), whatever the order of the input file.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { loadLog } from "../../src/log/read.ts";
import { writeLog } from "../../src/log/write.ts";
import { methodRng } from "../../src/methods/method.ts";
import { swap } from "../../src/methods/swap/index.ts";
import { generateLog } from "../../src/synth/generate.ts";
import { silentProgress } from "../../src/util/progress.ts";
import { tempDir } from "../helpers/tmp.ts";

const cli = (...args: string[]) =>
  spawnSync(process.execPath, ["bin/querymask.js", ...args], { encoding: "utf8" });

test("the CLI's swap release equals the experiment runner's, for a log sorted by user and the same log by time", async () => {
  const dir = tempDir();
  const generated = generateLog({ users: 60, seed: 11, withTruth: true });
  const byUser = join(dir, "by-user.tsv");
  await writeLog(byUser, generated);
  const byTime = join(dir, "by-time.tsv");
  await writeLog(byTime, { ...generated, records: [...generated.records].sort((a, b) => a.time - b.time) });

  const seed = 5;
  const params = swap.parse({ k: 3, depth: 2 });
  const input = await loadLog([byUser]);
  const release = await swap.anonymize(input, params, { rng: methodRng(seed), progress: silentProgress });
  const expectedPath = join(dir, "expected.tsv");
  await writeLog(expectedPath, release.log!);
  const expected = readFileSync(expectedPath, "utf8");

  for (const [name, file] of [
    ["by-user", byUser],
    ["by-time", byTime],
  ] as const) {
    const out = join(dir, `${name}.released.tsv`);
    const r = cli(
      "anonymize",
      "--method",
      "swap",
      "--k",
      "3",
      "--depth",
      "2",
      "--seed",
      String(seed),
      file,
      "-o",
      out,
    );
    assert.equal(r.status, 0, r.stderr);
    assert.equal(readFileSync(out, "utf8"), expected, `${name}: the CLI release differs from the runner's`);
    if (name === "by-user")
      assert.match(r.stderr, /by-user\.tsv:\d+: the log is not in time order; sorting it/);
    else assert.doesNotMatch(r.stderr, /not in time order/);
  }
});

test("a log larger than one sort run is sorted through files on disk and gives the same release", async () => {
  const dir = tempDir();
  const generated = generateLog({ users: 40, seed: 3, withTruth: true });
  const byUser = join(dir, "log.tsv");
  await writeLog(byUser, generated);
  const input = await loadLog([byUser]);
  const params = swap.parse({ k: 4 });
  const release = await swap.anonymize(input, params, { rng: methodRng(9), progress: silentProgress });
  const expectedPath = join(dir, "expected.tsv");
  await writeLog(expectedPath, release.log!);
  const out = join(dir, "out.tsv");
  const r = spawnSync(
    process.execPath,
    [
      "bin/querymask.js",
      "anonymize",
      "--method",
      "swap",
      "--k",
      "4",
      "--seed",
      "9",
      "--sort-buffer",
      "100",
      byUser,
      "-o",
      out,
    ],
    { encoding: "utf8" },
  );
  assert.match(r.stderr, new RegExp(`merging ${Math.ceil(generated.records.length / 100)} sorted runs`));
  assert.equal(r.status, 0, r.stderr);
  assert.ok(generated.records.length > 300, "several runs");
  assert.equal(readFileSync(out, "utf8"), readFileSync(expectedPath, "utf8"));
});
