import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { tempDir } from "../helpers/tmp.ts";

const CLI = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url));
const run = (args: string[]) =>
  spawnSync(process.execPath, ["--import", "tsx", CLI, ...args], { encoding: "utf8" });

const HEADER = "AnonID\tQuery\tQueryTime\tItemRank\tClickURL\tCategory\tUnit\n";
const row = (user: string, query: string, minute: number, cat: string, unit: string) =>
  `${user}\t${query}\t2006-03-01 10:${String(minute).padStart(2, "0")}:00\t\t\t${cat}\t${unit}\n`;

describe("querymask audit", () => {
  const dir = tempDir();
  const log = join(dir, "log.tsv");
  writeFileSync(
    log,
    HEADER +
      row("1", "cheap flights", 1, "Top/Recreation", "cheap flights") +
      row("2", "cheap flights", 2, "Top/Recreation", "cheap flights") +
      row("3", "cheap flights ohio", 3, "Top/Regional", "ohio") +
      row("3", "secret hideout", 4, "Top/Arts", "secret hideout"),
  );

  it("exits 0 with a table of what was checked on km's own release and summary", () => {
    const out = join(dir, "km.tsv");
    const a = run(["anonymize", "-q", "--method", "km", "--k", "2", "--m", "2", "--json", log, "-o", out]);
    assert.equal(a.status, 0, a.stderr);
    writeFileSync(join(dir, "km.json"), a.stdout);
    const args = ["--method", "km", "--k", "2", "--m", "2", "--original", log, "--released", out];
    const r = run(["audit", "-q", ...args, "--summary", join(dir, "km.json")]);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    for (const name of ["(k,m)-anonymity", "identifiers", "columns", "summary counts"]) {
      assert.match(r.stdout, new RegExp(`${name.replace(/[()]/g, "\\$&")}\\s+ok`));
    }
    assert.match(r.stdout, /release passes the audit/);
    assert.match(
      r.stdout,
      /claimed guarantee\s+ok\s+\(k,m\)-anonymity, k=2, m=2: as the \(k,m\)-anonymity check/,
    );
  });

  it("checks the summary's claimed guarantee on the release: a summary claiming more than holds fails", () => {
    const out = join(dir, "km3.tsv");
    const a = run(["anonymize", "-q", "--method", "km", "--k", "2", "--m", "1", "--json", log, "-o", out]);
    assert.equal(a.status, 0, a.stderr);
    const summary = JSON.parse(a.stdout);
    assert.deepEqual(summary.guarantee, { model: "km-anonymity", k: 2, m: 1 });
    const args = ["--method", "km", "--k", "2", "--m", "1", "--original", log, "--released", out];
    const claim = (guarantee: unknown) => {
      const path = join(dir, "claim.json");
      writeFileSync(path, JSON.stringify({ ...summary, guarantee }));
      return run(["audit", "-q", ...args, "--summary", path]);
    };
    assert.equal(claim(summary.guarantee).status, 0);
    const over = claim({ model: "km-anonymity", k: 4, m: 1 }); // 3 users in the log
    assert.equal(over.status, 1, over.stdout);
    assert.match(over.stdout, /claimed guarantee\s+FAIL/);
    const bad = claim({ model: "k-anonymity" });
    assert.equal(bad.status, 2, bad.stdout);
    assert.match(bad.stderr, /claim\.json: .*k-anonymity needs a number k/);
    const table = run(["anonymize", "-q", "--method", "km", "--k", "2", "--m", "1", log, "-o", out]);
    assert.match(table.stdout, /guarantee\s+\(k,m\)-anonymity, k=2, m=1/);
  });

  it("exits 1 naming the violating records: a released Unit of suppressed words, a count that does not add up", () => {
    const bad = join(dir, "bad.tsv");
    // What km released before its fix: "cheap flights" for user 3, but with the Unit of the text it lost.
    writeFileSync(
      bad,
      HEADER +
        row("1", "cheap flights", 1, "Top/Recreation", "cheap flights") +
        row("2", "cheap flights", 2, "Top/Recreation", "cheap flights") +
        row("3", "cheap flights", 3, "Top/Regional", "ohio"),
    );
    const summary = join(dir, "bad.json");
    writeFileSync(summary, JSON.stringify({ records: 4, released: 4 }));
    const args = ["--method", "km", "--k", "2", "--m", "2", "--original", log, "--released", bad];
    const r = run(["audit", "-q", ...args, "--summary", summary, "--limit", "1"]);
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stdout, /columns\s+FAIL/);
    assert.match(r.stdout, /user 3 {2}"cheap flights".*\[Top\/Regional \| ohio\]/);
    assert.match(r.stdout, /released: the summary says 4, the file holds 3/);
    const json = JSON.parse(run(["audit", "-q", ...args, "--json"]).stdout);
    assert.equal(json.ok, false);
  });

  it("exits 2 on a bad parameter or a parameter the method does not take", () => {
    const base = ["audit", "-q", "--original", log, "--released", log];
    assert.equal(run([...base, "--method", "km", "--k", "abc"]).status, 2);
    assert.equal(run([...base, "--method", "threshold", "--m", "2"]).status, 2);
    assert.equal(run([...base, "--method", "nope"]).status, 2);
  });

  it("check-km is the audit's (k,m) check", () => {
    assert.equal(run(["check-km", "--k", "2", "--m", "1", "-q", log]).status, 1);
    const r = run(["check-km", "--k", "2", "--m", "1", "-q", "--json", log]);
    assert.equal(JSON.parse(r.stdout).ok, false);
  });
});

it("swap on an unclassified log (scrubbed and classified on the way, written in the input's layout) passes the audit", () => {
  const dir = tempDir();
  const raw = join(dir, "raw.tsv");
  const g = run(["generate", "-q", "--users", "60", "--seed", "4", "-o", raw]);
  assert.equal(g.status, 0, g.stderr);
  const out = join(dir, "swap.tsv");
  const a = run(["anonymize", "-q", "--method", "swap", "--k", "3", raw, "-o", out]);
  assert.equal(a.status, 0, a.stderr);
  const r = run(["audit", "-q", "--method", "swap", "--k", "3", "--original", raw, "--released", out]);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /swap invariants\s+ok/);
  // an invented private name planted in one released row (absent from the labelled sets and the AOL subset): the
  // identifiers check, whose detector shares nothing with the scrubber, fails and names the record
  const lines = readFileSync(out, "utf8").split("\n");
  const cols = lines[5]!.split("\t");
  cols[1] = "obituary for shirley quenneville";
  lines[5] = cols.join("\t");
  const planted = join(dir, "planted.tsv");
  writeFileSync(planted, lines.join("\n"));
  const f = run(["audit", "-q", "--method", "swap", "--k", "3", "--original", raw, "--released", planted]);
  assert.equal(f.status, 1, f.stdout + f.stderr);
  assert.match(f.stdout, /identifiers\s+FAIL/i);
  assert.match(
    f.stdout,
    /record 5 \(user \d+\): "obituary for shirley quenneville": person_name "shirley quenneville"/,
  );
});
