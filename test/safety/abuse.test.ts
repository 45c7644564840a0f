/**
 * Output abuse and hostile or absurd input, each case of the outside matrix that failed: a device, a link or a
 * hard link to the input, a directory, the input named as the reject file, an experiment directory holding the
 * run's inputs under the names it writes, a JSON that is not a snapshot, a foreign SQLite file, serve's paths named
 * twice, absurd numbers, terminal escapes in the data. Each must fail up front with exit 2 and one line naming the
 * path (or the flag), leave every file as it was, and never hang.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, linkSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import Database from "better-sqlite3";
import { tempDir } from "../helpers/tmp.ts";

const HEADER = "AnonID\tQuery\tQueryTime\tItemRank\tClickURL";
const LOG = `${HEADER}\n1\tsoccer\t2006-03-01 07:33:28\t\t\n2\tweather\t2006-03-01 08:00:00\t\t\n1\tnews\t2006-03-01 09:00:00\t\t\n`;
const BAD = `${LOG}3\tbad\tnot a time\t\t\n`;

const cli = (...args: string[]) =>
  spawnSync(process.execPath, ["bin/querymask.js", ...args], { encoding: "utf8", timeout: 120_000 });

/** Exit 2, one line `querymask: <start>…` matching `reason`, no stack trace. */
function refused(r: ReturnType<typeof cli>, start: string, reason: RegExp): void {
  assert.equal(r.status, 2, `${r.stdout}\n${r.stderr}`);
  assert.ok(r.stderr.startsWith(`querymask: ${start}`), r.stderr);
  assert.match(r.stderr, reason);
  assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
}

function setup(content = LOG) {
  const dir = tempDir("querymask-abuse-");
  const input = join(dir, "in.tsv");
  writeFileSync(input, content);
  return { dir, input };
}

test("simulate-clientside: -o /dev/null, a link or a hard link to the input, a directory are refused before any work", () => {
  const { dir, input } = setup();
  const before = statSync("/dev/null");
  refused(cli("simulate-clientside", input, "-o", "/dev/null", "-q"), "/dev/null", /is a device/);
  assert.ok(statSync("/dev/null").isCharacterDevice() && statSync("/dev/null").ino === before.ino);
  const soft = join(dir, "soft.tsv");
  symlinkSync(input, soft);
  refused(cli("simulate-clientside", input, "-o", soft, "-q"), soft, /is the input .*in\.tsv \(same file\)/);
  const hard = join(dir, "hard.tsv");
  linkSync(input, hard);
  refused(cli("simulate-clientside", input, "-o", hard, "-q"), hard, /same file/);
  refused(cli("simulate-clientside", input, "-o", dir, "-q"), dir, /is a directory/);
  assert.equal(readFileSync(input, "utf8"), LOG);
});

test("--rejects naming an input is refused by every command that reads logs, the input untouched", () => {
  const { dir, input } = setup(BAD);
  const other = join(dir, "other.tsv");
  writeFileSync(other, LOG);
  const runs = [
    ["simulate-clientside", input, "--degree", "1", "-o", join(dir, "v.tsv")],
    ["audit", "-m", "identity", "--original", input, "--released", other],
    ["attack", "-a", "matcher", "--original", input, "--released", other],
    ["check-km", "--k", "2", "--m", "1", input],
  ];
  for (const args of runs) {
    refused(cli(...args, "-q", "--lenient", "--rejects", input), input, /must not overwrite an input/);
    assert.equal(readFileSync(input, "utf8"), BAD, args[0]);
  }
});

test("audit --lenient counts both logs' bad lines, and its reject file holds every one of them", () => {
  const { dir, input } = setup(BAD);
  const released = join(dir, "released.tsv");
  writeFileSync(released, BAD);
  const rejects = join(dir, "r.tsv");
  const r = cli(
    "audit",
    "-m",
    "identity",
    "--original",
    input,
    "--released",
    released,
    "-q",
    "--lenient",
    "--rejects",
    rejects,
  );
  assert.ok(r.status === 0 || r.status === 1, r.stderr);
  assert.match(r.stderr, /^2 bad lines set aside/m);
  assert.equal(readFileSync(rejects, "utf8").trim().split("\n").length, 3); // header + 2
  refused(
    cli(
      "audit",
      "-m",
      "identity",
      "--original",
      input,
      "--released",
      released,
      "--summary",
      join(dir, "missing.json"),
    ),
    join(dir, "missing.json"),
    /no such file/,
  );
});

test("experiment -o DIR never writes over an input that lives in DIR", () => {
  const { dir } = setup();
  const out = join(dir, "out");
  mkdirSync(out);
  const log = join(out, "results.tsv");
  writeFileSync(log, LOG);
  const config = join(out, "results.json");
  writeFileSync(config, JSON.stringify({ log: "results.tsv", methods: [{ method: "identity" }] }));
  refused(
    cli("experiment", config, "-o", out, "-q"),
    join(out, "results.tsv"),
    /must not overwrite an input/,
  );
  const config2 = join(dir, "results.json");
  writeFileSync(config2, JSON.stringify({ log: "in.tsv", methods: [{ method: "identity" }] }));
  refused(
    cli("experiment", config2, "-o", dir, "-q"),
    join(dir, "results.json"),
    /must not overwrite an input/,
  );
  writeFileSync(join(dir, "report.html"), "phrase\n");
  const config3 = join(dir, "c3.json");
  writeFileSync(
    config3,
    JSON.stringify({ log: "in.tsv", allowList: "report.html", methods: [{ method: "identity" }] }),
  );
  refused(cli("experiment", config3, "-o", dir, "-q"), join(dir, "report.html"), /allow list/);
  assert.equal(readFileSync(log, "utf8"), LOG);
  assert.equal(readFileSync(join(dir, "report.html"), "utf8"), "phrase\n");
  const privacy = join(dir, "p.json");
  writeFileSync(
    privacy,
    JSON.stringify({
      log: "in.tsv",
      methods: [{ method: "identity" }],
      frontier: { privacy: "matcher.nonsense" },
    }),
  );
  refused(cli("experiment", privacy, "-o", join(dir, "x"), "-q"), privacy, /frontier\.privacy.*no yardstick/);
});

test("kb: a JSON that is not a snapshot, a truncated one, a missing term table, the term table as -o: exit 2, files untouched", () => {
  const { dir, input } = setup();
  const foreign = join(dir, "settings.json");
  writeFileSync(foreign, '{"theme":"dark"}\n');
  refused(
    cli("kb", "info", "--snapshot", foreign),
    foreign,
    /not a knowledge-base snapshot; it is left as it is/,
  );
  refused(cli("kb", "build", "-o", foreign), foreign, /not a knowledge-base snapshot/);
  assert.equal(readFileSync(foreign, "utf8"), '{"theme":"dark"}\n');
  const torn = join(dir, "torn.json");
  writeFileSync(torn, '{"version":3,"categories":["Top/A');
  refused(cli("kb", "info", "--snapshot", torn), torn, /not valid JSON/);
  refused(
    cli("kb", "build", "--termstats", join(dir, "missing.tsv"), "-o", join(dir, "kb.json")),
    join(dir, "missing.tsv"),
    /no such file/,
  );
  refused(cli("kb", "build", "--termstats", input, "-o", input), input, /must not overwrite an input/);
  assert.equal(readFileSync(input, "utf8"), LOG);
});

test("profile refuses another program's SQLite file, a text file and a truncated database, before writing to them", () => {
  const { dir, input } = setup(
    `${HEADER}\tCategory\tUnit\n1\tsoccer\t2006-03-01 07:33:28\t\t\tTop/Sports\tsoccer\n`,
  );
  const foreign = join(dir, "app.db");
  const db = new Database(foreign);
  db.exec("CREATE TABLE invoices (id INTEGER, amount REAL); INSERT INTO invoices VALUES (1, 9.5);");
  db.close();
  const bytes = readFileSync(foreign);
  refused(
    cli("profile", input, "--db", foreign, "-q"),
    foreign,
    /another program's SQLite database .*invoices/,
  );
  assert.ok(readFileSync(foreign).equals(bytes), "not one byte of the foreign database changed");
  const text = join(dir, "notes.db");
  writeFileSync(text, "shopping list\n");
  refused(cli("profile", input, "--db", text, "-q"), text, /not an SQLite database/);
  assert.equal(readFileSync(text, "utf8"), "shopping list\n");
  const ours = join(dir, "ours.db");
  assert.equal(cli("profile", input, "--db", ours, "-q").status, 0);
  const torn = join(dir, "torn.db");
  writeFileSync(torn, readFileSync(ours).subarray(0, 2048));
  refused(cli("profile", input, "--db", torn, "-q"), torn, /damaged SQLite database|not an SQLite database/);
});

test("serve: its paths checked against each other and as files; a port in use; garbage state; a batch method", () => {
  const { dir } = setup();
  const released = join(dir, "released.ndjson");
  writeFileSync(released, "");
  const port = ["--port", "0"];
  refused(
    cli("serve", ...port, "--released", released, "--state", released),
    released,
    /the released log and the state file are the same file/,
  );
  refused(cli("serve", ...port, "--released", released, "--db", released), released, /same file/);
  refused(cli("serve", ...port, "--released", dir), dir, /is a directory/);
  const text = join(dir, "notes.txt");
  writeFileSync(text, "not a database\n");
  refused(cli("serve", ...port, "--db", text), text, /not an SQLite database/);
  const garbage = join(dir, "state.json");
  writeFileSync(garbage, "}{");
  refused(cli("serve", ...port, "--state", garbage), garbage, /not a serve state file/);
  refused(cli("serve", ...port, "-m", "mdav"), "mdav", /has no streaming stage/);
  assert.equal(readFileSync(text, "utf8"), "not a database\n");
  assert.equal(readFileSync(garbage, "utf8"), "}{");
});

test("absurd numbers are refused with the bound and its reason, at once", () => {
  const { dir, input } = setup();
  const o = join(dir, "o.tsv");
  const cases: [string[], RegExp][] = [
    [["generate", "--users", "1e12", "-o", o], /--users.*from 1 to 100,000,000/],
    [["generate", "--users", "5", "--days", "1000000000", "-o", o], /end after 9999-12-31/],
    [["classify", "--threads", "1000", input, "-o", o], /--threads.*from 1 to \d+ \(2 per core/],
    [["check-km", "--k", "2", "--m", "1000000", input], /--m.*from 1 to 8/],
    [["anonymize", "--method", "km", "--m", "1000000", input, "-o", o], /parameter m: .*8/],
    [["simulate-clientside", input, "--nodes", "1e12"], /parameter nodes/],
    [["simulate-clientside", input, "--degree", "1e12"], /parameter degree/],
    [
      ["anonymize", "--method", "mdav", "--k", "100000", input, "-o", o],
      /mdav: k = 100,000 is more than the \d+ users of the log/,
    ],
  ];
  for (const [args, reason] of cases) {
    const t0 = Date.now();
    const r = cli(...args, "-q");
    assert.equal(r.status, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, reason);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
    assert.ok(Date.now() - t0 < 60_000, args.join(" "));
  }
});

test("terminal escapes in user ids and queries are printed escaped by audit, check-km and profile", () => {
  const esc = "\u001b[2J\u001b]0;owned\u0007";
  const { dir, input } = setup(
    `${HEADER}\tCategory\tUnit\nu${esc}\tq${esc}\t2006-03-01 07:33:28\t\t\tTop/Sports\tx\n` +
      `v\tplain\t2006-03-01 07:34:00\t\t\tTop/Sports\tx\n`,
  );
  const outputs = [
    cli("check-km", "--k", "2", "--m", "1", input, "-q"),
    cli("profile", input, "--db", join(dir, "p.db"), "-q"),
    cli(
      "audit",
      "-m",
      "identity",
      "--original",
      join(dir, "missing-\u001b[31m.tsv"),
      "--released",
      input,
      "-q",
    ),
  ];
  for (const r of outputs) {
    assert.ok(!`${r.stdout}${r.stderr}`.includes("\u001b"), JSON.stringify(r.stdout + r.stderr));
    assert.ok(!`${r.stdout}${r.stderr}`.includes("\u0007"));
  }
  assert.match(outputs[0]!.stdout, /\\x1b\[2J/);
  assert.match(outputs[1]!.stdout, /u\\x1b\[2J/);
});

test("profile of 200,000 one-query users: a bounded table after the committed load, exit 0", () => {
  const { dir } = setup();
  const input = join(dir, "many.tsv");
  const lines = [`${HEADER}\tCategory\tUnit`];
  for (let i = 0; i < 200_000; i++) lines.push(`${i}\tq${i % 97}\t2006-03-01 07:33:28\t\t\tTop/Sports\tq`);
  writeFileSync(input, `${lines.join("\n")}\n`);
  const r = cli("profile", input, "--db", join(dir, "p.db"), "-q");
  assert.equal(r.status, 0, r.stderr);
  const out = r.stdout.trim().split("\n");
  assert.equal(out.length, 1001);
  assert.match(out[1000]!, /… and 199,000 more users/);
  refused(cli("profile", input, "--db", join(dir, "p.db"), "-q"), join(dir, "p.db"), /already holds/);
});

test("mdav on a log larger than the heap: exit 2 with the sizes while it loads the log, not a V8 heap crash", () => {
  const { dir } = setup();
  const input = join(dir, "wide.tsv");
  const lines = [`${HEADER}\tCategory\tUnit`];
  for (let i = 0; i < 300_000; i++)
    lines.push(`${i % 20_000}\tq${i % 997} w${i % 13}\t2006-03-01 07:33:28\t\t\tTop/Sports\tq${i % 997}`);
  writeFileSync(input, `${lines.join("\n")}\n`);
  const out = join(dir, "mdav.tsv");
  const r = spawnSync(
    process.execPath,
    ["bin/querymask.js", "anonymize", "--method", "mdav", input, "-o", out, "-q"],
    {
      encoding: "utf8",
      timeout: 120_000,
      env: { ...process.env, NODE_OPTIONS: "--max-old-space-size=200" },
    },
  );
  // Not grouped by user: the batch path stops loading once the rows outnumber what fits.
  refused(
    r,
    `${input}: `,
    /: ([\d,]+) rows or more: mdav holds the whole log in memory and about [\d,]+ fit.*--max-old-space-size/,
  );
  const met = Number(/([\d,]+) rows or more/.exec(r.stderr)![1]!.replaceAll(",", ""));
  assert.ok(met < 300_000, r.stderr);
  assert.equal(existsSync(out), false);
});
