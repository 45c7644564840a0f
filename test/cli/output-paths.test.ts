import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { checkPaths as checkOutputPaths } from "../../src/log/paths.ts";
import { UsageError } from "../../src/util/errors.ts";
import { tempDir } from "../helpers/tmp.ts";

const HEADER = "AnonID\tQuery\tQueryTime\tItemRank\tClickURL\n";
const ROWS = `${HEADER}1\tsoccer\t2006-03-01 07:33:28\t\t\n2\tweather\t2006-03-01 08:00:00\t\t\n`;

const cli = (...args: string[]) =>
  spawnSync(process.execPath, ["bin/querymask.js", ...args], { encoding: "utf8" });

function setup() {
  const dir = tempDir();
  const input = join(dir, "in.tsv");
  writeFileSync(input, ROWS);
  return { dir, input };
}

/** Exit 2 with `querymask: <path>: reason`, no stack trace, the input untouched. */
function refused(r: ReturnType<typeof cli>, path: string, reason: RegExp, input?: string) {
  assert.equal(r.status, 2, r.stderr);
  assert.ok(r.stderr.startsWith(`querymask: ${path}: `), r.stderr);
  assert.match(r.stderr, reason);
  assert.doesNotMatch(r.stderr, /\n\s+at /);
  if (input) assert.equal(readFileSync(input, "utf8"), ROWS);
}

test("-o naming the input (or a symlink to it) is refused before any work; the input is untouched", () => {
  const { dir, input } = setup();
  refused(cli("anonymize", "--method", "identity", "-q", input, "-o", input), input, /is an input/, input);
  const link = join(dir, "link.tsv");
  symlinkSync(input, link);
  refused(cli("anonymize", "--method", "identity", "-q", input, "-o", link), link, /is the input/, input);
  refused(cli("classify", "-q", input, "-o", input), input, /must not overwrite an input/, input);
  refused(cli("scrub", "-q", input, "-o", input), input, /must not overwrite an input/, input);
});

test("--rejects naming the input is refused; the input keeps its rows", () => {
  const { dir, input } = setup();
  const out = join(dir, "out.tsv");
  const r = cli("anonymize", "--method", "identity", "-q", "--lenient", "--rejects", input, input, "-o", out);
  refused(r, input, /reject file must not overwrite an input/, input);
});

test("a directory, a character device, a missing directory: exit 2 up front, nothing written", () => {
  const { dir, input } = setup();
  refused(cli("anonymize", "--method", "identity", "-q", input, "-o", dir), dir, /is a directory/);
  refused(
    cli("anonymize", "--method", "identity", "-q", input, "-o", "/dev/null"),
    "/dev/null",
    /not a regular file/,
  );
  const deep = join(dir, "missing", "x.tsv");
  refused(cli("anonymize", "--method", "identity", "-q", input, "-o", deep), deep, /does not exist/);
  const rejects = join(dir, "missing", "r.tsv");
  const out = join(dir, "out.tsv");
  refused(
    cli("anonymize", "--method", "identity", "-q", "--lenient", "--rejects", rejects, input, "-o", out),
    rejects,
    /does not exist/,
  );
  refused(cli("generate", "--users", "3", "-q", "-o", deep), deep, /does not exist/);
  refused(cli("profile", "-q", input, "--db", dir), dir, /is a directory/);
  assert.deepEqual(readdirSync(dir).sort(), ["in.tsv"]);
});

test("the output and the reject file may not be the same file", async () => {
  const { dir, input } = setup();
  const out = join(dir, "out.tsv");
  await assert.rejects(
    checkOutputPaths(
      [
        { path: out, role: "output" },
        { path: out, role: "reject file" },
      ],
      [input],
    ),
    (e: unknown) => e instanceof UsageError && /same file/.test(e.message),
  );
});

test("a directory output may be new (with new parents) but not an existing file", async () => {
  const { dir, input } = setup();
  await checkOutputPaths([{ path: join(dir, "a", "b"), role: "output directory", directory: true }]);
  mkdirSync(join(dir, "c"));
  await checkOutputPaths([{ path: join(dir, "c"), role: "output directory", directory: true }]);
  await assert.rejects(
    checkOutputPaths([{ path: input, role: "output directory", directory: true }]),
    /not a directory/,
  );
});

test("lenient rejects go to <out>.rejects.PRIVATE.tsv and the summary says to keep them private", () => {
  const { dir } = setup();
  const input = join(dir, "bad.tsv");
  writeFileSync(input, `${ROWS}3\tbad\tnot a time\t\t\n`);
  const out = join(dir, "out.tsv");
  const r = cli("anonymize", "--method", "identity", "-q", "--lenient", input, "-o", out);
  assert.equal(r.status, 0, r.stderr);
  assert.match(readFileSync(`${out}.rejects.PRIVATE.tsv`, "utf8"), /not a time/);
  assert.match(r.stderr, /1 bad lines set aside in .*rejects\.PRIVATE\.tsv .*private/);
});
