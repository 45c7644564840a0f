import assert from "node:assert/strict";
import { test } from "node:test";
import { loadKnowledgeBase } from "../../src/knowledge/knowledge-base.ts";
import { MISSING_TOP_LEVELS } from "../../src/knowledge/taxonomy.ts";

// Built from bundled data on first use (into .cache/), then loaded from the snapshot.
const kb = await loadKnowledgeBase();
const top = (ids: readonly number[]) =>
  ids.length === 0 ? "" : kb.taxonomy.path(kb.taxonomy.ancestorAt(ids[0]!, 1));

test("taxonomy keeps full ODP paths and the added top levels", () => {
  for (const t of MISSING_TOP_LEVELS) assert.ok(kb.taxonomy.id(`Top/${t}`) !== undefined, t);
  const soccer = kb.taxonomy.id("Top/Sports/Soccer");
  assert.ok(soccer !== undefined);
  assert.deepEqual(kb.lookup("soccer"), [soccer, ...kb.lookup("soccer").slice(1)]);
});

test("lookup maps words through WordNet to categories", () => {
  assert.equal(top(kb.lookup("jazz")), "Top/Arts"); // jazz → music genre → music
  assert.equal(top(kb.lookup("pneumonia")), "Top/Health"); // → respiratory disease → disease
  assert.equal(top(kb.lookup("barcelona")), "Top/Regional"); // instance of city
  assert.equal(top(kb.lookup("players")), "Top/Sports"); // plural reaches the lemma
});

test("lookup shortens from the left (paper 004 §4.1.2)", () => {
  assert.deepEqual(kb.lookup("exciting water sports"), kb.lookup("water sports"));
  assert.equal(kb.taxonomy.path(kb.lookup("water sports")[0]!), "Top/Sports/Water_Sports");
});

test("lookup of gibberish is empty", () => {
  assert.deepEqual(kb.lookup("xqzvbnm"), []);
  assert.deepEqual(kb.lookup(""), []);
});

test("places are weak units, topics are not", () => {
  assert.ok(kb.isWeak(["barcelona"]));
  assert.ok(!kb.isWeak(["soccer"]));
});

test("inputs carry licences", () => {
  assert.ok(kb.inputs.length >= 4);
  for (const i of kb.inputs) assert.ok(i.licence.length > 0, i.name);
});

test("startsPhrase is false only when no phrase of two or more stems starts with the stem", () => {
  assert.ok(kb.startsPhrase !== undefined);
  assert.ok(kb.startsPhrase!("water")); // "water sports"
  assert.ok(kb.lookupStems(["water", "sport"]) !== undefined);
  assert.ok(!kb.startsPhrase!("xqzvbnm"));
  assert.equal(kb.lookupStems(["xqzvbnm", "sport"]), undefined);
  assert.equal(kb.isWeak(["xqzvbnm", "sport"]), false);
});

test("phraseSeconds bounds the phrases that start with a pair of stems", () => {
  assert.ok(kb.phraseSeconds !== undefined);
  assert.ok((kb.phraseSeconds!("water")?.get("sport") ?? 0) >= 2); // "water sports"
  assert.equal(kb.phraseSeconds!("water")?.get("xqzvbnm"), undefined);
  assert.equal(kb.phraseSeconds!("xqzvbnm")?.size, 0);
  assert.equal(kb.phraseSeconds!("water sport"), undefined); // a spaced stem: no bound
});

test("a word's senses are weighed with the search prior: the common web sense leads", () => {
  // battery: WordNet's most-tagged sense is artillery, but the electric cell is what people search for.
  assert.equal(top(kb.lookup("battery")), "Top/Shopping");
  // An ODP label in another branch than the word's sense is a homonym: the swimming pool is no cue sport.
  assert.ok(!kb.taxonomy.path(kb.lookup("pool")[0]!).startsWith("Top/Sports/Cue_Sports"));
});

test("named places keep their own entry when their stem is a common word's; towns come from GeoNames", () => {
  assert.equal(top(kb.lookup("billings")), "Top/Regional"); // stem "bill", as the bills to pay
  assert.equal(kb.lookupWord?.("billings")?.weak, true);
  assert.equal(kb.lookupWord?.("soccer"), undefined); // ordinary words use their stem
  assert.equal(top(kb.lookup("scottsdale")), "Top/Regional"); // not in WordNet
  assert.ok(kb.isWeak(["scottsdal"]));
  assert.equal(top(kb.lookup("pa")), "Top/Regional"); // state code before `pas` (a dance step)
});

test("irregular plurals reach their singular", () => {
  assert.equal(kb.lookup("children")[0], kb.lookup("child")[0]);
  assert.equal(top(kb.lookup("teeth")), top(kb.lookup("tooth")));
});

test("brands and sites map to the branch that lists them", () => {
  assert.equal(top(kb.lookup("toyota")), "Top/Recreation");
  assert.equal(top(kb.lookup("walgreens")), "Top/Health");
  assert.equal(top(kb.lookup("american airlines")), "Top/Recreation");
});

test("anchors whose stems collide keep their own entries", () => {
  // `animal` and `animation` share the Porter stem `anim`.
  assert.equal(top(kb.lookup("animation")), "Top/Arts");
  assert.equal(top(kb.lookup("animal")), "Top/Recreation");
});

test("a word nothing else places takes its category from its WordNet gloss, as a weak unit", () => {
  // hematochezia: "passage of stools containing blood …" reaches no anchor on its chain and has no mapped
  // lexicographer file; its definition's nouns vote for Health. symptomless (an adjective with no pertainym):
  // "having no symptoms of illness or disease".
  for (const w of ["hematochezia", "symptomless"]) {
    assert.equal(top(kb.lookup(w)), "Top/Health", w);
    assert.ok(kb.isWeak([w]), w);
  }
  // Placed words keep their own categories, not weak.
  assert.ok(!kb.isWeak(["pneumonia"]));
});

test("a thing reaches Science through its hypernyms only as an idea, phenomenon, process or animal", () => {
  // cleanser (noun.artifact) → cleansing agent → compound: searched as a product, not as chemistry.
  assert.notEqual(top(kb.lookup("cleanser")), "Top/Science");
  // What sciences study keeps its chain: a branch of mathematics, a phenomenon, an insect.
  assert.equal(top(kb.lookup("trigonometry")), "Top/Science");
  assert.equal(top(kb.lookup("magnetism")), "Top/Science");
  assert.equal(top(kb.lookup("cockroach")), "Top/Science");
});
