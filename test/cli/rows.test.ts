/**
 * `querymask anonymize` streams an AOL log as raw rows for the methods that say so (swap on a classified log,
 * identity): the release, the summary and the bad-line behaviour are those of `--batch` (records).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { tempDir } from "../helpers/tmp.ts";

const cli = (...args: string[]) =>
  spawnSync(process.execPath, ["bin/querymask.js", ...args], { encoding: "utf8" });

const dir = tempDir();
const HEADER = "AnonID\tQuery\tQueryTime\tItemRank\tClickURL\tCategory\tUnit";
const lines: string[] = [];
for (let i = 0; i < 400; i++) {
  const t = `2006-03-01 ${String(Math.floor(i / 60) % 24).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}:00`;
  const cat = ["Top/Arts", "Top/Sports/Soccer", "Top/Health/Fitness"][i % 3];
  // A 3-field-like oddity the fast path leaves to the codec: a leading-zero rank, a `T` time.
  const rank = i % 17 === 0 ? "01" : i % 2 ? "" : "2";
  const url = rank === "" ? "" : "http://x.example";
  lines.push(
    `${i % 9}\tquery ${i % 50}\t${i % 23 === 0 ? t.replace(" ", "T") : t}\t${rank}\t${url}\t${cat}\tu`,
  );
}
const input = join(dir, "in.tsv");
writeFileSync(input, `${HEADER}\n${lines.join("\n")}\n`);

for (const method of [["identity"], ["swap", "--k", "3", "--depth", "2"]]) {
  test(`${method[0]}: the streamed release and summary equal --batch's`, () => {
    const a = cli(
      "anonymize",
      "--method",
      ...method,
      "-q",
      "--json",
      input,
      "-o",
      join(dir, `${method[0]}-s.tsv`),
    );
    const b = cli(
      "anonymize",
      "--method",
      ...method,
      "-q",
      "--json",
      "--batch",
      input,
      "-o",
      join(dir, `${method[0]}-b.tsv`),
    );
    assert.equal(a.status, 0, a.stderr);
    assert.equal(b.status, 0, b.stderr);
    assert.equal(
      readFileSync(join(dir, `${method[0]}-s.tsv`), "utf8"),
      readFileSync(join(dir, `${method[0]}-b.tsv`), "utf8"),
    );
    const counts = (s: string) => {
      const { seconds: _s, out: _o, ...rest } = JSON.parse(s) as Record<string, unknown>;
      return rest;
    };
    assert.deepEqual(counts(a.stdout), counts(b.stdout));
  });
}

test("a bad line: file:line and exit 2, or set aside and counted with --lenient, as with records", () => {
  const bad = join(dir, "bad.tsv");
  const copy = [...lines];
  copy[100] = "7\tquery\tnot a time\t\t\tTop/Arts\tu";
  writeFileSync(bad, `${HEADER}\n${copy.join("\n")}\n`);
  for (const method of ["identity", "swap"]) {
    const strict = cli("anonymize", "--method", method, "-q", bad, "-o", join(dir, "x.tsv"));
    assert.equal(strict.status, 2);
    assert.match(strict.stderr, new RegExp(`${bad}:102: unparsable QueryTime "not a time"`));
    const a = cli(
      "anonymize",
      "--method",
      method,
      "-q",
      "--json",
      "--lenient",
      bad,
      "-o",
      join(dir, "l-s.tsv"),
    );
    const b = cli(
      "anonymize",
      "--method",
      method,
      "-q",
      "--json",
      "--lenient",
      "--batch",
      bad,
      "-o",
      join(dir, "l-b.tsv"),
    );
    assert.equal(a.status, 0, a.stderr);
    assert.equal(JSON.parse(a.stdout).rejected, 1);
    assert.equal(JSON.parse(b.stdout).rejected, 1);
    assert.equal(readFileSync(join(dir, "l-s.tsv"), "utf8"), readFileSync(join(dir, "l-b.tsv"), "utf8"));
  }
});

test("swap on raw rows: a log out of time order is noticed, sorted and released as --batch releases it", () => {
  const shuffled = join(dir, "shuffled.tsv");
  // Sorted by user, as AOL ships its files: out of time order from the second user on.
  const byUser = [...lines].sort((a, b) => Number(a.split("\t")[0]) - Number(b.split("\t")[0]));
  writeFileSync(shuffled, `${HEADER}\n${byUser.join("\n")}\n`);
  const a = cli("anonymize", "--method", "swap", "--k", "3", shuffled, "-o", join(dir, "sh-s.tsv"));
  const b = cli(
    "anonymize",
    "--method",
    "swap",
    "--k",
    "3",
    "-q",
    "--batch",
    shuffled,
    "-o",
    join(dir, "sh-b.tsv"),
  );
  assert.equal(a.status, 0, a.stderr);
  assert.equal(b.status, 0, b.stderr);
  assert.match(a.stderr, /the log is not in time order; sorting it by time and starting over/);
  assert.equal(readFileSync(join(dir, "sh-s.tsv"), "utf8"), readFileSync(join(dir, "sh-b.tsv"), "utf8"));
});

test("swap on raw rows out of time order, sorted in runs on disk: bad lines at their input file:line, or set aside and counted", () => {
  const shuffled = join(dir, "shuffled-bad.tsv");
  const byUser = [...lines].sort((a, b) => Number(a.split("\t")[0]) - Number(b.split("\t")[0]));
  byUser[150] = "7\tquery\tnot a time\t\t\tTop/Arts\tu";
  writeFileSync(shuffled, `${HEADER}\n${byUser.join("\n")}\n`);
  const args = ["anonymize", "--method", "swap", "--k", "3", "-q", "--json", "--sort-buffer", "37"];
  const strict = cli(...args, shuffled, "-o", join(dir, "shb-x.tsv"));
  assert.equal(strict.status, 2);
  assert.match(strict.stderr, new RegExp(`${shuffled}:152: unparsable QueryTime "not a time"`));
  const rejects = join(dir, "shb.rejects.tsv");
  const a = cli(...args, "--lenient", "--rejects", rejects, shuffled, "-o", join(dir, "shb-s.tsv"));
  const b = cli(...args, "--lenient", "--batch", shuffled, "-o", join(dir, "shb-b.tsv"));
  assert.equal(a.status, 0, a.stderr);
  assert.equal(b.status, 0, b.stderr);
  assert.equal(readFileSync(join(dir, "shb-s.tsv"), "utf8"), readFileSync(join(dir, "shb-b.tsv"), "utf8"));
  const summary = (s: string) => {
    const { out: _out, seconds: _seconds, ...rest } = JSON.parse(s);
    return rest;
  };
  assert.deepEqual(summary(a.stdout), summary(b.stdout));
  assert.equal(summary(a.stdout).rejected, 1);
  assert.match(readFileSync(rejects, "utf8"), /not a time/);
});

test("swap on an unclassified AOL log: classified first as raw rows, sorted, released as --batch releases it", () => {
  const UNCLASSIFIED = "AnonID\tQuery\tQueryTime\tItemRank\tClickURL";
  const queries = [
    "cheap flights",
    "john baker genealogy",
    "soccer scores",
    "chicken recipes",
    "zorblax q.x",
    "",
  ];
  const rows: string[] = [];
  for (let i = 0; i < 300; i++) {
    const user = i % 7;
    const t = `2006-03-01 ${String(Math.floor(i / 60) % 24).padStart(2, "0")}:${String((i * 7) % 60).padStart(2, "0")}:00`;
    // Clicks on a site of one user, a shared site, and a site named after the scrubbed name.
    const query = queries[i % queries.length]!;
    const url =
      query === "john baker genealogy"
        ? "http://www.johnbaker.example"
        : i % 3 === 0
          ? ""
          : i % 3 === 1
            ? `http://u${user}.example`
            : "http://shared.example";
    rows.push(`${user}\t${query}\t${i % 41 === 0 ? t.replace(" ", "T") : t}\t${url ? "1" : ""}\t${url}`);
  }
  // By user, as AOL ships it; one bad line.
  rows.sort((a, b) => Number(a.split("\t")[0]) - Number(b.split("\t")[0]));
  rows[77] = "3\tbroken\tnot a time\t\t";
  const input = join(dir, "unclassified.tsv");
  writeFileSync(input, `${UNCLASSIFIED}\n${rows.join("\n")}\n`);
  const args = [
    "anonymize",
    "--method",
    "swap",
    "--k",
    "2",
    "--depth",
    "2",
    "--json",
    "--lenient",
    "--sort-buffer",
    "50",
  ];
  const a = cli(...args, input, "-o", join(dir, "unc-s.tsv"));
  const b = cli(...args, "-q", "--batch", input, "-o", join(dir, "unc-b.tsv"));
  assert.equal(a.status, 0, a.stderr);
  assert.equal(b.status, 0, b.stderr);
  assert.match(a.stderr, /unclassified\.tsv:\d+: the log is not in time order; sorting it by time/);
  const released = readFileSync(join(dir, "unc-s.tsv"), "utf8");
  assert.equal(released, readFileSync(join(dir, "unc-b.tsv"), "utf8"));
  // The input's layout, the name scrubbed, its site's clicks and one-user sites' clicks dropped.
  assert.equal(released.split("\n")[0], UNCLASSIFIED);
  assert.doesNotMatch(released, /john|baker|johnbaker|u\d\.example/);
  assert.match(released, /shared\.example/);
  const summary = (s: string) => {
    const { out: _out, seconds: _seconds, ...rest } = JSON.parse(s);
    return rest;
  };
  assert.deepEqual(summary(a.stdout), summary(b.stdout));
  assert.equal(summary(a.stdout).rejected, 1);
});
