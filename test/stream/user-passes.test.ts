/**
 * Passes over a log by user with a scrub trace (src/stream/user-passes.ts, src/scrub/scrub-trace.ts): every pass
 * gives exactly the records of scrubbing the log from scratch, with the first pass's counts, on logs with
 * identifiers, clicks (single-user ones, ones whose host carries an identifier), bad lines read leniently and a
 * shard's `keep`; a log changed between passes is found, not replayed against the wrong records.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import fc from "fast-check";
import { openLog } from "../../src/log/read.ts";
import type { LogRecord } from "../../src/log/record.ts";
import { formatAolTime } from "../../src/log/time.ts";
import { ClickUsers } from "../../src/scrub/click-url.ts";
import { NameUsers } from "../../src/scrub/name-users.ts";
import { emptyCounts, scrubRecords } from "../../src/scrub/scrub-log.ts";
import { LogChangedBetweenPasses } from "../../src/scrub/scrub-trace.ts";
import { createScrubber } from "../../src/scrub/scrubber.ts";
import { scrubbedPasses } from "../../src/stream/user-passes.ts";
import { generateRecords } from "../../src/synth/generate.ts";
import { tempDir } from "../helpers/tmp.ts";

const dir = tempDir();
let n = 0;
const HEADER = "AnonID\tQuery\tQueryTime\tItemRank\tClickURL";

const QUERIES = [
  "cheap flights",
  "weather",
  "john baker genealogy",
  "john baker",
  "555-123-4567",
  "helenwatson133 aol com",
  "helenwatson133@aol.com",
  "mary smith obituary 2006",
  "123 main street springfield",
  "lyrics",
];
const URLS = [
  "",
  "http://www.weather.com",
  "http://www.helenwatson1334u.com",
  "http://www.johnbaker.com",
  "http://www.expedia.com",
  "http://mine.example",
];
const BAD = [
  "not a log line",
  "",
  "7\tquery\tnot a time\t\t",
  "8\tq\t2006-03-01 00:00:00\tx\thttp://a.example",
];

/** A user's rows: events of a query and its click rows (AOL repeats the query on each), in time order. */
const userRows = fc.array(
  fc.record({
    query: fc.constantFrom(...QUERIES),
    clicks: fc.array(fc.constantFrom(...URLS), { minLength: 1, maxLength: 3 }),
  }),
  { minLength: 1, maxLength: 6 },
);

/** A log grouped by user, with bad lines put in at random places. */
const logArb = fc.record({
  users: fc.array(userRows, { minLength: 1, maxLength: 8 }),
  bad: fc.array(fc.record({ at: fc.nat(), line: fc.constantFrom(...BAD) }), { maxLength: 4 }),
});

type Log = typeof logArb extends fc.Arbitrary<infer T> ? T : never;

function logLines(l: Log): string[] {
  const lines: string[] = [];
  let t = Date.UTC(2006, 2, 1) / 1000;
  l.users.forEach((events, u) => {
    for (const e of events) {
      for (const url of e.clicks) {
        const rank = url === "" ? "" : "1";
        t += 7;
        lines.push(`${u + 1}\t${e.query}\t${formatAolTime(t)}\t${rank}\t${url}`);
      }
    }
  });
  return withBad(lines, l.bad);
}

/** `lines` with bad ones put before some of them (blank lines at the end of a file are no bad lines). */
function withBad(lines: string[], bad: readonly { at: number; line: string }[]): string[] {
  for (const b of bad) lines.splice(b.at % lines.length, 0, b.line);
  return lines;
}

function write(lines: readonly string[]): string {
  const path = join(dir, `log-${++n}.tsv`);
  writeFileSync(path, `${HEADER}\n${lines.join("\n")}\n`);
  return path;
}

async function* only(batches: AsyncIterable<readonly LogRecord[]>, keep?: (user: string) => boolean) {
  for await (const b of batches) yield keep === undefined ? [...b] : b.filter((r) => keep(r.user));
}

/** Each pass's records as scrubbing the whole log from scratch gives them, and its counts. */
async function fromScratch(path: string, singleUserClicks: boolean, keep?: (user: string) => boolean) {
  const open = () => openLog([path], { lenient: true });
  const clicks = singleUserClicks ? await ClickUsers.of((await open()).batches()) : undefined;
  const scrubber = createScrubber({ nameUsers: clicks?.names });
  const counts = emptyCounts();
  const records: LogRecord[] = [];
  for await (const b of scrubRecords(only((await open()).batches(), keep), scrubber, counts, { clicks })) {
    records.push(...b);
  }
  return { records, counts };
}

/**
 * `passes` passes through `scrubbedPasses`: each pass's records, the first pass's counts and bad lines; with
 * `stopFirstAfter`, a first pass read for that many users only comes before them.
 */
async function traced(
  path: string,
  passes: number,
  singleUserClicks: boolean,
  keep?: (user: string) => boolean,
  stopFirstAfter?: number,
  batchSize?: number,
) {
  const first = await openLog([path], { lenient: true, batchSize });
  const counts = emptyCounts();
  const log = await scrubbedPasses(first, [path], { counts, singleUserClicks }, undefined, keep);
  const each: LogRecord[][] = [];
  if (stopFirstAfter !== undefined) {
    // A first pass left after some users: the later ones replay what it traced and scrub the rest.
    let users = 0;
    for await (const _ of log.pass()) if (++users >= stopFirstAfter) break;
  }
  for (let p = 0; p < passes; p++) {
    const records: LogRecord[] = [];
    for await (const block of log.pass()) records.push(...block);
    each.push(records);
  }
  return { each, counts, rejected: first.rejects.count };
}

describe("scrubbedPasses with a scrub trace", () => {
  it("gives every pass the records of scrubbing from scratch after a first pass left early (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        logArb,
        fc.boolean(),
        fc.integer({ min: 1, max: 4 }),
        async (l, singleUserClicks, stop) => {
          const path = write(logLines(l));
          const want = await fromScratch(path, singleUserClicks);
          // Small batches: the first pass has scrubbed and traced only part of the log when it is left.
          const got = await traced(path, 2, singleUserClicks, undefined, stop, 1 + (stop % 3));
          for (const records of got.each) assert.deepEqual(records, want.records);
        },
      ),
      { numRuns: 100 },
    );
  });

  it("gives every pass the records of scrubbing from scratch, and the same counts (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        logArb,
        fc.boolean(),
        fc.option(fc.array(fc.integer({ min: 1, max: 8 }), { maxLength: 5 })),
        async (l, singleUserClicks, kept) => {
          const path = write(logLines(l));
          const keep = kept === null ? undefined : (u: string) => kept.includes(Number(u));
          const want = await fromScratch(path, singleUserClicks, keep);
          const got = await traced(path, 3, singleUserClicks, keep);
          for (const records of got.each) assert.deepEqual(records, want.records);
          assert.deepEqual(got.counts, want.counts);
          assert.equal(got.rejected, l.bad.length);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("does so on generated logs, with bad lines and a shard's users (property)", async () => {
    let withIdentifiers = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 1000 }),
        fc.array(fc.record({ at: fc.nat(), line: fc.constantFrom(...BAD) }), { maxLength: 3 }),
        fc.option(fc.integer({ min: 2, max: 3 })),
        async (seed, bad, shards) => {
          const lines = [...generateRecords({ seed, users: 40 })].map(
            (r) =>
              `${r.user}\t${r.query}\t${formatAolTime(r.time)}\t${r.itemRank ?? ""}\t${r.clickUrl ?? ""}`,
          );
          const path = write(withBad(lines, bad));
          const keep = shards === null ? undefined : (u: string) => Number(u) % shards === 0;
          const want = await fromScratch(path, true, keep);
          if (want.counts.changed > 0) withIdentifiers++;
          const got = await traced(path, 2, true, keep);
          for (const records of got.each) assert.deepEqual(records, want.records);
          assert.deepEqual(got.counts, want.counts);
        },
      ),
      { numRuns: 10 },
    );
    assert.ok(withIdentifiers > 0, "the generated logs have identifiers");
  });

  it("finds a log that changed between passes instead of replaying the first one's decisions on it", async () => {
    const lines = ["1\tjohn baker genealogy\t2006-03-01 00:00:01\t\t", "2\tweather\t2006-03-01 00:00:02\t\t"];
    for (const changed of [
      ["1\tgenealogy\t2006-03-01 00:00:01\t\t", lines[1]!],
      [lines[0]!],
      [...lines, "3\tlyrics\t2006-03-01 00:00:03\t\t"],
    ]) {
      const path = write(lines);
      const first = await openLog([path], { lenient: true });
      const log = await scrubbedPasses(first, [path], { counts: emptyCounts() });
      for await (const _ of log.pass());
      writeFileSync(path, `${HEADER}\n${changed.join("\n")}\n`);
      await assert.rejects(async () => {
        for await (const _ of log.pass());
      }, LogChangedBetweenPasses);
    }
  });
});

describe("ClickUsers.of", () => {
  it("counts each URL's and each name's users as record by record, repeated rows or not (property)", async () => {
    await fc.assert(
      fc.asyncProperty(logArb, async (l) => {
        const path = write(logLines({ ...l, bad: [] }));
        const records: LogRecord[] = [];
        for await (const b of (await openLog([path])).batches()) records.push(...b);
        const clicks = await ClickUsers.of((await openLog([path])).batches());
        const users = new Map<string, Set<string>>();
        for (const r of records) {
          if (r.clickUrl === undefined || r.clickUrl === "") continue;
          const key = r.clickUrl.trim().toLowerCase();
          users.set(key, (users.get(key) ?? new Set()).add(r.user));
        }
        for (const [url, u] of users) assert.equal(clicks.singleUser(url), u.size === 1, url);
        assert.equal(clicks.singleUser("http://never.clicked"), false);
        const names = new NameUsers().add(records);
        assert.deepEqual(clicks.names.toJSON(), names.toJSON());
        // Settled: the same answers from the single-user URLs and the names' counts alone.
        clicks.settle();
        for (const [url, u] of users) assert.equal(clicks.singleUser(url), u.size === 1, url);
        assert.equal(clicks.singleUser("http://never.clicked"), false);
        assert.deepEqual(clicks.names.toJSON(), names.toJSON());
        for (const [name] of names.toJSON()) assert.equal(clicks.names.users(name), names.users(name));
        assert.throws(() => clicks.add(records.slice(0, 1)), /settled/);
      }),
      { numRuns: 100 },
    );
  });
});
