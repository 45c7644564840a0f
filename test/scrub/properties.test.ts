/**
 * Properties over generated queries (fast-check): the released text never contains a detected e-mail, phone or
 * SSN value; drop mode is idempotent on its own output; spans are disjoint, sorted and point at their values;
 * scrubbing is deterministic.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { createScrubber } from "../../src/scrub/scrubber.ts";

const drop = createScrubber({ mode: "drop" });
const tag = createScrubber({ mode: "tag" });

const digits = (n: number) => fc.stringMatching(new RegExp(`^[0-9]{${n}}$`));
const sep = fc.constantFrom("-", " ", ".");
/** NANP: area code 200–799 (no toll-free), exchange not starting with 0. */
const phone = fc
  .tuple(fc.integer({ min: 200, max: 799 }), sep, fc.integer({ min: 100, max: 999 }), digits(4))
  .map(([a, s, b, c]) => `${a}${s}${b}${s}${c}`);
const ssn = fc
  .tuple(fc.integer({ min: 1, max: 665 }), fc.integer({ min: 1, max: 99 }), fc.integer({ min: 1, max: 9999 }))
  .map(
    ([a, b, c]) =>
      `${String(a).padStart(3, "0")}-${String(b).padStart(2, "0")}-${String(c).padStart(4, "0")}`,
  );
const user = fc.stringMatching(/^[a-z][a-z0-9._]{2,10}[a-z0-9]$/);
const email = fc
  .tuple(user, fc.constantFrom("aol.com", "yahoo.com", "example.org", "mail.uni.edu"))
  .map(([u, d]) => `${u}@${d}`);
const word = fc.constantFrom(
  "cheap", "flights", "to", "john", "smith", "oak", "st", "1234", "pizza", "near", "me", "555", "call", "lyrics",
  "obituary", "aol", "com", "genealogy", "mary", "baker", "route", "66", "zip", "ohio", "43085", "born", "may",
  "3", "1961", "apt", "a", "the", "windows", "95", "myspace", "www", "", "  ", "-", ".", "@",
); // biome-ignore format: a word list reads better packed
const piece = fc.oneof(
  { weight: 6, arbitrary: word },
  { weight: 1, arbitrary: phone },
  { weight: 1, arbitrary: ssn },
  { weight: 1, arbitrary: email },
);
const query = fc.array(piece, { maxLength: 10 }).map((ps) => ps.join(" "));
const anyText = fc.oneof(query, fc.string({ maxLength: 40 }));

const SIMPLE = new Set(["email", "phone", "id_number"]);

describe("scrubber properties", () => {
  it("released text never contains a detected e-mail, phone or SSN value (drop and tag)", () => {
    fc.assert(
      fc.property(query, (q) => {
        for (const s of [drop, tag]) {
          const r = s.scrub(q);
          for (const span of r.spans) {
            if (SIMPLE.has(span.type)) assert.ok(!r.text.includes(span.value), `${span.value} in ${r.text}`);
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it("every generated phone, SSN and e-mail is caught when it stands alone between words", () => {
    fc.assert(
      fc.property(fc.oneof(phone, ssn, email), (value) => {
        const r = drop.scrub(`find ${value} please`);
        assert.equal(r.text, "find please");
      }),
      { numRuns: 300 },
    );
  });

  it("drop mode is idempotent on its own output", () => {
    fc.assert(
      fc.property(anyText, (q) => {
        const once = drop.scrub(q);
        const twice = drop.scrub(once.text);
        assert.equal(twice.text, once.text);
        assert.deepEqual(twice.spans, []);
      }),
      { numRuns: 1000 },
    );
  });

  it("spans are disjoint, sorted, and their offsets point at their values", () => {
    fc.assert(
      fc.property(anyText, (q) => {
        const { spans } = tag.scrub(q);
        let at = 0;
        for (const s of spans) {
          assert.ok(s.start >= at && s.end > s.start, JSON.stringify(spans));
          assert.equal(q.slice(s.start, s.end), s.value);
          at = s.end;
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("is deterministic", () => {
    fc.assert(
      fc.property(anyText, (q) => {
        assert.deepEqual(drop.scrub(q), drop.scrub(q));
        assert.deepEqual(tag.scrub(q), createScrubber({ mode: "tag" }).scrub(q));
      }),
      { numRuns: 300 },
    );
  });
});
