import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { BUILD_CODE, buildFingerprint, SNAPSHOT_VERSION } from "../../src/knowledge/fingerprint.ts";
import { isStale } from "../../src/knowledge/knowledge-base.ts";
import type { KbSnapshot } from "../../src/knowledge/snapshot.ts";
import { tempDir } from "../helpers/tmp.ts";

const empty = { inputs: [], categories: [], phrases: "", spelling: "", misspellings: "" };
const snap = (version: number, fingerprint?: string, termstatsFile?: string): KbSnapshot => ({
  ...empty,
  version,
  termstats: { source: "", documents: 1, entries: "" },
  ...(fingerprint !== undefined ? { fingerprint } : {}),
  ...(termstatsFile !== undefined ? { termstatsFile } : {}),
});

test("the fingerprint is stable and follows the content of the build inputs", () => {
  const dir = tempDir("qm-fp-");
  const a = join(dir, "a.tsv");
  writeFileSync(a, "10\nsoccer\t3\n");
  const fa = buildFingerprint(a);
  assert.equal(buildFingerprint(a), fa);
  writeFileSync(a, "10\nsoccer\t4\n");
  assert.notEqual(buildFingerprint(a), fa);
  assert.notEqual(buildFingerprint(), fa);
});

test("a snapshot is stale when its version or its inputs' fingerprint differ", () => {
  assert.equal(isStale(snap(SNAPSHOT_VERSION, buildFingerprint())), false);
  assert.equal(isStale(snap(SNAPSHOT_VERSION - 1, buildFingerprint())), true);
  assert.equal(isStale(snap(SNAPSHOT_VERSION, "0".repeat(32))), true);
  assert.equal(isStale(snap(SNAPSHOT_VERSION)), true); // written before fingerprints existed
  // Built from a user's term table: judged against that table.
  const dir = tempDir("qm-fp-");
  const t = join(dir, "hits.tsv");
  writeFileSync(t, "5\nsoccer\t2\n");
  assert.equal(isStale(snap(SNAPSHOT_VERSION, buildFingerprint(t), t)), false);
  assert.equal(isStale(snap(SNAPSHOT_VERSION, buildFingerprint(), t)), true);
});

test("the fingerprint covers the build's code, not the modules that only read a snapshot", () => {
  const names = BUILD_CODE.map((f) => f.slice(f.lastIndexOf("/") + 1).replace(/\.(ts|js)$/, ""));
  for (const m of ["build", "termstats", "snapshot", "stem", "nlp", "names"]) assert.ok(names.includes(m), m);
  // Editing how a snapshot is read must not force every user to rebuild it (~25 CPU-s).
  for (const m of ["knowledge-base", "packed-counts", "embeddings"]) assert.ok(!names.includes(m), m);
});
