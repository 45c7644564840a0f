import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Classifier } from "../../src/classify/classifier.ts";
import { classifyLog } from "../../src/classify/classify-log.ts";
import { createKnowledgeService } from "../../src/classify/service.ts";
import type { LogRecord } from "../../src/log/record.ts";
import { swap } from "../../src/methods/swap/index.ts";
import { hostCarries, identifierWords, urlHost } from "../../src/scrub/click-url.ts";
import { emptyCounts, scrubRecords } from "../../src/scrub/scrub-log.ts";
import { createScrubber } from "../../src/scrub/scrubber.ts";
import { silentProgress } from "../../src/util/progress.ts";
import { Rng } from "../../src/util/random.ts";

const LEAK: LogRecord = {
  user: "1",
  query: "helenwatson133 aol com",
  time: 1_141_000_000,
  itemRank: 1,
  clickUrl: "http://www.helenwatson1334u.com",
};
const PLAIN: LogRecord = {
  user: "2",
  query: "weather march 2006",
  time: 1_141_000_060,
  itemRank: 2,
  clickUrl: "http://www.weather.com",
};

async function* once(records: LogRecord[]) {
  yield records;
}

describe("click URLs through the scrubber", () => {
  it("reads the host of a click URL", () => {
    assert.equal(urlHost("http://www.HelenWatson1334u.com/about?x=1"), "www.helenwatson1334u.com");
    assert.equal(urlHost("https://user@site.org:8080"), "site.org");
    assert.equal(urlHost(""), "");
  });

  it("compares the identifier's own words, not web words nor dates", () => {
    const s = createScrubber();
    assert.deepEqual(identifierWords(s.scrub(LEAK.query).spans), ["helenwatson133"]);
    assert.ok(hostCarries(LEAK.clickUrl!, ["helenwatson133"]));
    assert.ok(!hostCarries("http://www.aol.com", identifierWords(s.scrub(LEAK.query).spans)));
    assert.deepEqual(identifierWords([{ type: "date", start: 0, end: 10, value: "march 2006" }]), []);
  });

  it("scrub: drops the click whose host carries the removed e-mail, keeps other clicks, and counts", async () => {
    const counts = emptyCounts();
    const out: LogRecord[] = [];
    const leak = { ...LEAK, query: `${LEAK.query} login` };
    for await (const b of scrubRecords(once([leak, PLAIN]), createScrubber(), counts)) out.push(...b);
    assert.deepEqual(out[0], { user: "1", query: "login", time: LEAK.time });
    assert.deepEqual(out[1], PLAIN);
    assert.equal(counts.clicksDropped, 1);
  });

  it("classify: the released record keeps no click URL naming the scrubbed person", async () => {
    const classifier = await Classifier.create();
    const r = classifyLog(classifier, { records: [LEAK, PLAIN], format: "aol" });
    assert.equal(r.log.records[0]!.query, "");
    assert.equal(r.log.records[0]!.clickUrl, undefined);
    assert.equal(r.log.records[0]!.itemRank, undefined);
    assert.equal(r.log.records[1]!.clickUrl, PLAIN.clickUrl);
  });

  it("swap on an unclassified log: the URL does not go out under another user", async () => {
    // A query the classifier can place once the e-mail is gone, among others of the same category, so that the
    // swap releases it (under another user) instead of suppressing it.
    const records: LogRecord[] = [{ ...LEAK, query: `weight loss ${LEAK.query}` }];
    for (let i = 0; i < 30; i++) {
      const query = i % 2 ? "weight loss tips" : "diet plans";
      records.push({ user: String(3 + (i % 5)), query, time: 1_141_000_100 + i });
    }
    const release = await swap.anonymize({ records, format: "aol" }, swap.parse({ k: 2, end: "release" }), {
      rng: Rng.fromSeed(1),
      progress: silentProgress,
      knowledge: createKnowledgeService(),
    });
    const released = release.log!.records.filter((r) => r.query === "weight loss");
    assert.equal(released.length, 1);
    assert.equal(released[0]!.clickUrl, undefined);
  });
});
