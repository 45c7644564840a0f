/**
 * Every registered method, on any generated log and parameters: the release it writes passes `querymask audit`.
 * A new method must add its parameter arbitrary here (the first test fails until it does).
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import fc from "fast-check";
import { type AuditReport, audit } from "../../src/audit/audit.ts";
import { parseCountTable, writeCountTable } from "../../src/log/count-table.ts";
import { type Guarantee, parseGuarantee, userLevelDp } from "../../src/log/guarantee.ts";
import { loadLog } from "../../src/log/read.ts";
import type { LogRecord, QueryLog } from "../../src/log/record.ts";
import { writeLog } from "../../src/log/write.ts";
import { declaredInput } from "../../src/methods/method.ts";
import { loadMethod, methods } from "../../src/methods/registry.ts";
import { silentProgress } from "../../src/util/progress.ts";
import { Rng } from "../../src/util/random.ts";
import { tempDir } from "../helpers/tmp.ts";

/** Everyday queries (no identifier), each with the category and unit a classifier would give the text. */
const VOCAB: [string, string][] = [
  ["cheap flights", "Top/Recreation/Travel"],
  ["flights to paris", "Top/Recreation/Travel"],
  ["soccer scores", "Top/Sports/Soccer"],
  ["world cup", "Top/Sports/Soccer"],
  ["chocolate cake recipe", "Top/Home/Cooking"],
  ["cake", "Top/Home/Cooking"],
  ["mortgage rates", "Top/Business/Financial_Services"],
  ["stock market", "Top/Business/Investing"],
  ["weather", "Top/News/Weather"],
  ["used cars", "Top/Shopping/Vehicles"],
  ["guitar chords", "Top/Arts/Music"],
  ["flu symptoms", "Top/Health/Conditions"],
];
const SITES = ["http://www.travel.com", "http://www.espn.com", "http://www.food.com", "http://www.bank.com"];

const logArb: fc.Arbitrary<QueryLog> = fc
  .array(
    fc.record({
      user: fc.integer({ min: 0, max: 7 }),
      query: fc.integer({ min: 0, max: VOCAB.length - 1 }),
      gap: fc.integer({ min: 0, max: 600 }),
      clicks: fc.array(fc.integer({ min: 0, max: SITES.length - 1 }), { maxLength: 2 }),
    }),
    { minLength: 1, maxLength: 60 },
  )
  .map((events) => {
    const records: LogRecord[] = [];
    let time = 1_141_000_000;
    for (const e of events) {
      time += e.gap;
      const [query, category] = VOCAB[e.query]!;
      const base = { user: String(100 + e.user), query, time, category, unit: query.split(" ")[0]! };
      if (e.clicks.length === 0) records.push(base);
      e.clicks.forEach((s, i) => {
        records.push({ ...base, itemRank: i + 1, clickUrl: SITES[s]! });
      });
    }
    return { records, format: "aol" as const, classified: true };
  });

const k = fc.integer({ min: 2, max: 4 });
const PARAMS: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  swap: fc.record({
    k,
    delta: fc.double({ min: 1.05, max: 2, noNaN: true }),
    depth: fc.integer({ min: 1, max: 2 }),
    end: fc.constantFrom("release", "suppress"),
  }),
  graph: fc
    .record({
      variant: fc.integer({ min: 1, max: 3 }),
      density: fc.constantFrom(0, 0.1, 0.5),
      vulnerable: fc.boolean(),
      k: fc.integer({ min: 0, max: 2 }),
    })
    .chain((p) => fc.integer({ min: 0, max: p.k }).map((K) => ({ ...p, K }))),
  dp: fc.record({
    epsilon: fc.constantFrom(0.5, 2, 20),
    d: fc.integer({ min: 1, max: 5 }),
    noise: fc.constant("seeded"),
    clicks: fc.boolean(),
  }),
  threshold: fc.record({ k }),
  km: fc.record({
    k,
    m: fc.integer({ min: 1, max: 2 }),
    target: fc.constantFrom("random", "logsize", "users", "clicks", "impressions"),
  }),
  identity: fc.constant({}),
  "drop-all": fc.constant({}),
  mdav: fc.record({
    k: fc.integer({ min: 2, max: 3 }),
    variant: fc.constantFrom("exact", "blocked"),
    workers: fc.constant(0),
  }),
  "mdav-strings": fc.record({ k: fc.integer({ min: 2, max: 3 }) }),
  erola: fc.record({ k: fc.integer({ min: 2, max: 3 }) }),
  navarro: fc.record({ k: fc.integer({ min: 2, max: 3 }) }),
  // The client-side method releases the engine's view: every query, under the id of the user who submitted it.
  clientside: fc.record({
    graph: fc.constantFrom("small-world", "scale-free"),
    degree: fc.integer({ min: 2, max: 4 }),
    maxHops: fc.integer({ min: 0, max: 2 }),
    selfish: fc.constantFrom(0, 0.25),
  }),
};

/** Parameters a method refuses on a given log (a usage error, not a release): such cases are not generated. */
const FITS: Record<string, (log: QueryLog, raw: Record<string, unknown>) => boolean> = {
  // a network of one node per user, each with `degree` neighbours
  clientside: (log, raw) => new Set(log.records.map((r) => r.user)).size > (raw.degree as number),
  // no cluster of k users in a log of fewer users
  ...Object.fromEntries(
    ["mdav", "mdav-strings", "erola", "navarro"].map((name) => [
      name,
      (log: QueryLog, raw: Record<string, unknown>) =>
        new Set(log.records.map((r) => r.user)).size >= ((raw.k as number | undefined) ?? 3),
    ]),
  ),
};

/**
 * Anonymize, write the release and its summary (counts and claimed guarantee, as `anonymize --json` does) to
 * files, read them back and audit the release with them. `claim` replaces the method's claim (an over-claim).
 */
async function auditWritten(
  name: string,
  log: QueryLog,
  raw: Record<string, unknown>,
  seed: number,
  claim?: (g: Guarantee) => Guarantee,
) {
  const method = await loadMethod(name);
  const params = method.parse(raw);
  const release = await method.anonymize(log, params, { rng: Rng.fromSeed(seed), progress: silentProgress });
  const dir = tempDir();
  const summaryPath = join(dir, "summary.json");
  const guarantee = claim ? claim(release.guarantee) : release.guarantee;
  writeFileSync(summaryPath, JSON.stringify({ ...release.counts, guarantee }));
  const summary = JSON.parse(readFileSync(summaryPath, "utf8")) as Record<string, unknown>;
  const subject = {
    method: name,
    declared: declaredInput(method),
    params: params as Record<string, unknown>,
    original: log,
    summary,
    guarantee: parseGuarantee(summary.guarantee),
  };
  if (release.table) {
    const path = join(dir, "counts.tsv");
    await writeCountTable(path, release.table);
    return audit({ ...subject, table: parseCountTable(readFileSync(path, "utf8"), path) });
  }
  const path = join(dir, "released.tsv");
  await writeLog(path, release.log!);
  return audit({ ...subject, released: await loadLog([path], { progress: silentProgress }) });
}

const failures = (r: AuditReport) =>
  r.results.filter((x) => !x.ok).map((x) => `${x.name}: ${x.examples.join("; ")}`);

describe("every method's written release passes the audit (property)", () => {
  it("every registered method has a parameter arbitrary here", () => {
    assert.deepEqual(methods.map((m) => m.name).sort(), Object.keys(PARAMS).sort());
  });

  for (const m of methods) {
    it(`${m.name}`, async () => {
      await fc.assert(
        fc.asyncProperty(
          logArb,
          PARAMS[m.name]!,
          fc.integer({ min: 1, max: 1000 }),
          async (log, raw, seed) => {
            fc.pre(FITS[m.name]?.(log, raw) ?? true);
            const report = await auditWritten(m.name, log, raw, seed);
            assert.deepEqual(failures(report), [], JSON.stringify(raw));
            assert.ok(report.results.length > 0);
          },
        ),
        { numRuns: 25 },
      );
    });
  }

  // An over-claim fails: each checkable claim, raised above what the method made, on a log where it cannot hold.
  it("a claimed guarantee is checked on the written release: raising k or (k,m) fails the audit", async () => {
    const log = fc.sample(logArb, { seed: 11, numRuns: 1 })[0]!;
    const claimed = (r: AuditReport) => r.results.find((x) => x.name === "claimed guarantee");
    const users = new Set(log.records.map((r) => r.user)).size;
    for (const [name, raw] of [
      ["mdav", { k: 2, workers: 0 }],
      ["erola", { k: 2 }],
      ["km", { k: 2, m: 1 }],
    ] as const) {
      const honest = await auditWritten(name, log, raw, 1);
      assert.equal(claimed(honest)?.ok, true, `${name}: its own claim passes`);
      const over = await auditWritten(name, log, raw, 1, (g) =>
        g.model === "k-anonymity" || g.model === "km-anonymity" ? { ...g, k: users + 1 } : g,
      );
      assert.equal(claimed(over)?.ok, false, `${name}: k = ${users + 1} of ${users} users cannot hold`);
      assert.equal(over.ok, false);
    }
    const none = await auditWritten("identity", log, {}, 1, () => ({ model: "k-anonymity", k: users + 1 }));
    assert.equal(claimed(none)?.ok, false, "identity claiming k-anonymity");
  });

  it("a claim the output cannot show is checked against the parameters (swap's k, dp's ε and δ)", async () => {
    const log = fc.sample(logArb, { seed: 12, numRuns: 1 })[0]!;
    const claimed = (r: AuditReport) => r.results.find((x) => x.name === "claimed guarantee");
    const own = { k: 3, end: "suppress" };
    assert.equal(claimed(await auditWritten("swap", log, own, 1))?.ok, true, "swap's own claim");
    const swap = await auditWritten("swap", log, own, 1, () => ({ model: "k-bucket", k: 4 }));
    assert.equal(claimed(swap)?.ok, false, "swap claiming k = 4 at k = 3");
    const paired = await auditWritten("swap", log, { k: 3 }, 1, () => ({ model: "k-bucket", k: 3 }));
    assert.equal(claimed(paired)?.ok, false, "swap claiming k with the end-of-stream pairing");
    const delayed = await auditWritten("swap", log, { ...own, maxDelay: 60 }, 1, () => ({
      model: "k-bucket",
      k: 3,
    }));
    assert.equal(claimed(delayed)?.ok, false, "swap claiming k with a bounded delay");
    const raw = { epsilon: 1 };
    assert.equal(claimed(await auditWritten("dp", log, raw, 1))?.ok, true, "dp's own claim");
    const seeded = await auditWritten("dp", log, { ...raw, noise: "seeded" }, 1, () =>
      userLevelDp({ epsilon: 1, delta: 1e-5 }),
    );
    assert.equal(claimed(seeded)?.ok, false, "dp claiming DP with seeded noise");
    const dp = await auditWritten("dp", log, raw, 1, (g) =>
      g.model === "differential-privacy" ? { ...g, epsilon: 0.5 } : g,
    );
    assert.equal(
      claimed(dp)?.ok,
      false,
      "dp claiming ε = 0.5 at --epsilon 1: stronger than the run delivers",
    );
    const fewerDelta = await auditWritten("dp", log, raw, 1, (g) =>
      g.model === "differential-privacy" ? { ...g, delta: 1e-7 } : g,
    );
    assert.equal(claimed(fewerDelta)?.ok, false, "dp claiming δ = 1e-7 at --delta 1e-5");
    const more = await auditWritten("dp", log, raw, 1, (g) =>
      g.model === "differential-privacy" ? { ...g, epsilon: 2 } : g,
    );
    assert.equal(claimed(more)?.ok, false, "dp claiming ε = 2 at --epsilon 1");
  });

  // The end-of-stream pairing released two 'b' events under user 0 at the same time: they read back as one event.
  it("swap: the summary's released events are the events the file reads back", async () => {
    const rows: [string, string, number][] = [
      ["0", "a", 20],
      ["2", "b", 20],
      ["2", "c", 20],
      ["0", "b", 20],
      ["1", "a", 20],
      ["0", "b", 20],
      ["0", "c", 40],
      ["2", "b", 60],
      ["2", "b", 80],
    ];
    const records = rows.map(([user, query, t]) => ({
      user,
      query,
      time: 1_141_000_000 + t,
      category: "Top/X",
    }));
    const report = await auditWritten("swap", { records, format: "aol", classified: true }, { k: 2 }, 1);
    assert.deepEqual(failures(report), []);
  });
});
