import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { tempDir } from "../helpers/tmp.ts";

const EXCITE = "data/excite/excite-small.log";
const run = (...args: string[]) =>
  spawnSync(process.execPath, ["bin/querymask.js", "simulate-clientside", "-q", ...args], {
    encoding: "utf8",
  });

/** A ring of `n` friends, as an edge list. */
const ring = (n: number) => Array.from({ length: n }, (_, i) => `p${i} p${(i + 1) % n}`).join("\n");

test("simulate-clientside writes the engine's view and prints the PEL summary as JSON", () => {
  const dir = tempDir();
  const out = join(dir, "view.log");
  const r = run(EXCITE, "--seed", "7", "--worst-case", "50", "--json", "-o", out);
  assert.equal(r.status, 0, r.stderr);
  const s = JSON.parse(r.stdout);
  assert.equal(s.users, 891);
  assert.equal(s.events, 4482);
  for (const k of ["meanPel", "pelP10", "pelP50", "pelP90", "uncertaintyAbove70", "uncertaintyAbove80"])
    assert.equal(typeof s[k], "number", k);
  assert.ok(s.meanPel > 0 && s.meanPel < 100);
  assert.ok(s.byNeighbours.length > 0);
  assert.equal(s.worstCase.copies, 50);
  // Lines as written: a query may end in a space (Excite's do), so only the final newline goes.
  const lines = (path: string) => readFileSync(path, "utf8").replace(/\n$/, "").split("\n");
  const view = lines(out);
  const input = lines(EXCITE);
  assert.equal(view.length, input.length);
  // The same (time, query) lines, under possibly other ids.
  const strip = (l: string) => l.split("\t").slice(1).join("\t");
  assert.deepEqual(view.map(strip).sort(), input.map(strip).sort());
  assert.notDeepEqual(view.map((l) => l.split("\t")[0]).sort(), input.map((l) => l.split("\t")[0]).sort());
  // Same seed, same view.
  const again = join(dir, "again.log");
  assert.equal(run(EXCITE, "--seed", "7", "--worst-case", "50", "-o", again).status, 0);
  assert.equal(readFileSync(again, "utf8"), readFileSync(out, "utf8"));
  // The method draws the same streams for the seed: anonymize --method clientside releases the same view.
  const method = join(dir, "method.log");
  const m = spawnSync(
    process.execPath,
    ["bin/querymask.js", "anonymize", "-q", "--method", "clientside", EXCITE, "--seed", "7", "-o", method],
    { encoding: "utf8" },
  );
  assert.equal(m.status, 0, m.stderr);
  assert.equal(readFileSync(method, "utf8"), readFileSync(out, "utf8"));
});

test("an edge list with a bad line stops with file:line and exit 2, or is set aside with --lenient", () => {
  const dir = tempDir();
  const edges = join(dir, "friends.txt");
  writeFileSync(edges, `${ring(900)}\np1 p2 p3\n`);
  const r = run(EXCITE, "--edges", edges, "--json");
  assert.equal(r.status, 2);
  assert.match(r.stderr, new RegExp(`${edges}:901: expected two node names`));
  const out = join(dir, "view.log");
  const ok = run(EXCITE, "--edges", edges, "--lenient", "--json", "-o", out);
  assert.equal(ok.status, 0, ok.stderr);
  const s = JSON.parse(ok.stdout);
  assert.equal(s.edgesRejected, 1);
  assert.equal(s.nodes, 900);
  assert.equal(s.meanNeighbours, 2);
  assert.match(readFileSync(`${out}.edges.rejects.tsv`, "utf8"), /\t901\texpected two node names/);
});

test("usage errors exit 2: a network too small, a bad share, -o over the input", () => {
  const dir = tempDir();
  const edges = join(dir, "small.txt");
  writeFileSync(edges, ring(10));
  const small = run(EXCITE, "--edges", edges);
  assert.equal(small.status, 2);
  assert.match(small.stderr, /10 nodes but the log has 891 users/);
  const bad = run(EXCITE, "--selfish", "1.5");
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /selfish: must be in \[0, 1\]/);
  const copy = join(dir, "log.txt");
  writeFileSync(copy, readFileSync(EXCITE));
  const over = run(copy, "-o", copy);
  assert.equal(over.status, 2);
  assert.match(over.stderr, /must not overwrite an input/);
  assert.equal(readFileSync(copy, "utf8"), readFileSync(EXCITE, "utf8"));
});

test("anonymize --method clientside classifies an unclassified log for PEL and leaves the queries as typed", () => {
  const out = join(tempDir(), "view.log");
  const r = spawnSync(
    process.execPath,
    [
      "bin/querymask.js",
      "anonymize",
      "--method",
      "clientside",
      "--degree",
      "4",
      "-q",
      "--json",
      EXCITE,
      "-o",
      out,
    ],
    { encoding: "utf8" },
  );
  assert.equal(r.status, 0, r.stderr);
  const s = JSON.parse(r.stdout);
  assert.ok(s.pelUsers > 200, `pelUsers ${s.pelUsers}`);
  assert.equal(typeof s.meanPel, "number");
  const strip = (text: string) =>
    text
      .trimEnd()
      .split("\n")
      .map((l) => l.split("\t").slice(1).join("\t"))
      .sort();
  assert.deepEqual(strip(readFileSync(out, "utf8")), strip(readFileSync(EXCITE, "utf8")));
});
