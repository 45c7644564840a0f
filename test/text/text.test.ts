import assert from "node:assert/strict";
import { test } from "node:test";
import { analyze, isStopword, nounPhrases, stem } from "../../src/text/index.ts";
import { analyzeWords, textsOf } from "../../src/text/nlp.ts";

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

test("analyze gives what wink-nlp's public readDoc gives (it calls wink's pipeline steps directly)", async () => {
  const { default: winkNLP } = await import("wink-nlp");
  const { default: model } = await import("wink-eng-lite-web-model");
  const nlp = winkNLP(model, ["pos"]);
  const its = nlp.its;
  const texts = [
    "european soccer players",
    "cheap hotels in chicago",
    "don't stop believin' lyrics",
    "can't find my ipod",
    "www.example.com login",
    "e-mail jane@example.org 555-1234",
    "1,000 $20 3rd 1990s #tag :)",
    "ünïcödé straße café",
    "tab\tand\u00a0nbsp",
    "",
    "cheap cheap hotels chicago's mr. o'brien rock-n-roll can't",
    "two  spaces and a trailing space ",
  ];
  // Twice: the second round reads the words the first one taught the word-by-word tokenizer.
  for (const text of [...texts, ...texts]) {
    const tokens = nlp.readDoc(text.toLowerCase()).tokens();
    const values = tokens.out(its.value) as string[];
    const tags = tokens.out(its.pos) as string[];
    const lemmas = tokens.out(its.lemma as never) as unknown as string[];
    const expected = values
      .map((v, i) => ({ text: v, pos: tags[i]!, lemma: lemmas[i]!.toLowerCase() }))
      .filter((t) => t.pos !== "PUNCT" && t.pos !== "SPACE");
    const got = analyze(text).map((t) => ({ text: t.text, pos: t.pos, lemma: t.lemma }));
    assert.deepEqual(got, expected, text);
  }
});

test("analyzeWords gives analyze's tokens, with the words' lexeme slots empty and then filled", () => {
  const texts = [
    "cheap hotels in chicago",
    "don't stop believin' lyrics",
    "mr. o'brien's rock-n-roll 1990s",
    "e-mail jane@example.org 555-1234",
    "Capital Letters here",
    "two  spaces",
    "",
  ];
  const show = (ts: readonly { text: string; pos: string; lemma: string }[]) =>
    ts.map((t) => ({ text: t.text, pos: t.pos, lemma: t.lemma }));
  for (const text of texts) {
    const words = text.split(" ");
    const slots = words.map(() => ({ lexeme: -1 }));
    assert.deepEqual(show(analyzeWords(text, words, slots)), show(analyze(text)), text);
    assert.deepEqual(show(analyzeWords(text, words, slots)), show(analyze(text)), `${text} (slots filled)`);
  }
});

test("a query's tokens do not depend on the queries read before it (wink's lexicon grows with each new word)", async () => {
  const { default: fc } = await import("fast-check");
  // Single letters between full stops (`q.x.`, `q.x.j.`), never the same twice in this process: new to wink.
  let n = 1000;
  const fresh = (letters: number) => {
    const s: string[] = [];
    for (let k = ++n, i = 0; i < letters; i++, k = Math.floor(k / 26))
      s.push(String.fromCharCode(97 + (k % 26)));
    return s.join(".");
  };
  /** Tokens with every letter an `x`: words of one shape compare equal. */
  const shape = (text: string) => textsOf(analyze(text)).map((t) => t.replace(/[a-z]/g, "x"));
  // wink keeps `q.x.` whole, but once it had read `q.x` (`q.x zorblax`) it split `q.x.` into `q.x` and `.` (an
  // abbreviation lost its full stop) until nlp.ts hid the words wink learnt from its tokenizer: a word read before
  // or not must give the same tokens.
  fc.assert(
    fc.property(fc.integer({ min: 2, max: 4 }), fc.constantFrom(".", ".,", ".)"), (letters, end) => {
      const seen = fresh(letters);
      const unseen = fresh(letters);
      analyze(`${seen} senate`);
      assert.deepEqual(shape(`${seen}${end} postage`), shape(`${unseen}${end} postage`));
    }),
    { numRuns: 40 },
  );
});
