import assert from "node:assert/strict";
import { test } from "node:test";
import { analyze, isStopword, nounPhrases, stem } from "../../src/text/index.ts";

test("stem is Porter's, matching the bundled termstats stems", () => {
  assert.equal(stem("players"), "player");
  assert.equal(stem("running"), "run");
  assert.equal(stem("misleadingly"), "misleadingli"); // a stem listed in data/termstats/web-document-frequency.tsv
  assert.equal(stem("estate"), "estat");
});

test("noun phrases of paper 004's Example 1", () => {
  assert.deepEqual(nounPhrases("diving in the Mediterranean"), ["diving", "mediterranean"]);
  assert.deepEqual(nounPhrases("windsurfing in the Mediterranean"), ["windsurfing", "mediterranean"]);
});

test("a noun compound stays one phrase; pure numbers are not phrases", () => {
  assert.deepEqual(nounPhrases("european soccer barcelona players"), ["european soccer barcelona players"]);
  assert.deepEqual(nounPhrases("1984"), []);
});

test("analyze tags adjectives and nouns and lemmatizes plurals", () => {
  const t = analyze("european soccer players");
  assert.deepEqual(
    t.map((x) => x.pos),
    ["ADJ", "NOUN", "NOUN"],
  );
  assert.equal(t[2]!.lemma, "player");
});

test("stopwords", () => {
  assert.ok(isStopword("the"));
  assert.ok(isStopword("their"));
  assert.ok(!isStopword("soccer"));
});
