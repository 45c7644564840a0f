/**
 * The engine and the operators: overlapping findings resolve to disjoint spans by score, then length, then
 * position; tag and drop outputs; options; determinism; drop mode's fixed point.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { Engine, resolveOverlaps } from "../../src/scrub/engine.ts";
import { DEFAULT_NAME_WEIGHTS } from "../../src/scrub/name-weights.ts";
import { applyOperator } from "../../src/scrub/operators.ts";
import type { Finding, Recognizer, RecognizerContext } from "../../src/scrub/recognizer.ts";
import { defaultRecognizers } from "../../src/scrub/registry.ts";
import { createScrubber } from "../../src/scrub/scrubber.ts";
import { prepare } from "../../src/scrub/tokenize.ts";

const context: RecognizerContext = { nameWeights: DEFAULT_NAME_WEIGHTS };
const f = (type: Finding["type"], start: number, end: number, score: number): Finding => ({
  type,
  start,
  end,
  value: "x".repeat(end - start),
  score,
});

describe("resolveOverlaps", () => {
  it("keeps the higher score when spans overlap", () => {
    const kept = resolveOverlaps([f("zip", 10, 15, 0.7), f("street_address", 0, 12, 0.8)]);
    assert.deepEqual(
      kept.map((k) => k.type),
      ["street_address"],
    );
  });
  it("prefers the longer span on equal scores, then the earlier one", () => {
    assert.equal(resolveOverlaps([f("phone", 0, 5, 0.5), f("id_number", 2, 12, 0.5)])[0]!.type, "id_number");
    assert.equal(resolveOverlaps([f("phone", 3, 8, 0.5), f("id_number", 0, 5, 0.5)])[0]!.type, "id_number");
  });
  it("keeps disjoint and touching spans, sorted by start", () => {
    const kept = resolveOverlaps([f("email", 10, 20, 0.9), f("phone", 0, 10, 0.1), f("zip", 20, 25, 0.5)]);
    assert.deepEqual(
      kept.map((k) => [k.start, k.end]),
      [
        [0, 10],
        [10, 20],
        [20, 25],
      ],
    );
  });
  it("does not depend on the order of the findings", () => {
    const all = [f("zip", 4, 9, 0.6), f("phone", 0, 9, 0.6), f("date", 4, 9, 0.6), f("email", 8, 12, 0.6)];
    const a = resolveOverlaps(all);
    const b = resolveOverlaps(all.slice().reverse());
    assert.deepEqual(a, b);
  });
});

describe("resolveOverlaps properties", () => {
  const finding = fc
    .tuple(
      fc.constantFrom("phone", "zip", "email", "date" as const),
      fc.nat(60),
      fc.integer({ min: 1, max: 15 }),
      fc.constantFrom(0.5, 0.6, 0.7, 0.8),
    )
    .map(([type, start, len, score]) => f(type, start, start + len, score));

  it("keeps a sorted, disjoint subset, and every dropped finding overlaps a kept one that ranks as high", () => {
    fc.assert(
      fc.property(fc.array(finding, { maxLength: 30 }), (all) => {
        const kept = resolveOverlaps(all);
        for (let i = 1; i < kept.length; i++) assert.ok(kept[i - 1]!.end <= kept[i]!.start);
        for (const k of kept) assert.ok(all.includes(k));
        for (const d of all) {
          if (kept.includes(d)) continue;
          const blockers = kept.filter((k) => k.start < d.end && d.start < k.end);
          assert.ok(
            blockers.some((k) => k.score >= d.score),
            `dropped ${JSON.stringify(d)} without a kept overlapping finding that scores as high`,
          );
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe("engine with the real recognizers", () => {
  it("a cue followed by two number words ends (it looped forever) and still finds the code", () => {
    const r = defaultRecognizers().find((x) => x.name === "id-number")!;
    assert.deepEqual(r.find(prepare("ssn number number mmvi"), context), []);
    const found = r.find(prepare("account number no 448213"), context);
    assert.equal(found.length, 1);
    assert.equal("account number no 448213".slice(found[0]!.start, found[0]!.end), "448213");
  });
  it("an address wins over a phone-like house number and a name inside it", () => {
    const r = createScrubber({ mode: "tag" }).scrub("john baker 1234 main st apt 5");
    assert.deepEqual(
      r.spans.map((s) => s.type),
      ["person_name", "street_address"],
    );
    assert.equal(r.text, "[PERSON] [ADDRESS]");
  });
  it("engine skips recognizers whose kinds are all disabled", () => {
    let calls = 0;
    const spy: Recognizer = {
      name: "spy",
      types: ["date"],
      find: () => {
        calls++;
        return [];
      },
    };
    new Engine([spy], ["email"]).analyze("anything");
    assert.equal(calls, 0);
    new Engine([spy], ["date"]).analyze("anything");
    assert.equal(calls, 1);
  });
  it("engine calls a recognizer that needs a digit only on text with one", () => {
    let calls = 0;
    const spy: Recognizer = {
      name: "spy",
      types: ["date"],
      needsDigit: true,
      find: () => {
        calls++;
        return [];
      },
    };
    const engine = new Engine([spy], ["date"]);
    engine.analyze("no digits here");
    assert.equal(calls, 0);
    engine.analyze("born 1970");
    assert.equal(calls, 1);
  });
  it("recognizers that declare needsDigit find nothing in text without a digit", () => {
    const needing = defaultRecognizers().filter((r) => r.needsDigit);
    assert.ok(needing.length >= 7);
    const word = fc.constantFrom(
      "po",
      "p",
      "o",
      "box",
      "main",
      "st",
      "street",
      "ave",
      "account",
      "number",
      "#",
      "ssn",
      "zip",
      "code",
      "oh",
      "ca",
      "born",
      "on",
      "march",
      "july",
      "dob",
      "call",
      "phone",
      "ip",
      "www",
      "com",
      "-",
      ".",
      "/",
      ":",
      "@",
      "dot",
      "xiv",
      "mmvi",
      "one",
      "two",
      "l",
      "o",
      "i",
    );
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 8 }),
        fc.constantFrom(" ", "-", ".", "/", ""),
        (ws, sep) => {
          const text = ws.join(sep === "" ? " " : ` ${sep} `);
          const query = prepare(text);
          for (const r of needing) assert.deepEqual(r.find(query, context), [], `${r.name}: ${text}`);
        },
      ),
    );
  });
});

describe("operators and options", () => {
  it("applyOperator inserts replacements without gluing neighbours", () => {
    const spans = [{ type: "phone" as const, start: 4, end: 16, value: "555-123-4567" }];
    assert.equal(
      applyOperator("call555-123-4567now", spans, () => ""),
      "call now",
    );
    assert.equal(
      applyOperator("call555-123-4567now", spans, () => "[PHONE]"),
      "call [PHONE] now",
    );
  });
  it("tag mode uses default and overridden tags", () => {
    const r = createScrubber({ mode: "tag", tags: { phone: "<tel>" } }).scrub("jsmith@aol.com 555-123-4567");
    assert.equal(r.text, "[EMAIL] <tel>");
  });
  it("drop mode removes spans and normalizes whitespace", () => {
    assert.equal(createScrubber().scrub("  call   555-123-4567   now ").text, "call now");
  });
  it("types restricts what is looked for", () => {
    const r = createScrubber({ mode: "tag", types: ["phone"] }).scrub("jsmith@aol.com 555-123-4567");
    assert.equal(r.text, "jsmith@aol.com [PHONE]");
  });
  it("rejects unknown modes and types", () => {
    assert.throws(() => createScrubber({ mode: "hash" as never }), TypeError);
    assert.throws(() => createScrubber({ types: ["shoe_size" as never] }), TypeError);
  });
  it("is deterministic across instances and calls", () => {
    const q = "mary k wojcik 1234 oak st springfield il 62701 555-123-4567 mwojcik aol com";
    const a = createScrubber({ mode: "tag" }).scrub(q);
    const b = createScrubber({ mode: "tag" }).scrub(q);
    assert.deepEqual(a, b);
    assert.deepEqual(createScrubber({ mode: "tag" }).scrub(q), a);
    assert.equal(a.text, "[PERSON] [ADDRESS] springfield il [ZIP] [PHONE] [EMAIL]");
  });
  it("drop mode re-scrubs what dropping joins together", () => {
    // Dropping the e-mail joins "555" and "123 4567" into a phone number; the scrubber must catch it.
    const r = createScrubber().scrub("555 jsmith@aol.com 123 4567");
    assert.equal(r.text, "");
    assert.deepEqual(
      r.spans.map((s) => [s.type, s.value]),
      [["phone", "555 jsmith@aol.com 123 4567"]],
    );
  });
  it("empty and whitespace-only input", () => {
    assert.deepEqual(createScrubber().scrub(""), { text: "", spans: [] });
    assert.deepEqual(createScrubber().scrub("   "), { text: "", spans: [] });
  });
});
