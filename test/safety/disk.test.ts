/**
 * A full disk and a read-only file system, on a small tmpfs mounted in a private mount namespace (`unshare -rm`:
 * no root needed where user namespaces are allowed; nothing is left mounted whatever happens). A full disk mid-run
 * exits 1 with one line naming the file, leaves the previous output as it was and no temporary file or directory
 * behind; a read-only one is refused before any work, exit 2, for every kind of output. Skipped, with the reason,
 * where no tmpfs can be mounted.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { test } from "node:test";
import { tempDir } from "../helpers/tmp.ts";

const dir = tempDir("querymask-disk-");
const mnt = join(dir, "mnt");
mkdirSync(mnt);
const probe = spawnSync("unshare", ["-rm", "sh", "-c", `mount -t tmpfs -o size=64k tmpfs '${mnt}'`], {
  encoding: "utf8",
});
const skip =
  probe.status === 0
    ? false
    : `cannot mount a tmpfs in a private namespace here (unshare -rm: ${(probe.stderr || String(probe.error)).trim()})`;

const BIN = resolve("bin/querymask.js");
const PREVIOUS = "AnonID\tQuery\tQueryTime\tItemRank\tClickURL\n9\tprevious\t2006-03-01 00:00:00\t\t\n";

interface Run {
  readonly code: number;
  readonly err: string;
}

/**
 * Mount a `kib` KiB tmpfs at `mnt` (holding `out.tsv` = PREVIOUS), run `setup` then each command line, in the
 * namespace; each line's exit code and stderr, the listing of the tmpfs and its out.tsv after the last.
 */
function inTmpfs(
  kib: number,
  lines: readonly (readonly string[])[],
  setup = "",
): { runs: Run[]; listing: string[]; out: string } {
  const res = join(dir, `res-${Math.random().toString(36).slice(2)}`);
  mkdirSync(res);
  const q = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
  const script = [
    "set -u",
    `mount -t tmpfs -o size=${kib}k tmpfs ${q(mnt)} || exit 99`,
    `cat ${q(join(dir, "previous.tsv"))} > ${q(join(mnt, "out.tsv"))}`,
    setup,
    ...lines.map(
      (args, i) =>
        `${q(process.execPath)} ${q(BIN)} ${args.map(q).join(" ")} -q > /dev/null 2> ${q(join(res, `${i}.err`))}; echo $? > ${q(join(res, `${i}.rc`))}`,
    ),
    `ls -A ${q(mnt)} > ${q(join(res, "ls"))}`,
    `cat ${q(join(mnt, "out.tsv"))} > ${q(join(res, "out"))}`,
  ].join("\n");
  const r = spawnSync("unshare", ["-rm", "sh", "-c", script], { encoding: "utf8", timeout: 600_000 });
  assert.equal(r.status, 0, r.stderr);
  return {
    runs: lines.map((_, i) => ({
      code: Number(readFileSync(join(res, `${i}.rc`), "utf8")),
      err: readFileSync(join(res, `${i}.err`), "utf8"),
    })),
    listing: readFileSync(join(res, "ls"), "utf8").split("\n").filter(Boolean),
    out: readFileSync(join(res, "out"), "utf8"),
  };
}

test.before(() => {
  if (skip) return;
  writeFileSync(join(dir, "previous.tsv"), PREVIOUS);
  const g = spawnSync(
    process.execPath,
    [BIN, "generate", "--rows", "30000", "--seed", "3", "-q", "-o", join(dir, "log.tsv")],
    { encoding: "utf8" },
  );
  assert.equal(g.status, 0, g.stderr);
});

test("a full disk mid-run: exit 1, one line naming the file, the previous output kept, nothing left behind", {
  skip,
}, () => {
  const log = join(dir, "log.tsv");
  const o = (name: string) => join(mnt, name);
  // The log is 2 MB; the tmpfs holds 256 KiB.
  const lines = [
    ["anonymize", "--method", "identity", log, "-o", o("out.tsv")],
    ["anonymize", "--method", "swap", log, "-o", o("swap.tsv")],
    ["anonymize", "--method", "km", log, "-o", o("km.tsv")],
    ["scrub", log, "-o", o("out.tsv"), "--lenient", "--rejects", o("rejects.tsv")],
    ["classify", log, "-o", o("out.tsv")],
  ];
  const { runs, listing, out } = inTmpfs(256, lines);
  runs.forEach((r, i) => {
    const what = lines[i]!.slice(0, 3).join(" ");
    assert.equal(r.code, 1, `${what}: ${r.err}`);
    assert.equal(r.err.trim().split("\n").length, 1, `${what}: ${r.err}`);
    assert.match(r.err, new RegExp(`^querymask: ${mnt}/\\S+: ENOSPC: no space left on device`), what);
  });
  assert.equal(out, PREVIOUS, "the previous output is as it was");
  assert.deepEqual(listing, ["out.tsv"], "no temporary file or directory is left");
});

test("a read-only file system: every kind of output refused before any work, exit 2", { skip }, () => {
  const log = join(dir, "log.tsv");
  const config = join(dir, "config.json");
  writeFileSync(config, JSON.stringify({ log, methods: [{ method: "identity" }] }));
  const o = (name: string) => join(mnt, name);
  const lines = [
    ["anonymize", "--method", "swap", log, "-o", o("out.tsv")],
    ["stats", log, "--lenient", "--rejects", o("rejects.tsv")],
    ["profile", log, "--db", o("p.db")],
    ["serve", "--port", "0", "--state", o("state.json")],
    ["experiment", config, "-o", o("exp")],
    ["kb", "build", "-o", o("kb.json")],
  ];
  const t0 = Date.now();
  const { runs, listing, out } = inTmpfs(256, lines, `mount -o remount,ro '${mnt}'`);
  runs.forEach((r, i) => {
    const what = lines[i]!.slice(0, 2).join(" ");
    assert.equal(r.code, 2, `${what}: ${r.err}`);
    assert.match(r.err, /^querymask: \S+: cannot write in directory \S+ \(read-only file system\)\n$/, what);
  });
  assert.equal(out, PREVIOUS);
  assert.deepEqual(listing, ["out.tsv"]);
  assert.ok(Date.now() - t0 < 120_000, "refused up front, not after the work");
});
