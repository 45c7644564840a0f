import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { Classifier } from "../../src/classify/classifier.ts";
import { classifyLog } from "../../src/classify/classify-log.ts";
import { createKnowledgeService } from "../../src/classify/service.ts";
import { loadLog } from "../../src/log/read.ts";
import type { LogRecord } from "../../src/log/record.ts";
import { RejectSink } from "../../src/log/rejects.ts";
import { readRows } from "../../src/log/rows.ts";
import { swap } from "../../src/methods/swap/index.ts";
import {
  ClickUsers,
  dropSingleUserClick,
  hostCarries,
  identifierWords,
  rowClickDrop,
  urlHost,
} from "../../src/scrub/click-url.ts";
import { emptyCounts, scrubRecords } from "../../src/scrub/scrub-log.ts";
import { createScrubber } from "../../src/scrub/scrubber.ts";
import { silentProgress } from "../../src/util/progress.ts";
import { Rng } from "../../src/util/random.ts";
import { tempDir } from "../helpers/tmp.ts";

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
    // A second user clicks the public site too, so only the identifier rule can drop a click here.
    const r = classifyLog(classifier, { records: [LEAK, PLAIN, { ...PLAIN, user: "3" }], format: "aol" });
    assert.equal(r.log.records[0]!.query, "");
    assert.equal(r.log.records[0]!.clickUrl, undefined);
    assert.equal(r.log.records[0]!.itemRank, undefined);
    assert.equal(r.log.records[1]!.clickUrl, PLAIN.clickUrl);
    assert.equal(r.clicksDropped, 1);
  });

  it("a URL only one user ever clicked is dropped (row kept, counted); one two users clicked is kept", async () => {
    const own: LogRecord = {
      user: "7",
      query: "sailing club",
      time: 1_141_000_200,
      itemRank: 1,
      clickUrl: "http://www.pat-sails.example",
    };
    const again: LogRecord = { ...own, time: 1_141_000_300 }; // the same user twice is still one user
    const records = [own, again, PLAIN, { ...PLAIN, user: "3" }];
    const clicks = new ClickUsers().add(records);
    assert.ok(clicks.singleUser(own.clickUrl!));
    assert.ok(!clicks.singleUser(PLAIN.clickUrl!));
    const kept = dropSingleUserClick(PLAIN, clicks);
    assert.equal(kept, PLAIN);
    assert.deepEqual(dropSingleUserClick(own, clicks), { user: "7", query: "sailing club", time: own.time });
    // classify (in memory, as the experiment runner does) and scrub apply it and count it.
    const classified = classifyLog(await Classifier.create(), { records, format: "aol" });
    assert.deepEqual(
      classified.log.records.map((r) => r.clickUrl),
      [undefined, undefined, PLAIN.clickUrl, PLAIN.clickUrl],
    );
    assert.equal(classified.singleUserClicksDropped, 2);
    const counts = emptyCounts();
    const out: LogRecord[] = [];
    for await (const b of scrubRecords(once(records), createScrubber(), counts, { clicks })) out.push(...b);
    assert.deepEqual(
      out.map((r) => r.clickUrl),
      [undefined, undefined, PLAIN.clickUrl, PLAIN.clickUrl],
    );
    assert.equal(counts.singleUserClicksDropped, 2);
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

describe("single-user clicks through the commands", () => {
  const CLI = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url));
  const run = (...args: string[]) =>
    spawnSync(process.execPath, ["--import", "tsx", CLI, ...args], { encoding: "utf8" });
  const dir = tempDir();
  const log = join(dir, "log.tsv");
  let text = "AnonID\tQuery\tQueryTime\tItemRank\tClickURL\n";
  for (let i = 0; i < 24; i++) {
    const user = String(1 + (i % 6));
    const url = i === 5 ? "http://www.pat-sails.example" : "http://www.weather.com";
    text += `${user}\tweather forecast\t2006-03-01 10:${String(10 + i).padStart(2, "0")}:00\t1\t${url}\n`;
  }
  writeFileSync(log, text);
  const clicksOf = (path: string) =>
    readFileSync(path, "utf8")
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => l.split("\t")[4]);

  it("classify drops it and counts it; --keep-single-user-clicks keeps it", () => {
    const out = join(dir, "classified.tsv");
    const r = run("classify", "-q", "--json", log, "-o", out);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).singleUserClicksDropped, 1);
    assert.ok(!clicksOf(out).includes("http://www.pat-sails.example"));
    assert.equal(clicksOf(out).filter((u) => u === "http://www.weather.com").length, 23);
    const keep = run("classify", "-q", "--keep-single-user-clicks", log, "-o", out);
    assert.equal(keep.status, 0, keep.stderr);
    assert.ok(clicksOf(out).includes("http://www.pat-sails.example"));
  });

  it("swap streaming an unclassified log drops it, and releases what --batch releases", () => {
    const streamed = join(dir, "streamed.tsv");
    const batch = join(dir, "batch.tsv");
    for (const [out, extra] of [
      [streamed, []],
      [batch, ["--batch"]],
    ] as const) {
      const r = run("anonymize", "-q", "--method", "swap", "--k", "2", ...extra, log, "-o", out);
      assert.equal(r.status, 0, r.stderr);
      assert.ok(!clicksOf(out).includes("http://www.pat-sails.example"));
    }
    assert.equal(readFileSync(streamed, "utf8"), readFileSync(batch, "utf8"));
  });
});

describe("single-user clicks asked by row", () => {
  it("the verdict of each row of a file counted by rows is its URL's (property, two files, a line the codec reads)", async () => {
    const dir = tempDir();
    let n = 0;
    const row = fc.record({
      user: fc.constantFrom("1", "2", "3"),
      // One URL written five ways (upper case, spaces at its ends: the keys the record path trims and lower-cases),
      // and one with a character outside ASCII written two ways.
      url: fc.constantFrom(
        "",
        "http://a.example",
        "HTTP://A.example ",
        "http://A.EXAMPLE",
        " http://a.example",
        "http://b.example",
        "c.example",
        "http://é.example",
        "HTTP://É.example",
      ),
      rank: fc.constantFrom("1", "007"), // 007: a line the fast path leaves to the codec
    });
    const file = (rows: { user: string; url: string; rank: string }[]) => {
      const path = join(dir, `clicks-${n++}.tsv`);
      const lines = rows.map(
        (r, i) => `${r.user}\tq${i % 3}\t2006-03-01 00:00:0${i % 10}\t${r.url ? r.rank : ""}\t${r.url}`,
      );
      writeFileSync(path, `AnonID\tQuery\tQueryTime\tItemRank\tClickURL\n${lines.join("\n")}\n`);
      return path;
    };
    await fc.assert(
      fc.asyncProperty(
        fc.array(row, { maxLength: 30 }),
        fc.array(row, { minLength: 1, maxLength: 30 }),
        async (a, b) => {
          const files = [file(a), file(b)];
          const byRows = await ClickUsers.ofRows(readRows(files, true, new RejectSink()));
          const byRecords = new ClickUsers().add((await loadLog(files)).records);
          // Settled counts (each URL's user state let go) answer the same.
          const settledRows = (await ClickUsers.ofRows(readRows(files, true, new RejectSink()))).settle();
          const settledRecords = new ClickUsers().add((await loadLog(files)).records).settle();
          for await (const rows of readRows(files, false, new RejectSink())) {
            for (let i = 0; i < rows.n; i++) {
              const url = rows.urlText(i);
              const expected = url !== "" && byRecords.singleUser(url);
              assert.equal(url !== "" && settledRecords.singleUser(url), expected);
              if (rows.rec[i] === undefined && url !== "") {
                assert.equal(byRows.singleUserRow(rows, i), expected);
                assert.equal(settledRows.singleUserRow(rows, i), expected);
              }
              assert.equal(
                rowClickDrop(rows, i, [], byRows) === "singleUser",
                expected,
                `${rows.file}:${rows.line[i]} ${url}`,
              );
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("single-user clicks shipped as lines (a cluster coordinator's evidence)", () => {
  it("fromLines(toLines()) gives every URL's verdict, whether taken before or after the counts settle", () => {
    const click = fc.record({
      user: fc.constantFrom("u1", "u2", "u3"),
      url: fc.constantFrom("http://a.example", "http://B.example ", "http://c.example", ""),
    });
    fc.assert(
      fc.property(fc.array(click, { maxLength: 30 }), fc.boolean(), (clicks, settleFirst) => {
        const counted = new ClickUsers().add(
          clicks.map((c, i) => ({ user: c.user, query: `q${i}`, time: i, clickUrl: c.url })),
        );
        const expected = ["http://a.example", "http://b.example", "http://c.example"].map((u) =>
          counted.singleUser(u),
        );
        if (settleFirst) counted.settle();
        const shipped = ClickUsers.fromLines(counted.toLines());
        const got = ["http://a.example", "http://B.EXAMPLE", " http://c.example"].map((u) =>
          shipped.singleUser(u),
        );
        assert.deepEqual(got, expected);
      }),
    );
  });
});
