import assert from "node:assert/strict";
import { test } from "node:test";
import { Classifier } from "../../src/classify/classifier.ts";

// Algorithm 1 and its rules alone: the learned layer (model.ts) is tested in model.test.ts.
const classifier = await Classifier.create({ cacheSize: 0, model: null });
const tax = classifier.kb.taxonomy;
const topOf = (q: string) => {
  const id = classifier.classify(q).categoryId;
  return id < 0 ? "" : tax.label(tax.ancestorAt(id, 1));
};

test("World: content words of one foreign dictionary, without function words", () => {
  assert.equal(topOf("zapatos baratos mujer"), "World");
  assert.equal(topOf("gebrauchte autos kaufen"), "World");
});

test("World: English queries with foreign-looking names or loanwords stay English", () => {
  for (const q of ["los angeles lakers tickets", "pizza pasta restaurant", "kirsten dunst", "samsung tvs"])
    assert.notEqual(topOf(q), "World", q);
});

test("domain words decide queries nothing else places", () => {
  assert.equal(topOf("charizard cards"), "Games");
});
