/**
 * Terminal escapes in the data never reach the terminal raw, from any command that prints: user ids, queries and
 * click URLs that clear the screen, set the window's title, ring the bell, return the carriage or hold a C1 control
 * (the one-byte CSI), in tables, examples, notes, progress lines, error messages and `--json`, and in the names of
 * the files a command reads and writes. Each command runs as a user runs it (bin/querymask.js); what it printed must
 * hold no control character but tab and line feed, and must show the data it printed escaped. (The command lines
 * run in one process, runs-child.ts, through the command's own entry: the classifier loads once.)
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { guardStream, unguarded } from "../../src/util/terminal.ts";
import { tempDir } from "../helpers/tmp.ts";

/** In the data; a carriage return too in file names (a log's field cannot be written with one). */
const ESC = "\u001b[2J\u001b]0;owned\u0007\u009b1m";
const NAME = `${ESC}\r`;
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const HEADER = "AnonID\tQuery\tQueryTime\tItemRank\tClickURL";

/** Six users whose ids, queries and click URLs carry the escapes, six plain ones, and a bad line that quotes them. */
function hostileLog(): string {
  const lines = [HEADER];
  for (let i = 1; i <= 6; i++) {
    lines.push(`u${ESC}${i}\tq${ESC} common\t2006-03-01 07:3${i}:28\t1\thttp://x${ESC}.com`);
    lines.push(`u${ESC}${i}\tshared query\t2006-03-01 08:3${i}:28\t\t`);
    lines.push(`v${i}\tq${ESC} common\t2006-03-02 07:3${i}:28\t\t`);
  }
  return `${lines.join("\n")}\n`;
}

test("no command prints a control character of its data or its file names raw", { timeout: 900_000 }, () => {
  const root = tempDir("querymask-terminal-");
  const dir = join(root, `d${NAME}`);
  mkdirSync(dir);
  const log = join(dir, `in${NAME}.tsv`);
  writeFileSync(log, hostileLog());
  const bad = join(dir, `bad${NAME}.tsv`);
  writeFileSync(bad, `${hostileLog()}w\tbad${ESC}\tnot a time${ESC}\t\t\n`);
  const out = (name: string) => join(dir, `${name}${NAME}.tsv`);
  const lenient = (name: string) => ["--lenient", "--rejects", out(`${name}-rejects`)];
  const classified = out("classified");
  const released = out("identity");
  const config = join(dir, `config${NAME}.json`);
  writeFileSync(
    config,
    JSON.stringify({ log: `in${NAME}.tsv`, methods: [{ method: "identity" }, { method: "threshold" }] }),
  );
  const runs: [string, string[]][] = [
    ["stats", ["stats", bad, ...lenient("stats")]],
    ["stats strict", ["stats", bad]],
    ["scrub", ["scrub", bad, "-o", out("scrub"), ...lenient("scrub")]],
    ["classify", ["classify", log, "-o", classified]],
    ["anonymize identity", ["anonymize", "--method", "identity", bad, "-o", released, ...lenient("id")]],
    ["anonymize swap", ["anonymize", "--method", "swap", log, "-o", out("swap")]],
    ["anonymize threshold", ["anonymize", "--method", "threshold", log, "-o", out("thr"), "--json"]],
    ["anonymize km", ["anonymize", "--method", "km", log, "-o", out("km")]],
    ["anonymize dp", ["anonymize", "--method", "dp", log, "-o", out("dp"), "--diagnostics"]],
    ["check-km", ["check-km", "--k", "13", "--m", "1", log]],
    ["check-km --json", ["check-km", "--k", "13", "--m", "1", log, "--json"]],
    ["audit", ["audit", "-m", "threshold", "--k", "13", "--original", log, "--released", released]],
    [
      "audit --json",
      ["audit", "-m", "threshold", "--k", "13", "--original", log, "--released", released, "--json"],
    ],
    ...["deanon1", "matcher", "background"].map((a): [string, string[]] => [
      `attack ${a}`,
      ["attack", "-a", a, "--original", log, "--released", out("swap")],
    ]),
    ["profile", ["profile", classified, "--db", join(dir, `p${NAME}.db`)]],
    ["profile --json", ["profile", classified, "--db", join(dir, `q${NAME}.db`), "--json"]],
    ["simulate-clientside", ["simulate-clientside", log, "--degree", "1", "-o", out("clientside")]],
    ["experiment", ["experiment", config, "-o", join(dir, `exp${NAME}`)]],
    ["serve (a path refused)", ["serve", "--port", "0", "--released", log, "--state", log]],
  ];
  const lines = join(root, "lines.json");
  writeFileSync(lines, JSON.stringify(runs.map(([, args]) => args)));
  const child = spawnSync(
    process.execPath,
    ["--import", "tsx", new URL("./runs-child.ts", import.meta.url).pathname, lines],
    { encoding: "utf8", maxBuffer: 1 << 26 },
  );
  assert.equal(child.status, 0, child.stderr);
  const results = JSON.parse(child.stdout) as { code: number; out: string; err: string }[];
  const problems: string[] = [];
  runs.forEach(([name, args], i) => {
    const r = { status: results[i]!.code, stdout: results[i]!.out, stderr: results[i]!.err };
    const printed = `${r.stdout}${r.stderr}`;
    const expected =
      name.endsWith("strict") || name.startsWith("serve") ? 2 : name.startsWith("check-km") ? 1 : 0;
    if (r.status !== expected && !(name.startsWith("audit") && r.status === 1))
      problems.push(`${name}: exit ${r.status}: ${r.stderr}`);
    if (/\n\s+at /.test(r.stderr)) problems.push(`${name}: a stack trace`);
    const at = printed.search(RAW);
    if (at >= 0) problems.push(`${name}: raw control in ${JSON.stringify(printed.slice(at - 40, at + 20))}`);
    // It printed the data (or a path), escaped, so the check above looked at something. (An attack prints
    // counts only, and names no file.)
    if (!name.startsWith("attack") && !/\\(x|u00)1b\[2J/.test(printed))
      problems.push(`${name}: printed none of its data: ${printed}`);
    if (args.includes("--json") && !name.startsWith("anonymize")) {
      try {
        JSON.parse(r.stdout);
      } catch {
        problems.push(`${name}: --json is not JSON once escaped: ${r.stdout.slice(0, 300)} ${r.stderr}`);
      }
    }
  });
  assert.deepEqual(problems, []);
});

test("a guarded stream escapes text and bytes, keeps JSON JSON with the same value, and a bar writes around it", () => {
  const got: unknown[] = [];
  const stream = {
    write(chunk: unknown, cb?: () => void) {
      got.push(chunk);
      cb?.();
      return true;
    },
    isTTY: true,
  } as unknown as NodeJS.WriteStream;
  guardStream(stream);
  guardStream(stream); // once only
  const value = { query: `a${ESC}b\tc\nd` };
  let called = false;
  stream.write(`${JSON.stringify(value)}\n`, () => {
    called = true;
  });
  assert.ok(called, "the callback is passed on");
  const json = got[0] as string;
  assert.ok(!RAW.test(json), json);
  assert.deepEqual(JSON.parse(json), value);
  stream.write(Buffer.from(`x${ESC}`));
  assert.equal(got[1], "x\\u001b[2J\\u001b]0;owned\\u0007\\u009b1m");
  const plain = Buffer.from("plain text, é and tabs\t\n");
  stream.write(plain);
  assert.equal(got[2], plain, "text without controls goes through untouched");
  unguarded(stream).write("\u001b[1G");
  assert.equal(got[3], "\u001b[1G");
  assert.equal(unguarded(stream).isTTY, true);
});
