/**
 * Suppression can join words into a text the identifier scrubber flags although the whole query was not
 * flagged: "mary qqq smith" loses its rare middle word and would read "mary smith", a person's name. km then
 * suppresses the flagged words from that user's history too and runs the greedy again, so the release holds no
 * identifier and stays (k,m)-anonymous. (On the AOL subset, k = 5, m = 2, this took 7 more (user, term) pairs
 * and made `querymask audit` pass `identifiers`.)
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { kmRecords } from "../../src/methods/km/index.ts";
import { createScrubber } from "../../src/scrub/scrubber.ts";
import { Rng } from "../../src/util/random.ts";
import { bruteViolations, logOf } from "./helpers.ts";

test("a query shortened into a name loses the name's words, and (k,m) still holds", () => {
  const scrubber = createScrubber();
  assert.equal(scrubber.scrub("mary qqq smith").spans.length, 0, "the whole query is not an identifier");
  assert.equal(scrubber.scrub("mary smith").spans.length, 1, "its shortened text is");
  const log = logOf([
    ["u1", "mary qqq smith"],
    ["u2", "virgin mary"],
    ["u2", "smith college"],
    ["u3", "virgin mary"],
    ["u3", "smith college"],
  ]);
  const r = kmRecords(log.records, { k: 2, m: 1, target: "users" }, Rng.fromSeed(1));
  const texts = r.records.map((x) => x.query);
  assert.ok(!texts.includes("mary smith"), texts.join(" | "));
  for (const t of texts) assert.deepEqual(scrubber.scrub(t).spans, [], t);
  assert.equal(r.counts["terms suppressed as identifying once shortened"], 2);
  assert.deepEqual(bruteViolations(r.records, 2, 1), []);
  assert.ok(texts.includes("virgin mary") && texts.includes("smith college"), "other users keep their words");
});
