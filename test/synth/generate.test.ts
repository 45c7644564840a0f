import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { Taxonomy } from "../../src/knowledge/taxonomy.ts";
import { groupEvents } from "../../src/log/events.ts";
import type { LogRecord } from "../../src/log/record.ts";
import { parseAolTime } from "../../src/log/time.ts";
import {
  type GenerateOptions,
  generateBatches,
  generateLog,
  generateRecords,
  newStats,
} from "../../src/synth/generate.ts";

const DAY = 86400;

/** The invariants of AOL row order that every generated log must keep. */
function checkOrder(records: readonly LogRecord[], opts: Pick<GenerateOptions, "start" | "days">): void {
  const start = parseAolTime(`${opts.start ?? "2006-03-01"} 00:00:00`);
  const end = start + (opts.days ?? 92) * DAY;
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    assert.ok(
      Number.isInteger(r.time) && r.time >= start && r.time < end,
      `row ${i}: time ${r.time} outside period`,
    );
    if (r.clickUrl !== undefined) {
      assert.ok(r.itemRank !== undefined && r.itemRank >= 1, `row ${i}: click without rank`);
      assert.match(r.clickUrl, /^http:\/\/[a-z0-9.]+$/);
    } else {
      assert.equal(r.itemRank, undefined);
    }
    const p = records[i - 1];
    if (p === undefined || p.user !== r.user) {
      if (p) assert.ok(p.user < r.user, `row ${i}: users out of order`);
      continue;
    }
    if (p.time === r.time) {
      // Same time, same user: only the further click rows of one clicked query.
      assert.equal(r.query, p.query, `row ${i}: two queries at the same time`);
      assert.ok(
        p.clickUrl !== undefined && r.clickUrl !== undefined,
        `row ${i}: click rows mixed with a no-click row`,
      );
    } else {
      assert.ok(r.time > p.time, `row ${i}: time goes back`);
    }
  }
}

describe("generateRecords", () => {
  test("same seed, same records; another seed, other records", () => {
    const a = generateLog({ seed: 11, users: 150 }).records;
    const b = generateLog({ seed: 11, users: 150 }).records;
    const c = generateLog({ seed: 12, users: 150 }).records;
    assert.deepEqual(a, b);
    assert.notDeepEqual(a, c);
  });

  test("rows are in AOL order, within the period, clicks repeat their query at the same time", () => {
    const opts = { seed: 3, users: 400, start: "2007-01-15", days: 10 };
    checkOrder(generateLog(opts).records, opts);
  });

  test("property: any seed, user count, period and pii share keep the order invariants", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1e9, max: 1e9 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 120 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (seed, users, days, piiShare) => {
          const opts = { seed, users, days, piiShare, start: "2006-03-01" };
          const stats = newStats();
          const records = generateLog(opts, stats).records;
          checkOrder(records, opts);
          assert.equal(stats.rows, records.length);
          assert.equal(new Set(records.map((r) => r.user)).size, stats.users);
        },
      ),
      { numRuns: 40 },
    );
  });

  test("next-page requests repeat the previous query at a later time", () => {
    const records = generateLog({ seed: 5, users: 300 }).records;
    const events = groupEvents(records);
    let nextPages = 0;
    for (let i = 1; i < events.length; i++) {
      const e = events[i]!;
      if (!e.nextPage) continue;
      nextPages++;
      const prev = events[i - 1]!;
      assert.equal(prev.user, e.user);
      assert.equal(prev.query, e.query);
      assert.ok(e.time > prev.time);
    }
    assert.ok(
      nextPages > events.length * 0.1,
      `only ${nextPages} next-page requests in ${events.length} events`,
    );
  });

  test("stats agree with the records", () => {
    const stats = newStats();
    const records = generateLog({ seed: 8, users: 300 }, stats).records;
    const events = groupEvents(records);
    assert.equal(stats.rows, records.length);
    assert.equal(stats.events, events.length);
    assert.equal(stats.clicks, records.filter((r) => r.clickUrl !== undefined).length);
    // The generator counts the next pages it made; the events view may also see a repeat as one.
    assert.ok(stats.nextPage <= events.filter((e) => e.nextPage).length);
    assert.ok(stats.nextPage >= events.filter((e) => e.nextPage).length * 0.95);
  });

  test("queries per user are heavy-tailed", () => {
    const perUser = new Map<string, number>();
    for (const e of groupEvents(generateLog({ seed: 21, users: 2000 }).records)) {
      perUser.set(e.user, (perUser.get(e.user) ?? 0) + 1);
    }
    const counts = [...perUser.values()].sort((a, b) => a - b);
    const median = counts[Math.floor(counts.length / 2)]!;
    const max = counts[counts.length - 1]!;
    assert.equal(counts.length, 2000);
    assert.ok(max / median >= 15, `max ${max} / median ${median} is not heavy-tailed`);
    assert.ok(counts[0]! >= 1);
  });

  test("the share of identifier queries is close to the requested share", () => {
    for (const piiShare of [0, 0.05, 0.2]) {
      const stats = newStats();
      generateLog({ seed: 9, users: 800, piiShare }, stats);
      const share = stats.pii / stats.events;
      assert.ok(Math.abs(share - piiShare) <= 0.01 + piiShare * 0.15, `asked ${piiShare}, got ${share}`);
    }
  });

  test("identifiers are visible in the text and fake by construction", () => {
    const records = generateLog({ seed: 4, users: 800, piiShare: 0.2 }).records;
    const phones = records.filter((r) => /\b\d{3} ?555 ?01\d\d\b/.test(r.query));
    const ssns = records.filter((r) => /\b9\d\d ?\d\d ?\d{4}\b/.test(r.query));
    const mails = records.filter((r) =>
      / (aol|hotmail|yahoo|msn|comcast|earthlink|sbcglobal) (com|net)\b/.test(r.query),
    );
    assert.ok(phones.length > 0 && ssns.length > 0 && mails.length > 0);
    // No phone number outside the reserved 555-01xx lines.
    for (const r of records) {
      const m = /\b(\d{3}) ?(\d{3}) ?(\d{4})\b/.exec(r.query);
      if (m && !/^9/.test(m[1]!)) assert.equal(m[2], "555", r.query);
    }
  });

  test("the rows cap cuts the same stream short", () => {
    const all = generateLog({ seed: 2, users: 100 }).records;
    const stats = newStats();
    const capped = generateLog({ seed: 2, users: 100, rows: 1234 }, stats).records;
    assert.equal(capped.length, Math.min(1234, all.length));
    assert.deepEqual(capped, all.slice(0, capped.length));
    assert.equal(stats.rows, capped.length);
    assert.equal(generateLog({ seed: 2, users: 100, rows: 0 }).records.length, 0);
  });

  test("the stream is lazy: taking a few rows does not generate every user", () => {
    let n = 0;
    for (const _ of generateRecords({ seed: 1, users: 1e9 })) if (++n === 10) break;
    assert.equal(n, 10);
  });

  test("--truth labels every query with a real ODP path; without it, no category", () => {
    const tax = Taxonomy.bundled();
    const labelled = generateLog({ seed: 6, users: 100, withTruth: true }).records;
    for (const r of labelled)
      assert.ok(r.category !== undefined && tax.id(r.category) !== undefined, r.category);
    assert.ok(generateLog({ seed: 6, users: 20 }).records.every((r) => r.category === undefined));
  });

  test("queries use their category's words", () => {
    const tax = Taxonomy.bundled();
    const labelled = generateLog({ seed: 6, users: 200, withTruth: true, piiShare: 0 }).records;
    const vocab = new Map<string, Set<string>>();
    const wordsOf = (path: string): Set<string> => {
      let words = vocab.get(path);
      if (words === undefined) {
        const id = tax.id(path)!;
        const near = [...tax.lineage(id), ...tax.children(tax.parent(id)), ...tax.children(id)];
        words = new Set(
          near.flatMap((k) =>
            tax
              .label(k)
              .toLowerCase()
              .split(/[^a-z0-9]+/),
          ),
        );
        vocab.set(path, words);
      }
      return words;
    };
    let sharing = 0;
    for (const r of labelled) {
      const words = wordsOf(r.category!);
      if (r.query.split(" ").some((w) => words.has(w))) sharing++;
    }
    assert.ok(sharing / labelled.length > 0.8, `only ${sharing} of ${labelled.length} queries share a word`);
  });

  test("excite style: no click rows, next pages as empty queries", () => {
    const records = generateLog({ seed: 7, users: 200, style: "excite" }).records;
    assert.ok(records.every((r) => r.clickUrl === undefined && r.itemRank === undefined));
    assert.ok(records.some((r) => r.query === ""));
  });

  test("bad options are usage errors", () => {
    assert.throws(() => generateLog({ seed: 1.5, users: 1 }), /seed/);
    assert.throws(() => generateLog({ seed: 1, users: 0 }), /users/);
    assert.throws(() => generateLog({ seed: 1, users: 1, start: "March" }), /start/);
    assert.throws(() => generateLog({ seed: 1, users: 1, piiShare: 2 }), /pii/);
    assert.throws(() => generateLog({ seed: 1, users: 1, days: 0 }), /days/);
  });
});

test("generateBatches yields the same records in batches", () => {
  const all = generateLog({ seed: 13, users: 60 }).records;
  const batches = [...generateBatches({ seed: 13, users: 60 }, undefined, 100)];
  assert.ok(batches.slice(0, -1).every((b) => b.length === 100));
  assert.deepEqual(batches.flat(), all);
});
