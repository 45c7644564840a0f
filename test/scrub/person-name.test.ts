/**
 * The person-name recognizer errs toward removal: a person-like name not known to be public is removed, a public
 * figure of the bundled lists is kept unless the query is about someone's obituary, family tree, phone or address,
 * and the log's cross-user evidence (how many users typed a name) is one signal among others, never alone. Every
 * name here is invented, or a public figure's, and absent from the labelled sets and the AOL subset (checked).
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { loadLog } from "../../src/log/read.ts";
import { RejectSink } from "../../src/log/rejects.ts";
import { readRows } from "../../src/log/rows.ts";
import { readHashList } from "../../src/scrub/lexicon/names.ts";
import { NameUsers } from "../../src/scrub/name-users.ts";
import { checkWeights, DEFAULT_NAME_WEIGHTS, nameWeights } from "../../src/scrub/name-weights.ts";
import type { NameEvidence } from "../../src/scrub/recognizer.ts";
import { createScrubber } from "../../src/scrub/scrubber.ts";
import { InputError } from "../../src/util/errors.ts";
import { tempDir } from "../helpers/tmp.ts";

const drop = createScrubber();
const names = (q: string, s = drop) =>
  s
    .scrub(q)
    .spans.filter((x) => x.type === "person_name")
    .map((x) => x.value);

describe("person names: recall first", () => {
  it("a first name that is also a word before a surname that is none", () => {
    assert.deepEqual(names("mark terwilliger"), ["mark terwilliger"]);
    assert.deepEqual(names("bill zumwalt"), ["bill zumwalt"]);
  });
  it("a census surname that is also a word after a first name that is none", () => {
    assert.deepEqual(names("shirley brook"), ["shirley brook"]);
  });
  it("a private cue outweighs a public one, and a weak public cue does not veto", () => {
    assert.deepEqual(names("author shirley terwilliger phone number"), ["shirley terwilliger"]);
    assert.deepEqual(names("photos of shirley terwilliger"), ["shirley terwilliger"]);
    // a strong public cue still marks a name unknown to the lists as a public figure's
    assert.deepEqual(names("shirley terwilliger lyrics"), []);
  });
  it("a surname alone before a personal context", () => {
    assert.deepEqual(names("terwilliger obituary"), ["terwilliger"]);
    assert.deepEqual(names("urrutia genealogy"), ["urrutia"]);
    assert.deepEqual(names("prickett family reunion"), ["prickett"]);
    assert.deepEqual(names("kennedy family"), []);
  });
  it("three-word names, particles, and a one-word famous name before a surname", () => {
    assert.deepEqual(names("laura ann terwilliger"), ["laura ann terwilliger"]);
    assert.deepEqual(names("susan de urrutia"), ["susan de urrutia"]);
    assert.deepEqual(names("barbie terwilliger"), ["barbie terwilliger"]);
    // a common first name before a surname starts a second person's name, not a second surname
    assert.deepEqual(names("harold terwilliger ellen quenneville"), [
      "harold terwilliger",
      "ellen quenneville",
    ]);
    assert.deepEqual(names("laura terwilliger ortiz"), ["laura terwilliger ortiz"]);
  });
  it("a first name after a title, and two dotted initials before a surname", () => {
    assert.deepEqual(names("attorney nick brook"), ["nick brook"]);
    assert.deepEqual(names("nick brook"), []); // (a word, then a word: no title to say it is a name)
    assert.deepEqual(names("p.j. terwilliger"), ["p.j. terwilliger"]);
    assert.deepEqual(names("p j terwilliger"), []); // (without the dots, two letters)
    assert.deepEqual(names("u.s. terwilliger"), []); // (an abbreviation, not initials)
  });
  it("a first name and a frequent surname that is also a word, typed alone, are a name", () => {
    assert.deepEqual(names("lavonne berry"), ["lavonne berry"]);
    assert.deepEqual(names("lavonne ash"), ["lavonne ash"]);
    // not a plural (what a shop sells), not a rare surname that is a word, not a first name that is a word too
    assert.deepEqual(names("lavonne flowers"), []);
    assert.deepEqual(names("lavonne scripture"), []);
    assert.deepEqual(names("ivy ash"), []);
    // only alone: with other words the surname that is a word needs other evidence
    assert.deepEqual(names("lavonne berry pie"), []);
    const off = createScrubber({ nameWeights: nameWeights({ bareName: 0 }) });
    assert.deepEqual(names("lavonne berry", off), []);
  });
  it("a three-word name whose middle name is also a word", () => {
    // typed by many users: without its middle name's evidence the name ("dwight ray", then a second surname) is
    // only as strong as the threshold, the user count keeps it, and only "ray terwilliger" goes
    const many: NameEvidence = { users: (n) => (n === "dwight ray terwilliger" ? 5 : 1) };
    const on = createScrubber({ nameUsers: many });
    assert.deepEqual(names("dwight ray terwilliger blog", on), ["dwight ray terwilliger"]);
    const off = createScrubber({ nameUsers: many, nameWeights: nameWeights({ middleName: 0 }) });
    assert.deepEqual(names("dwight ray terwilliger blog", off), ["ray terwilliger"]);
  });
  it("a weak public cue counts only before a census surname", () => {
    const weak = createScrubber({ nameWeights: nameWeights({ weakPublicCue: 0.2 }) });
    // (a surname in no list: the cue says nothing of who the person is)
    assert.deepEqual(names("photos of shirley terwillagar", weak), ["shirley terwillagar"]);
    assert.deepEqual(names("photos of shirley brook", weak), []);
  });
  it("a person, then the institution where they are, is still a person", () => {
    assert.deepEqual(names("harold terwilliger drexel university"), ["harold terwilliger"]);
    // a candidate whose surname may be a middle name is part of the institution's name
    assert.deepEqual(names("ada lee quint school"), []);
  });
  it("a famous two-word name with a middle name typed between is the public figure", () => {
    assert.deepEqual(names("kenny wayne chesney"), []);
    assert.deepEqual(names("kenny wayne chesney obituary"), ["kenny wayne chesney"]);
    // an initial between is anyone's: the famous two words do not protect it
    assert.deepEqual(names("kenny h. chesney"), ["kenny h. chesney"]);
  });
  it("van is a first name when it starts the query before a surname that is no word", () => {
    assert.deepEqual(names("van terwilliger in toledo"), ["van terwilliger"]);
    assert.deepEqual(names("van mccoy"), []); // (a public figure of the built list)
  });
  it("a public figure of the built list is kept, unless the query is about someone's family tree", () => {
    assert.deepEqual(names("kristi noem"), []);
    assert.deepEqual(names("kristi noem genealogy"), ["kristi noem"]);
  });
  it("a state's name before a common first name and a surname is the place, not a first name", () => {
    assert.deepEqual(names("tampa florida harold terwilliger"), ["harold terwilliger"]);
    // before a private cue the two may be one person's name
    assert.deepEqual(names("virginia harold family"), ["virginia harold"]);
  });
  it("a surname that is a public cue word counts in a query about the person", () => {
    assert.deepEqual(names("harold song arrest"), ["harold song"]);
    assert.deepEqual(names("harold song"), []); // (without the context, the cue's other reading)
  });
  it("awards, cartoons, karaoke and statistics are public cues", () => {
    assert.deepEqual(names("harold terwilliger statistics"), []);
    assert.deepEqual(names("harold terwilliger oscars"), []);
    assert.deepEqual(names("harold terwilliger cartoons"), []);
    assert.deepEqual(names("harold terwilliger obituary statistics"), ["harold terwilliger"]);
  });
  it("jesus before an English word is the religious figure; before a surname that is none, anyone's first name", () => {
    assert.deepEqual(names("jesus shepherd"), []);
    assert.deepEqual(names("jesus quenneville"), ["jesus quenneville"]);
  });
  it("a business named after a person is not a person", () => {
    assert.deepEqual(names("prickett funeral home"), []);
    assert.deepEqual(names("harold terwilliger interiors"), []);
  });
});

describe("person names: the log's cross-user evidence", () => {
  const many: NameEvidence = {
    users: (n) => (n === "shirley brook" || n === "laura ann terwilliger" ? 5 : 1),
  };
  const withEvidence = createScrubber({ nameUsers: many });
  it("lowers a weak name many users typed, never alone", () => {
    // "shirley brook" is only as strong as the threshold: typed by many, it is taken for a public figure's
    assert.deepEqual(names("shirley brook", withEvidence), []);
    assert.deepEqual(names("shirley brook", drop), ["shirley brook"]);
    // a private cue keeps it an identifier however many typed it
    assert.deepEqual(names("shirley brook obituary", withEvidence), ["shirley brook"]);
  });
  it("a name with strong evidence of its own is removed however many typed it", () => {
    assert.deepEqual(names("laura ann terwilliger", withEvidence), ["laura ann terwilliger"]);
    // and weights that would let the count alone keep a full name are refused
    assert.throws(() => nameWeights({ manyUsersShift: 0.5, threshold: 0.6 }), /never|alone/);
  });
  it("NameUsers counts distinct users per name, from records and as plain data", () => {
    const u = new NameUsers().add([
      { user: "1", query: "shirley brook recipes", time: 0 },
      { user: "1", query: "shirley brook", time: 1 },
      { user: "2", query: "shirley brook", time: 2 },
      { user: "3", query: "weather", time: 3 },
    ]);
    assert.equal(u.users("shirley brook"), 2);
    assert.equal(u.users("weather"), 0);
    assert.equal(NameUsers.fromJSON(u.toJSON()).users("shirley brook"), 2);
  });
  it("NameUsers counts the same users from raw rows as from records, two users typing a name one after the other", async () => {
    const file = join(tempDir(), "names.tsv");
    const rows = [
      ["1", "shirley brook", "2006-03-01 00:00:01"],
      ["1", "shirley brook", "2006-03-01 00:00:02"],
      ["2", "shirley brook", "2006-03-01 00:00:03"],
      ["3", "weather", "2006-03-01 00:00:04"],
      ["3", "shirley brook", "2006-03-01 00:00:05"],
    ];
    writeFileSync(
      file,
      `AnonID\tQuery\tQueryTime\tItemRank\tClickURL\n${rows.map((r) => `${r.join("\t")}\t\t`).join("\n")}\n`,
    );
    const byRows = await NameUsers.ofRows(readRows([file], false, new RejectSink()));
    const byRecords = new NameUsers().add((await loadLog([file])).records);
    assert.equal(byRecords.users("shirley brook"), 3);
    assert.equal(byRows.users("shirley brook"), 3);
  });
});

describe("person names: the bundled lists and weights", () => {
  it("a built name list with a bad line is file:line: reason (exit 2)", () => {
    const file = join(tempDir(), "name-parts.txt");
    writeFileSync(file, "# header\nh 1f2e3d\nshirley brook\n");
    assert.throws(
      () => readHashList(pathToFileURL(file), /^h [0-9a-f]{1,14}$/),
      (e: unknown) =>
        e instanceof InputError &&
        e.message === `${file}:3: not a line of a built name list (rebuild it: scripts/build-scrub-data.ts)`,
    );
    writeFileSync(file, "# header\nh 1f2e3d\n");
    assert.deepEqual(readHashList(pathToFileURL(file), /^h [0-9a-f]{1,14}$/), ["h 1f2e3d"]);
  });
  it("the bundled weights are complete, and a bad set is refused with its source", () => {
    assert.equal(checkWeights(DEFAULT_NAME_WEIGHTS, "x").threshold, DEFAULT_NAME_WEIGHTS.threshold);
    assert.throws(
      () => checkWeights({ ...DEFAULT_NAME_WEIGHTS, threshold: "high" }, "w.json"),
      /w\.json: weight threshold/,
    );
    assert.throws(
      () => checkWeights({ ...DEFAULT_NAME_WEIGHTS, extra: 1 }, "w.json"),
      /unknown weight extra/,
    );
  });
});
