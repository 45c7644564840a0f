import assert from "node:assert/strict";
import { test } from "node:test";
import { decodeTrieV3, packageInfo, parseWordList } from "../../src/knowledge/cspell.ts";
import { loadKnowledgeBase } from "../../src/knowledge/knowledge-base.ts";
import { DOMAIN_LEXICONS, FOREIGN_LEXICONS, NAME_LISTS } from "../../src/knowledge/lexicons.ts";
import { bundledNames, famousPeople } from "../../src/knowledge/name-packages.ts";
import { createScrubber } from "../../src/scrub/scrubber.ts";

test("TrieXv3: end of word, steps back, digit steps and references", () => {
  // c-a-t-s, `$` ends "cats" and steps back to "cat", `$` ends "cat" and steps back to "ca", `3` steps back two
  // more (to the root); `b`, then `a` leads to the node referenced as 2, which is node 3 (root 0, the shared
  // end-of-word 1, then nodes in order of creation: c 2, a 3 — the node "ca" reaches, so "bat" and "bats"),
  // `<<` back to the root.
  const text =
    "#!/usr/bin/env cspell-trie reader\nTrieXv3\nbase=10\n# comment\n__DATA__\ncats$$3ba#2;<<dog$\n";
  assert.deepEqual(decodeTrieV3(text), ["cat", "cats", "bat", "bats", "dog"]);
  // escapes and the length cap
  const esc = "TrieXv3\nbase=32\n__DATA__\na\\-b$<<<abcdef$\n";
  assert.deepEqual(decodeTrieV3(esc), ["a-b", "abcdef"]);
  assert.deepEqual(decodeTrieV3(esc, 3), ["a-b"]);
  assert.throws(() => decodeTrieV3("hello\nworld\n"));
});

test("plain cspell word lists: comments and markers dropped", () => {
  assert.deepEqual(parseWordList("# cspell-tools: keep-case\n\nAlpha\n!beta\n+gamma*\n"), [
    "Alpha",
    "beta",
    "gamma",
  ]);
});

test("every lexicon package is installed and names its licence", () => {
  for (const p of [...DOMAIN_LEXICONS, ...NAME_LISTS, ...FOREIGN_LEXICONS]) {
    if ("bundled" in p && p.bundled !== undefined) {
      // generated from the package into data/knowledge/: the package itself is no dependency
      assert.ok(bundledNames(p.bundled).length > 100, p.bundled);
      continue;
    }
    const info = packageInfo(p.name);
    assert.match(info.version, /^\d+\.\d+\.\d+/);
    assert.equal(info.license, p.licence, p.name);
  }
});

const kb = await loadKnowledgeBase();
const top = (phrase: string) => {
  const id = kb.lookup(phrase)[0];
  return id === undefined ? "" : kb.taxonomy.label(kb.taxonomy.ancestorAt(id, 1));
};

test("domain lexicons place words WordNet lacks: software, games", () => {
  assert.equal(top("javascript"), "Computers");
  assert.equal(top("pikachu"), "Games");
});

test("name lists place performers' names, whole or as one word", () => {
  assert.equal(top("martin garrix"), "Arts");
  assert.equal(top("deftones"), "Arts");
  assert.equal(top("discworld"), "Arts");
  assert.equal(top("cesky terrier"), "Recreation");
  assert.equal(top("allegiant air"), "Recreation");
  // a name is entered whole only: its words keep their own categories
  assert.equal(top("garrix"), "");
});

test("name lists place famous people by occupation, comic characters, companies and car models", () => {
  assert.equal(top("diego maradona"), "Sports");
  assert.equal(top("carl sagan"), "Science");
  assert.equal(top("lex luthor"), "Arts");
  assert.equal(top("sinopec group"), "Business");
  assert.equal(top("chevrolet silverado"), "Recreation");
});

test("the scrubber's curated public figures are placed by field: the scrubber keeps them, the classifier files them", () => {
  // (in neither Pantheon nor faker's lists)
  for (const [name, field] of [
    ["dale earnhardt", "Sports"],
    ["dave matthews", "Arts"],
  ] as const) {
    assert.equal(top(name), field, name);
    assert.deepEqual(createScrubber().scrub(name).spans, [], name);
  }
  // sections by heading; a mixed section is not read for a field
  const athletes = famousPeople(["athletes and sports figures", "more athletes and sports figures"]);
  assert.ok(athletes.includes("allen iverson") && athletes.includes("tiger woods"));
  assert.ok(!athletes.includes("norah jones") && !athletes.includes("paris hilton"));
});

test("domain lexicons leave names, common words and misspellings alone", () => {
  // a surname, a letter of the alphabet, a listed misspelling, a common word
  assert.notEqual(top("keith"), "Health");
  assert.notEqual(top("kappa"), "Health");
  assert.notEqual(top("dalmation"), "Health");
  assert.notEqual(top("house"), "Health");
});

test("foreign words: in their language's dictionary, never English words", () => {
  const bit = (lang: string) => 1 << FOREIGN_LEXICONS.findIndex((l) => l.lang === lang);
  const langs = kb.foreignLanguages?.bind(kb);
  assert.ok(langs !== undefined);
  assert.ok(langs("zapatos") & bit("es"));
  assert.ok(langs("kaufen") & bit("de"));
  assert.ok(langs("guenstig") & bit("de")); // umlaut typed as `ue`
  for (const w of ["house", "restaurant", "pizza", "kirsten", "samsung"]) assert.equal(langs(w), 0, w);
});
