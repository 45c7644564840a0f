import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { bidVector, parseBids, readBids } from "../../src/methods/km/bids.ts";
import { adValueRetained, km, kmRecords } from "../../src/methods/km/index.ts";
import { InputError } from "../../src/util/errors.ts";
import { silentProgress } from "../../src/util/progress.ts";
import { Rng } from "../../src/util/random.ts";
import { logOf } from "./helpers.ts";

describe("bid table", () => {
  it("reads term<TAB>value lines, skipping blanks and # comments", () => {
    const bids = parseBids("# term\tbid\ncar\t1.5\n\ninsurance\t12\r\n", "b.tsv");
    assert.deepEqual(
      [...bids],
      [
        ["car", 1.5],
        ["insurance", 12],
      ],
    );
    assert.deepEqual([...bidVector(bids, ["insurance", "boat", "car"])], [12, 0, 1.5]);
  });

  it("names file:line for a bad line", () => {
    const bad: [string, RegExp][] = [
      ["car\t1\nboat\n", /^b\.tsv:2: expected "term<TAB>value"/],
      ["car\t-1\n", /^b\.tsv:1: the value must be a finite number ≥ 0, got "-1"/],
      ["car\tcheap\n", /^b\.tsv:1: the value must be/],
      ["car\t1\ncar\t2\n", /^b\.tsv:2: duplicate term "car"/],
      ["new car\t1\n", /^b\.tsv:1: the term must be one non-empty token/],
    ];
    for (const [text, msg] of bad) {
      assert.throws(
        () => parseBids(text, "b.tsv"),
        (e: unknown) => e instanceof InputError && msg.test(e.message),
        text,
      );
    }
  });

  it("reports a missing file as bad input", async () => {
    await assert.rejects(readBids("/nonexistent/bids.tsv"), InputError);
  });
});

describe("paper 003 measures (adValueRetained)", () => {
  const original = logOf([
    ["u1", "car insurance", 2],
    ["u2", "car"],
    ["u3", "boat", 1],
  ]);
  const bids = new Map([
    ["car", 1],
    ["insurance", 10],
    ["boat", 4],
  ]);

  it("is 100% for an unchanged log", () => {
    assert.deepEqual(adValueRetained(original, original, bids), {
      logSize: 100,
      users: 100,
      clicks: 100,
      impressions: 100,
      bid: 100,
      revenue: 100,
    });
  });

  it("sums term values over histories", () => {
    const released = logOf([
      ["u1", "car", 2],
      ["u2", "car"],
    ]);
    const r = adValueRetained(original, released, bids);
    // Term values on the original: car clicks 2, impressions 2; insurance 2, 1; boat 1, 1.
    // Histories before: u1 {car, insurance}, u2 {car}, u3 {boat}; after: u1 {car}, u2 {car}.
    assert.equal(r.logSize, 50); // 2 of 4 occurrences
    assert.equal(r.users, (100 * 2) / 3);
    assert.equal(r.clicks, (100 * (2 + 2)) / (2 + 2 + 2 + 1));
    assert.equal(r.impressions, (100 * (2 + 2)) / (2 + 1 + 2 + 1));
    assert.equal(r.bid, (100 * (1 + 1)) / (1 + 10 + 1 + 4));
    assert.equal(r.revenue, (100 * (2 + 2)) / (2 + 20 + 2 + 4));
  });

  it("has no clicks measure for a log without clicks, and no bid measures without bids", () => {
    const noClicks = logOf([["u1", "a"]]);
    const r = adValueRetained(noClicks, noClicks);
    assert.equal(r.clicks, null);
    assert.equal(r.bid, null);
    assert.equal(r.revenue, null);
  });
});

describe("bid targets", () => {
  it("the bid target suppresses the cheaper term of a violating pair", () => {
    const log = logOf([
      ["u1", "cheap insurance"],
      ["u2", "cheap"],
      ["u3", "insurance"],
    ]);
    const bids = new Map([
      ["cheap", 0.1],
      ["insurance", 9],
    ]);
    const r = kmRecords(log.records, { k: 2, m: 2, target: "bid" }, Rng.fromSeed(1), bids);
    assert.equal(r.records[0]!.query, "insurance");
  });

  it("the method reads the bid file given by --bid and reports % bid and % revenue", async () => {
    const dir = await mkdtemp(join(tmpdir(), "km-"));
    try {
      const path = join(dir, "bids.tsv");
      await writeFile(path, "a\t2\nb\t1\n");
      const log = logOf([
        ["u1", "a b", 1],
        ["u2", "a b", 1],
        ["u3", "a c", 1],
      ]);
      const params = km.parse({ k: 2, m: 2, target: "revenue", bid: path });
      const release = await km.anonymize(log, params, { rng: Rng.fromSeed(1), progress: silentProgress });
      assert.equal(release.counts["% bid"], 100); // c has no bid; a and b are kept by u1, u2, and a by u3
      assert.ok(release.counts["% revenue"]! > 0);
      const badPath = join(dir, "bad.tsv");
      await writeFile(badPath, "a\tx\n");
      await assert.rejects(
        km.anonymize(log, km.parse({ k: 2, m: 2, bid: badPath }), {
          rng: Rng.fromSeed(1),
          progress: silentProgress,
        }),
        (e: unknown) => e instanceof InputError && e.message.startsWith(`${badPath}:1:`),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
