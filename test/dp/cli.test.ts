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
    ["--delta", "1", /dp: parameter delta: must be in \[1e-12, 1\), got 1$/m],
    [
      "--delta",
      "1e-13",
      /got 1e-13 \(below 1e-12 the floating-point noise and threshold arithmetic cannot vouch/,
    ],
    ["--epsilon", "1001", /dp: parameter epsilon: must be in \[0\.001, 1000\], got 1001/],
    ["--d", "0", /dp: parameter d: must be in \[1, 100000\], got 0/],
    ["--selection", "magic", /dp: parameter selection: must be one of/],
  ] as const) {
    const r = run(["anonymize", "--method", "dp", flag, value, log, "-o", join(dir, "x.tsv"), "-q"]);
    assert.equal(r.status, 2, `${flag} ${value}: ${r.stderr}`);
    assert.match(r.stderr, re);
    assert.doesNotMatch(r.stderr, /\n\s+at /, "no stack trace");
    assert.ok(!existsSync(join(dir, "x.tsv")));
  }
});

test("dp on a log with no users exits 2 with the reason, and writes nothing", () => {
  const dir = tempDir();
  const header = join(dir, "header.tsv");
  writeFileSync(header, HEADER);
  const blank = join(dir, "blank.tsv");
  writeFileSync(blank, `${HEADER}1\t\t2006-03-01 10:00:00\t\t\n2\t\t2006-03-01 10:01:00\t\t\n`);
  for (const log of [header, blank]) {
    const out = join(dir, "x.tsv");
    const r = run(["anonymize", "--method", "dp", log, "-o", out, "-q"]);
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /dp: the log has no user with a non-empty query: there is nothing to release/);
    assert.ok(!existsSync(out));
  }
});

test("audit fails a dp summary whose guarantee is stronger (or weaker) than the asked (ε, δ) deliver", () => {
  const dir = tempDir();
  const log = smallLog(dir, 30);
  const out = join(dir, "counts.tsv");
  const a = run(["anonymize", "-q", "--method", "dp", "--json", log, "-o", out]);
  assert.equal(a.status, 0, a.stderr);
  const summary = JSON.parse(a.stdout);
  assert.deepEqual(summary.guarantee, {
    model: "differential-privacy",
    epsilon: 1,
    delta: 1e-5,
    neighbours: "user-level",
  });
  const audit = (guarantee: unknown) => {
    const path = join(dir, "claim.json");
    writeFileSync(path, JSON.stringify({ ...summary, guarantee }));
    return run(["audit", "-q", "--method", "dp", "--original", log, "--released", out, "--summary", path]);
  };
  const own = audit(summary.guarantee);
  assert.equal(own.status, 0, own.stdout + own.stderr);
  assert.match(own.stdout, /claimed guarantee\s+ok/);
  for (const [epsilon, delta] of [
    [0.5, 1e-5],
    [1, 1e-7],
    [2, 1e-5],
    [1, 1e-4],
  ]) {
    const r = audit({ ...summary.guarantee, epsilon, delta });
    assert.equal(r.status, 1, `ε = ${epsilon}, δ = ${delta}: ${r.stdout}`);
    assert.match(r.stdout, /claimed guarantee\s+FAIL/);
  }
});
