import assert from "node:assert/strict";
import { test } from "node:test";
import { nameWords, stripAccents } from "../../src/text/names.ts";

test("nameWords: lower case, no punctuation, no accents, no leading article", () => {
  assert.deepEqual(nameWords("The Beach Walkers & Co."), ["beach", "walkers", "and", "co"]);
  assert.deepEqual(nameWords("AC/DC"), ["acdc"]);
  assert.deepEqual(nameWords("Zoë Kravitz-Smith"), ["zoe", "kravitz", "smith"]);
  assert.equal(stripAccents("cœur brûlé"), "coeur brule");
});
