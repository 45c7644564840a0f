import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import {
  AtomicTextFile,
  removeStaleTemps,
  temporaryDirectory,
  writeFileAtomic,
  writeFileAtomicSync,
} from "../../src/log/atomic.ts";
import { RejectSink } from "../../src/log/rejects.ts";
import { tempDir } from "../helpers/tmp.ts";

const LINE = `${"x".repeat(99)}\n`;

test("a stream error ends the write with the error instead of waiting for a drain that never comes", {
  timeout: 10_000,
}, async () => {
  const f = new AtomicTextFile(join(tempDir(), "missing-dir", "out.tsv"));
  await assert.rejects(async () => {
    for (let i = 0; i < 20_000; i++) await f.write(LINE);
    await f.commit();
  }, /ENOENT/);
});

test("a reject file that cannot be written fails the run at close, with the error (no hang)", {
  timeout: 10_000,
}, async () => {
  // As in a run whose --rejects names a missing directory: a few rejects, the open fails, much later close().
  const sink = new RejectSink(join(tempDir(), "missing-dir", "r.tsv"));
  sink.add({ file: "in.tsv", line: 3, reason: "bad", raw: LINE });
  await new Promise((r) => setTimeout(r, 50));
  await assert.rejects(sink.close(), /ENOENT/);
});

test("many writes behind a full buffer wait on one drain: no MaxListenersExceededWarning", async () => {
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(w.name);
  process.on("warning", onWarning);
  try {
    const dir = tempDir();
    const f = new AtomicTextFile(join(dir, "big.tsv"));
    const chunk = LINE.repeat(3000); // 300 KB: every write is a flush
    const waits: Promise<void>[] = [];
    for (let i = 0; i < 50; i++) {
      const p = f.write(chunk);
      if (p) waits.push(p);
    }
    await Promise.all(waits);
    await f.commit();
    assert.equal(readFileSync(join(dir, "big.tsv"), "utf8").length, chunk.length * 50);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(warnings, []);
  } finally {
    process.off("warning", onWarning);
  }
});

test("a reject sink honours back-pressure: backlog() is a promise while the file is behind", async () => {
  const dir = tempDir();
  const sink = new RejectSink(join(dir, "r.tsv"));
  let waited = 0;
  for (let i = 0; i < 30_000; i++) {
    sink.add({ file: "in.tsv", line: i + 1, reason: "bad", raw: LINE });
    const b = sink.backlog();
    if (b) {
      waited++;
      await b;
    }
  }
  await sink.close();
  assert.ok(waited > 0);
  assert.equal(readFileSync(join(dir, "r.tsv"), "utf8").split("\n").length, 30_002);
});

test("stale temp files of dead processes are removed; live ones and other files are kept", async () => {
  const dir = tempDir();
  const out = join(dir, "out.tsv");
  const deadPid = 2_147_483_600; // above any pid_max: no such process
  const stale = join(dir, `.out.tsv.${deadPid}.1.tmp`);
  const mine = join(dir, `.out.tsv.${process.pid}.99.tmp`);
  const other = join(dir, `.other.tsv.${deadPid}.1.tmp`);
  for (const p of [stale, mine, other]) writeFileSync(p, "partial");
  assert.deepEqual(await removeStaleTemps(out), [stale]);
  assert.ok(existsSync(mine) && existsSync(other));
  writeFileSync(stale, "partial");
  await writeFileAtomic(out, "done\n");
  assert.equal(readFileSync(out, "utf8"), "done\n");
  assert.ok(!existsSync(stale));
});

test("temporary directories a killed run left (classified copies, sorted runs) are removed by the next run", async () => {
  const dir = tempDir();
  const deadPid = 2_147_483_600;
  const stale = [
    `.querymask-classify-${deadPid}-AbC123`,
    `.querymask-sort-${deadPid}-x9y8z7`,
    `querymask-sort-${deadPid}-qwerty`,
  ];
  const live = `.querymask-classify-${process.pid}-LiVe12`;
  const unrelated = "querymask-notes"; // not a temporary directory's name
  for (const d of [...stale, live, unrelated]) {
    mkdirSync(join(dir, d));
    writeFileSync(join(dir, d, "rows.tsv"), "raw rows of a log\n");
  }
  // A new temporary directory sweeps its parent…
  const t = await temporaryDirectory(dir, ".querymask-sort-");
  assert.ok(t.dir.startsWith(join(dir, `.querymask-sort-${process.pid}-`)), t.dir);
  await t.dispose();
  assert.deepEqual(readdirSync(dir).sort(), [live, unrelated].sort());
  // …and so does a new output file in the same directory.
  mkdirSync(join(dir, stale[0]!));
  await writeFileAtomic(join(dir, "out.tsv"), "x\n");
  assert.deepEqual(readdirSync(dir).sort(), [live, "out.tsv", unrelated].sort());
});

test("writeFileAtomicSync: the whole file or the previous one; no temp file left on failure", () => {
  const dir = tempDir();
  const out = join(dir, "state.json");
  writeFileSync(out, "previous\n");
  writeFileAtomicSync(out, "new\n");
  assert.equal(readFileSync(out, "utf8"), "new\n");
  writeFileAtomicSync(out, Buffer.from([1, 2, 3]));
  assert.deepEqual([...readFileSync(out)], [1, 2, 3]);
  assert.deepEqual(readdirSync(dir), ["state.json"]);
  // A target that cannot be replaced (a directory in its place): the error, and no temp file.
  const blocked = join(dir, "blocked");
  mkdirSync(join(blocked, "x"), { recursive: true });
  assert.throws(() => writeFileAtomicSync(blocked, "x"), /EISDIR|ENOTEMPTY|EEXIST/);
  assert.deepEqual(readdirSync(dir).sort(), ["blocked", "state.json"]);
});

test("commit and abort leave no temp file; abort leaves the previous file", async () => {
  const dir = tempDir();
  const out = join(dir, "out.tsv");
  writeFileSync(out, "previous\n");
  const a = new AtomicTextFile(out);
  a.write("new\n");
  await a.abort();
  assert.equal(readFileSync(out, "utf8"), "previous\n");
  await writeFileAtomic(out, "new\n");
  assert.equal(readFileSync(out, "utf8"), "new\n");
  assert.deepEqual(readdirSync(dir), ["out.tsv"]);
});

/**
 * Run `script` (an ES module) in a child process until it prints a line, check that it left one entry in `dir`, end
 * it with SIGTERM, and check that it died of the signal and left nothing in `dir`.
 */
async function diesBySigterm(script: string, dir: string): Promise<void> {
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
  assert.equal(readdirSync(dir).length, 1);
  const exited = new Promise((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
  child.kill("SIGTERM");
  assert.equal(await exited, "SIGTERM");
  assert.deepEqual(readdirSync(dir), []);
}

test("SIGTERM removes the temp file and still ends the process by the signal", async () => {
  const dir = tempDir();
  const out = join(dir, "out.tsv");
  const script = `
    import { AtomicTextFile } from ${JSON.stringify(new URL("../../src/log/atomic.ts", import.meta.url).href)};
    const f = new AtomicTextFile(${JSON.stringify(out)});
    await f.write("x".repeat(1 << 20));
    process.stdout.write("ready\\n");
    setInterval(() => {}, 1000);
  `;
  await diesBySigterm(script, dir);
});

test("a temporary directory (sorted runs, a classified copy) is removed by dispose, on SIGTERM, and on an error", async () => {
  const dir = tempDir();
  const atomic = JSON.stringify(new URL("../../src/log/atomic.ts", import.meta.url).href);
  // Removed by dispose.
  const t = await temporaryDirectory(dir, ".querymask-sort-");
  writeFileSync(join(t.dir, "run-0.tsv"), "x\n");
  await t.dispose();
  assert.deepEqual(readdirSync(dir), []);
  // Removed when the process dies of a signal while the directory is in use.
  const script = `
    import { writeFileSync } from "node:fs";
    import { temporaryDirectory } from ${atomic};
    const t = await temporaryDirectory(${JSON.stringify(dir)}, ".querymask-classify-");
    writeFileSync(t.dir + "/classified.tsv", "rows of the input\\n");
    process.stdout.write("ready\\n");
    setInterval(() => {}, 1000);
  `;
  await diesBySigterm(script, dir);
  // Removed when the process ends with an error.
  const failing = `
    import { temporaryDirectory } from ${atomic};
    await temporaryDirectory(${JSON.stringify(dir)}, ".querymask-sort-");
    setTimeout(() => { throw new Error("the run failed"); }, 20);
  `;
  const r = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", failing], {
    encoding: "utf8",
  });
  assert.notEqual(r.status, 0);
  assert.deepEqual(readdirSync(dir), []);
});

test("a run that fails after opening its reject file leaves no temp file (the exit handler removes it)", () => {
  const dir = tempDir();
  const script = `
    import { RejectSink } from ${JSON.stringify(new URL("../../src/log/rejects.ts", import.meta.url).href)};
    const sink = new RejectSink(${JSON.stringify(join(dir, "out.tsv.rejects.PRIVATE.tsv"))});
    sink.add({ file: "in.tsv", line: 2, reason: "bad", raw: "x" });
    setTimeout(() => { throw new Error("the method failed"); }, 50);
  `;
  const r = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    encoding: "utf8",
  });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /the method failed/);
  assert.deepEqual(readdirSync(dir), []);
});
