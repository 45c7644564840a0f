import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { tempDir } from "../helpers/tmp.ts";

const CLI = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url));
const run = (args: string[]) =>
  spawnSync(process.execPath, ["--import", "tsx", CLI, ...args], { encoding: "utf8" });

const HEADER = "AnonID\tQuery\tQueryTime\tItemRank\tClickURL\n";

/** `users` users who all searched "weather", each also with a query of their own. */
function smallLog(dir: string, users: number): string {
  const path = join(dir, `log${users}.tsv`);
  let body = HEADER;
  for (let u = 0; u < users; u++) {
    body += `${u}\tweather\t2006-03-01 10:00:00\t\t\n`;
    body += `${u}\town ${u}\t2006-03-01 10:01:00\t\t\n`;
  }
  writeFileSync(path, body);
  return path;
}

test("dp on a log too small to release anything says so, with what a query needs — and no count of this log", () => {
  const dir = tempDir();
  const log = smallLog(dir, 12);
  const out = join(dir, "counts.tsv");
  // Seeded noise: with crypto noise the 12-user query passes the noisy threshold in ~0.7% of runs (22 of 3,000
  // in-process trials), and the test would fail by chance.
  const r = run(["anonymize", "--method", "dp", "--noise", "seeded", "--seed", "1", log, "-o", out, "-q"]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(
    r.stderr,
    /dp released no query: targeted at ε = 1, δ = 0\.00001, d = 10 releases a query \(with probability about ½\) only when it has a weight of about [\d.]+ from its users .* A larger ε lowers the need \(ε = 2: [\d.]+, ε = 4: [\d.]+, ε = 8: [\d.]+\)/,
  );
  // The note is published with the release: it must not give the most common query's 12 users.
  assert.doesNotMatch(r.stderr, /\b12\b/);
  assert.ok(existsSync(out), "the (empty) table is still written");
  const k = run(["anonymize", "--method", "dp", "--selection", "korolova", log, "-o", out, "-q"]);
  assert.equal(k.status, 0, k.stderr);
  assert.match(
    k.stderr,
    /dp released no query: korolova .* passes K \+ 1 = 601, and no query of this log passed/,
  );
  assert.doesNotMatch(k.stderr, /\b12\b/);
});

test("dp parameters out of a usable range exit 2 with a message, before any work (ε = 1e-320)", () => {
  const dir = tempDir();
  const log = smallLog(dir, 3);
  for (const [flag, value, re] of [
    ["--epsilon", "1e-320", /querymask: dp: parameter epsilon: 1e-320 is too close to 0/],
    ["--epsilon", "1e-10", /querymask: dp: parameter epsilon: must be in \[0\.001, 1000\], got 1e-10/],
    ["--delta", "0", /dp: parameter delta: must be in/],
    ["--selection", "magic", /dp: parameter selection: must be one of/],
  ] as const) {
    const r = run(["anonymize", "--method", "dp", flag, value, log, "-o", join(dir, "x.tsv"), "-q"]);
    assert.equal(r.status, 2, `${flag} ${value}: ${r.stderr}`);
    assert.match(r.stderr, re);
    assert.doesNotMatch(r.stderr, /\n\s+at /, "no stack trace");
    assert.ok(!existsSync(join(dir, "x.tsv")));
  }
});
