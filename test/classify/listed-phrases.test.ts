/**
 * An allow list's phrases filed under a category (`dale brickner TAB Sports`) are the classifier's knowledge: a
 * query that is the name alone is filed where the list says (the same name under two categories in two lists
 * lands in each), the name is one unit, other answers of the knowledge base are the snapshot's, and a category
 * the taxonomy lacks is the list's error, `file:line: reason`.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Classifier } from "../../src/classify/classifier.ts";
import { withPhrases } from "../../src/knowledge/extra-phrases.ts";
import { loadKnowledgeBase } from "../../src/knowledge/knowledge-base.ts";
import { AllowList } from "../../src/scrub/allow-list.ts";
import { stem } from "../../src/text/stem.ts";
import { InputError } from "../../src/util/errors.ts";

describe("listed phrases", async () => {
  const kb = await loadKnowledgeBase();

  it("a listed name alone is filed under its list's category, as one unit; without a category it is not forced", async () => {
    const sports = await Classifier.create({
      kb,
      allow: AllowList.parse("dale brickner\tSports\n", "a.txt"),
    });
    const music = await Classifier.create({
      kb,
      allow: AllowList.parse("dale brickner\tArts/Music\n", "b.txt"),
    });
    for (const q of ["dale brickner", "dale brickner's", "the dale brickner"]) {
      assert.deepEqual(
        [sports.classify(q).category, sports.classify(q).unit],
        ["Top/Sports", "dale brickner"],
        q,
      );
      assert.equal(music.classify(q).category, "Top/Arts/Music", q);
    }
    // A listed name is as the list spells it: "grantt" is not corrected to "grant" (a singer's name of the snapshot).
    const spelled = await Classifier.create({ kb, allow: AllowList.parse("amy grantt\tSports\n", "d.txt") });
    assert.deepEqual(
      [spelled.classify("amy grantt").category, spelled.classify("amy grantt").corrected],
      ["Top/Sports", undefined],
    );
    // The other queries are the snapshot's classifier's.
    const plain = await Classifier.create({ kb });
    for (const q of ["european soccer barcelona players", "cheap flights", "kenny chesney"])
      assert.deepEqual(sports.classify(q), plain.classify(q), q);
  });

  it("adds the phrases to the knowledge base and answers everything else as the base does", () => {
    const tax = kb.taxonomy;
    const sportsId = tax.id("Top/Sports")!;
    const ext = withPhrases(kb, [{ words: ["dale", "brickner"], ids: [sportsId] }]);
    assert.equal(withPhrases(kb, []), kb);
    const key = ["dale", "brickner"].map((w) => stem(w));
    assert.deepEqual(ext.lookupStems(key), [sportsId]);
    assert.deepEqual(ext.lookupKey!(key.join(" ")), [sportsId]);
    assert.equal(ext.isWeak(key), false);
    assert.ok(ext.startsPhrase!(key[0]!));
    assert.ok(ext.longestPhrase!(key[0]!) >= 2);
    assert.equal(ext.phraseSeconds!(key[0]!)?.get(key[1]!), 2);
    assert.equal(ext.contentHash, kb.contentHash);
    assert.equal(ext.phraseCount, kb.phraseCount + 1);
    for (const stems of [["european", "soccer"], ["soccer"], ["cheap"], ["barcelona"]])
      assert.deepEqual(ext.lookupStems(stems), kb.lookupStems(stems), stems.join(" "));
    for (const s of ["soccer", "new", "european"]) {
      assert.equal(ext.longestPhrase!(s), kb.longestPhrase!(s), s);
      assert.deepEqual(ext.phraseSeconds!(s), kb.phraseSeconds!(s), s);
    }
  });

  it("a category the knowledge base lacks is refused as file:line: reason", async () => {
    await assert.rejects(
      Classifier.create({
        kb,
        allow: AllowList.parse("# people\ndale brickner\tSports\nrod tillman\tBaseball\n", "c.txt"),
      }),
      (e: unknown) => e instanceof InputError && /^c\.txt:3: Baseball is not an ODP category/.test(e.message),
    );
  });
});
