/**
 * The scrubber's stored word lists (src/scrub/lexicon/stored.ts): tables round-trip through their text form,
 * a stored file is read instead of rebuilt while its inputs are the same, rebuilt when they change, and a torn
 * file is rebuilt rather than trusted.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import fc from "fast-check";
import { PackedCounts } from "../../src/knowledge/packed-counts.ts";
import { lines, linesTable, mapTable, storedTables } from "../../src/scrub/lexicon/stored.ts";

const entry = fc.string({ minLength: 1 }).filter((s) => !/[\n\t]/.test(s));

describe("stored scrubber lexicon", () => {
  it("a map of words to counts survives its table", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(entry, fc.nat()), { maxLength: 50 }), (pairs) => {
        const m = new Map(pairs);
        assert.deepEqual([...new PackedCounts(mapTable(m)).entries()], [...m]);
      }),
    );
  });

  it("a list of entries survives its table, the empty one included", () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 50 }), (xs) => {
        assert.deepEqual(lines(linesTable(xs)), xs);
      }),
    );
  });

  it("refuses an entry that would split a line", () => {
    assert.throws(() => linesTable(["a\tb"]), /tab or line break/);
    assert.throws(() => mapTable(new Map([["a\nb", 1]])), /tab or line break/);
  });

  it("builds once per inputs, reads the stored file after, rebuilds when the inputs change or the file is torn", () => {
    const dir = mkdtempSync(join(tmpdir(), "qm-lexicon-"));
    try {
      let builds = 0;
      const build = () => {
        builds++;
        return { words: linesTable(["ann", "bo"]), n: String(builds) };
      };
      const first = storedTables("t", ["pkg 1.0"], build, dir);
      assert.equal(builds, 1);
      assert.deepEqual(storedTables("t", ["pkg 1.0"], build, dir), first);
      assert.equal(builds, 1);
      assert.equal(storedTables("t", ["pkg 1.1"], build, dir).n, "2");
      writeFileSync(join(dir, "scrub-t.json"), "{not json");
      assert.equal(storedTables("t", ["pkg 1.1"], build, dir).n, "3");
      assert.equal(builds, 3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
