import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { editDistance, parseMisspellings, SpellingCorrector } from "../../src/knowledge/spelling.ts";
import { isStopword } from "../../src/text/stopwords.ts";

/** Plain Damerau–Levenshtein (OSA) without early exit, as the reference. */
function reference(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

const word = fc.string({ unit: fc.constantFrom("a", "b", "c", "d"), maxLength: 9 });

test("editDistance agrees with the reference up to the cap", () => {
  fc.assert(
    fc.property(word, word, (a, b) => {
      assert.equal(editDistance(a, b, 2), Math.min(reference(a, b), 3));
      assert.equal(editDistance(a, b, 2), editDistance(b, a, 2));
    }),
  );
  assert.equal(editDistance("soccer", "soccre"), 1); // transposition
});

const corrector = new SpellingCorrector({
  words: ["soccer", "socket", "player", "players", "calendar", "pogo", "games"],
  counts: [500, 100, 900, 800, 50, 20, 1000],
  misspellings: parseMisspellings(["lisence->license", "accurs->accurse, occurs"]),
});

test("nearest: closest word, then the most referenced", () => {
  assert.equal(corrector.nearest("soccor"), "soccer");
  assert.equal(corrector.nearest("calandar"), "calendar");
  assert.equal(corrector.nearest("calnedar"), "calendar"); // a transposition
  assert.equal(corrector.nearest("socker"), "soccer"); // one edit from soccer and from socket: more referenced
  assert.equal(corrector.nearest("plyers"), "players"); // one edit beats two
});

test("nearest finds words through deletions inside runs of a letter and at either end", () => {
  const c = new SpellingCorrector({
    words: ["balloon", "coffee", "address", "banana"],
    counts: [10, 10, 10, 10],
    misspellings: new Map(),
  });
  assert.equal(c.nearest("baloon"), "balloon"); // the word's deletion inside "ll"
  assert.equal(c.nearest("balloonn"), "balloon"); // the probe's deletion
  assert.equal(c.nearest("cofee"), "coffee");
  assert.equal(c.nearest("adress"), "address");
  assert.equal(c.nearest("offee"), "coffee"); // first letter missing
  assert.equal(c.nearest("banan"), "banana"); // last letter missing
  assert.equal(c.nearest("adddresss"), "address"); // two edits, 7+ letters
  assert.equal(c.nearest("bannnana"), "banana");
});

test("nearest across the index's parts by key length: words of one and two letters, probes past the longest word", () => {
  const c = new SpellingCorrector({
    words: ["a", "to", "cats", "dogs", "kittens", "mittens"],
    counts: [1, 1, 5, 5, 3, 7],
    misspellings: new Map(),
  });
  assert.equal(c.nearest("cats"), "cats"); // the word itself, entered whole
  assert.equal(c.nearest("catss"), "cats"); // a probe one letter longer
  assert.equal(c.nearest("dgs"), undefined); // under 4 letters: left alone
  assert.equal(c.nearest("kitens"), "kittens"); // a probe one letter shorter
  assert.equal(c.nearest("sittens"), "mittens"); // one edit from both: the more referenced
  assert.equal(c.nearest("kittensss"), "kittens"); // two edits, 7+ letters
  assert.equal(c.nearest("abracadabrasaurus"), undefined); // longer than any word by more than two
  assert.equal(c.nearest("kittensssss"), undefined);
});

test("nearest leaves short, vowel-less and far words alone", () => {
  assert.equal(corrector.nearest("soc"), undefined);
  assert.equal(corrector.nearest("xqzvbnm"), undefined);
  assert.equal(corrector.nearest("zzzzzzzz"), undefined);
});

test("misspelling list: first suggestion wins", () => {
  assert.equal(corrector.listed("lisence"), "license");
  assert.equal(corrector.listed("accurs"), "accurse");
  assert.equal(corrector.listed("soccer"), undefined);
});

test("split run-together words into vocabulary words", () => {
  assert.deepEqual(corrector.split("pogogames"), ["pogo", "games"]);
  assert.deepEqual(corrector.split("soccerplayers"), ["soccer", "players"]);
  assert.equal(corrector.split("soccer"), undefined);
  assert.equal(corrector.split("xyzxyzxyz"), undefined);
});

test("a site's name may hold function words between vocabulary words; a typed word may not", () => {
  const c = new SpellingCorrector({
    words: ["cheap", "cars", "sale", "snore", "sno", "reno", "family"],
    counts: [900, 800, 700, 100, 5, 50, 400],
    misspellings: new Map(),
  });
  assert.deepEqual(c.split("cheapcarsforsale", true), ["cheap", "cars", "for", "sale"]);
  assert.equal(c.split("cheapcarsforsale"), undefined);
  assert.deepEqual(c.split("findmyfamily", true), ["find", "my", "family"]);
  // The most probable split: a common function word and a commoner word beat two rare words.
  assert.deepEqual(c.split("snorenomore", true), ["snore", "no", "more"]);
  // Function words alone are no reading, nor are single letters.
  assert.equal(c.split("forthewhat", true), undefined);
  assert.equal(c.split("acheapcars", true), undefined);
  // Whatever the split, its pieces spell the word: vocabulary words of 3 letters or more, or function words.
  const piece = fc.constantFrom(
    "cheap",
    "cars",
    "sale",
    "snore",
    "reno",
    "family",
    "for",
    "my",
    "the",
    "to",
    "a",
    "q",
  );
  fc.assert(
    fc.property(fc.array(piece, { minLength: 1, maxLength: 7 }), (ps) => {
      const w = ps.join("");
      const s = c.split(w, true);
      if (s === undefined) return;
      assert.equal(s.join(""), w);
      assert.ok(s.length >= 2 && s.length <= 6, w);
      assert.ok(
        s.some((x) => c.knows(x)),
        w,
      );
      for (const x of s)
        assert.ok((c.knows(x) && x.length >= 3) || (isStopword(x) && x.length >= 2 && x.length <= 5), w);
    }),
  );
});

test("a site's name may be a name of its own beside vocabulary words, cut where the fewest words remain", () => {
  const c = new SpellingCorrector({
    words: ["coffee", "worth", "shoes", "hoes", "online", "auction", "cheap", "cars", "network"],
    counts: [900, 800, 700, 100, 600, 500, 900, 800, 400],
    misspellings: new Map(),
  });
  // The name whole rather than a syllable that happens to be a word ("bram" + "worth coffee").
  assert.deepEqual(c.splitAroundName("bramworthcoffee"), ["bramworth", "coffee"]);
  // Of two single words, the one leaving the shortest name ("shoes", not "hoes").
  assert.deepEqual(c.splitAroundName("plimauxshoes"), ["plimaux", "shoes"]);
  // One known word rather than two: "qzonline" is the name.
  assert.deepEqual(c.splitAroundName("qzonlineauction"), ["qzonline", "auction"]);
  // A name last, and the fewest known words: "carsqzx" is the name beside "cheap".
  assert.deepEqual(c.splitAroundName("cheapcarsqzx"), ["cheap", "carsqzx"]);
  assert.deepEqual(c.splitAroundName("qrxnetwork"), ["qrx", "network"]);
  // A name of fewer than 3 letters, function words alone, or nothing known: no reading.
  assert.equal(c.splitAroundName("xnetwork"), undefined);
  assert.equal(c.splitAroundName("qzxforthe"), undefined);
  assert.equal(c.splitAroundName("qzxqzxqzx"), undefined);
  // Whatever it returns spells the word: one piece the vocabulary lacks, first or last, of 3 letters or more.
  const piece = fc.constantFrom(
    "coffee",
    "worth",
    "shoes",
    "online",
    "cars",
    "for",
    "my",
    "qzx",
    "blorf",
    "a",
  );
  fc.assert(
    fc.property(fc.array(piece, { minLength: 1, maxLength: 5 }), (ps) => {
      const w = ps.join("");
      const s = c.splitAroundName(w);
      if (s === undefined) return;
      assert.equal(s.join(""), w);
      const unknown = s.filter((x) => !c.knows(x) && !isStopword(x));
      assert.equal(unknown.length, 1, `${w}: ${s}`);
      assert.ok(unknown[0] === s[0] || unknown[0] === s[s.length - 1], w);
      assert.ok(unknown[0]!.length >= 3, w);
    }),
  );
});
