/**
 * The allow list (`--allow-list`): a span within an allowed phrase is left in the query, one that only touches
 * one is not; the file's comments and headings are skipped and a bad line is `file:line: reason`. Properties:
 * the list only ever removes spans, drop mode stays a fixed point with it, and an empty list changes nothing.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { AllowList } from "../../src/scrub/allow-list.ts";
import { createScrubber } from "../../src/scrub/scrubber.ts";
import { InputError } from "../../src/util/errors.ts";

const plain = createScrubber();
// An invented public figure the bundled lists lack (the scrubber drops him as a private person) and a surname alone.
const allow = AllowList.of(["Dale  Brickner", "kowalczyk"]);
const withList = createScrubber({ allow });

describe("allow list", () => {
  it("leaves an allowed name in the query, also possessive, plural and reversed, and counts it", () => {
    assert.equal(plain.scrub("dale brickner").text, "");
    for (const q of ["dale brickner", "dale brickner's car", "the dale brickners", "brickner dale"]) {
      const r = withList.scrub(q);
      assert.deepEqual(r.spans, [], q);
      assert.equal(r.text, q);
    }
    assert.equal(withList.scrub("dale brickner").allowed, 1);
    assert.equal(plain.scrub("dale brickner").allowed, undefined);
  });

  it("scrubs a name that only touches an allowed phrase, and the other identifiers of the query", () => {
    // "kowalczyk" is allowed alone, "maria kowalczyk" is a longer span: still a private person's name.
    assert.deepEqual(
      withList.scrub("maria kowalczyk").spans.map((s) => s.value),
      ["maria kowalczyk"],
    );
    assert.equal(withList.scrub("dr kowalczyk").text, "dr kowalczyk");
    const r = withList.scrub("dale brickner and john baker 555-123-4567");
    assert.deepEqual(
      r.spans.map((s) => [s.type, s.value]),
      [
        ["person_name", "john baker"],
        ["phone", "555-123-4567"],
      ],
    );
    assert.equal(r.text, "dale brickner and");
    assert.equal(
      createScrubber({ mode: "tag", allow }).scrub("dale brickner and john baker").text,
      "dale brickner and [PERSON]",
    );
  });

  it("reads a file: comments and section headings skipped, case and spacing folded; bad lines named", () => {
    const list = AllowList.parse(
      "# public figures\n# -- Sports\n\nDale   Brickner\n  rod tillman \r\n",
      "f.txt",
    );
    assert.deepEqual(list.entries(), ["dale brickner", "rod tillman"]);
    assert.throws(
      () => AllowList.parse("dale brickner\n!!!\n", "f.txt"),
      (e: unknown) =>
        e instanceof InputError &&
        e.message === "f.txt:2: an allow-list line needs a word (letters or digits)",
    );
    assert.throws(
      () => AllowList.parse(`${"word ".repeat(13)}\n`, "f.txt"),
      (e: unknown) =>
        e instanceof InputError && /^f\.txt:1: an allow-list phrase has at most 12 words/.test(e.message),
    );
    const filed = AllowList.parse(
      "# -- athletes\ndale brickner\tSports\nkenny chesney\tArts/Music\nrod tillman\n",
      "g.txt",
    );
    assert.deepEqual(
      filed.filed.map((f) => [f.words.join(" "), f.category, f.line]),
      [
        ["dale brickner", "Sports", 2],
        ["kenny chesney", "Arts/Music", 3],
      ],
    );
    assert.equal(filed.file, "g.txt");
    // What a worker thread is given builds the same list.
    assert.deepEqual(AllowList.of(filed.entries()).entries(), filed.entries());
    assert.deepEqual(filed.entries(), ["dale brickner\tSports", "kenny chesney\tArts/Music", "rod tillman"]);
    assert.throws(
      () => AllowList.parse("dale brickner\t42 laps\n", "g.txt"),
      (e: unknown) =>
        e instanceof InputError && /^g\.txt:1: after the tab comes the ODP category/.test(e.message),
    );
    assert.throws(
      () => AllowList.read("/nonexistent/allow.txt"),
      (e: unknown) =>
        e instanceof InputError && /^\/nonexistent\/allow\.txt: cannot read the allow list/.test(e.message),
    );
  });

  const word = fc.constantFrom(
    "dale", "brickner", "brickner's", "john", "baker", "maria", "kowalczyk", "mary", "smith", "dr", "genealogy",
    "lyrics", "555-123-4567", "jsmith@aol.com", "oak", "st", "1234", "and", "the", "",
  ); // biome-ignore format: a word list reads better packed
  const query = fc.array(word, { maxLength: 8 }).map((ws) => ws.join(" "));
  const phrases = fc.array(
    fc.array(
      word.filter((w) => /[a-z]/.test(w)),
      { minLength: 1, maxLength: 3 },
    ),
    {
      maxLength: 4,
    },
  );

  it("only removes spans: every span found with a list is one found without it", () => {
    fc.assert(
      fc.property(query, phrases, (q, ps) => {
        const list = AllowList.of(ps.map((p) => p.join(" ")));
        const tagWith = createScrubber({ mode: "tag", allow: list });
        const tagWithout = createScrubber({ mode: "tag" });
        const without = new Set(tagWithout.scrub(q).spans.map((s) => `${s.start}:${s.end}:${s.type}`));
        const r = tagWith.scrub(q);
        for (const s of r.spans) assert.ok(without.has(`${s.start}:${s.end}:${s.type}`), q);
        assert.equal(r.spans.length + (r.allowed ?? 0), without.size, q);
      }),
    );
  });

  it("drop mode with a list is a fixed point, and an empty list changes nothing", () => {
    const empty = createScrubber({ allow: AllowList.of([]) });
    fc.assert(
      fc.property(query, phrases, (q, ps) => {
        const s = createScrubber({ allow: AllowList.of(ps.map((p) => p.join(" "))) });
        const once = s.scrub(q).text;
        assert.deepEqual(s.scrub(once).spans, [], `${q} → ${once}`);
        assert.equal(s.scrub(once).text, once);
        assert.deepEqual(empty.scrub(q), plain.scrub(q));
      }),
    );
  });

  it("reaches the library's classify through the knowledge service, and its scrub", async () => {
    const { classify, scrub, createKnowledgeService } = await import("../../src/index.ts");
    const records = ["dale brickner", "john baker genealogy"].map((query, i) => ({
      user: "1",
      query,
      time: i,
    }));
    const log = { format: "aol" as const, records };
    const knowledge = createKnowledgeService(undefined, () => {}, allow);
    const classified = await classify(log, { knowledge });
    assert.deepEqual(
      classified.log.records.map((r) => r.query),
      ["dale brickner", "genealogy"],
    );
    const plainly = await classify(log, { knowledge: createKnowledgeService(undefined, () => {}) });
    assert.deepEqual(
      plainly.log.records.map((r) => r.query),
      ["", "genealogy"],
      "without the list the name is dropped (classify keeps the emptied record)",
    );
    const scrubbed = await scrub(log, { allow });
    assert.deepEqual(
      scrubbed.log.records.map((r) => r.query),
      ["dale brickner", "genealogy"],
    );
    assert.equal(scrubbed.counts.allowed, 1);
  });

  it("travels with the knowledge through the library's anonymize and audit", async () => {
    const { anonymize, audit, createKnowledgeService } = await import("../../src/index.ts");
    const records = [];
    for (let u = 1; u <= 4; u++)
      for (const [i, query] of ["dale brickner obituary", "cheap flights"].entries())
        records.push({ user: String(u), query, time: 60 * u + i });
    const log = { format: "aol" as const, records };
    const knowledge = createKnowledgeService(undefined, () => {}, allow);
    const release = await anonymize(log, { method: "threshold", params: { k: 2 }, knowledge });
    assert.ok(release.log!.records.some((r) => r.query === "dale brickner obituary"));
    assert.ok((await audit(log, release, { knowledge })).ok);
    const plainly = await audit(log, release, { knowledge: createKnowledgeService(undefined, () => {}) });
    // Without it the audit's own detector finds the name in a query about a person (an obituary) in the release.
    assert.ok(plainly.results.some((r) => r.name === "identifiers" && !r.ok));
  });
});
