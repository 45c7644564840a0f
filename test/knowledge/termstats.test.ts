import assert from "node:assert/strict";
import { test } from "node:test";
import { TermStats } from "../../src/knowledge/termstats.ts";
import { InputError } from "../../src/util/errors.ts";

test("parses N then term counts; phrase counts are below each word's", () => {
  const ts = TermStats.fromTsv("1000\neuropean\t200\nsoccer\t100\n", "t.tsv");
  assert.equal(ts.documents, 1000);
  assert.equal(ts.count("soccer"), 100);
  const phrase = ts.phraseCount(["european", "soccer"]);
  assert.ok(Math.abs(phrase - 20) < 1e-9); // 1000 · 0.2 · 0.1
  assert.ok(phrase < ts.phraseCount(["soccer"]));
  assert.equal(ts.phraseCount(["unknownword"]), 1);
});

test("a malformed line is an InputError naming file and line", () => {
  assert.throws(
    () => TermStats.fromTsv("1000\nok\t1\nbroken line\n", "hits.tsv"),
    (e: unknown) => e instanceof InputError && e.file === "hits.tsv" && e.line === 3,
  );
});

test("the bundled table is the AOL document-frequency stand-in", () => {
  const ts = TermStats.bundled();
  assert.equal(ts.documents, 1_040_984);
  assert.ok((ts.count("soccer") ?? 0) < (ts.count("player") ?? 0));
});
