/**
 * The contract every registered method and attack keeps, so a new one is one file plus one registry line: its
 * ParamSpecs say what its parser does (same names, same defaults), its parser accepts its own output, and a
 * method's release carries one origin per released record (the ground truth attacks and yardsticks use).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { attacks } from "../../src/attacks/registry.ts";
import { type Guarantee, guaranteeNumbers, NO_GUARANTEE, userLevelDp } from "../../src/log/guarantee.ts";
import type { LogRecord, QueryLog } from "../../src/log/record.ts";
import { loadMethods } from "../../src/methods/registry.ts";
import type { ParamSpec } from "../../src/util/params.ts";
import { silentProgress } from "../../src/util/progress.ts";
import { Rng } from "../../src/util/random.ts";

interface Owner {
  readonly name: string;
  readonly params: readonly ParamSpec[];
  parse(raw: Readonly<Record<string, unknown>>): unknown;
}

/** Checks shared by methods and attacks; returns the parsed defaults. */
function checkSpecs(o: Owner): Record<string, unknown> {
  const parsed = { ...(o.parse({}) as Record<string, unknown>) };
  const declared = new Set(o.params.map((p) => p.name));
  assert.equal(declared.size, o.params.length, `${o.name}: a parameter declared twice`);
  for (const key of Object.keys(parsed)) assert.ok(declared.has(key), `${o.name}: parses undeclared ${key}`);
  for (const p of o.params) {
    if (p.default === undefined) continue;
    assert.deepEqual(
      parsed[p.name],
      p.default,
      `${o.name}: --${p.name}'s stated default is not its parser's`,
    );
  }
  assert.deepEqual(
    { ...(o.parse(parsed) as Record<string, unknown>) },
    parsed,
    `${o.name}: parse(parse({}))`,
  );
  return parsed;
}

/** 12 users over 4 categories, 3 events each, some with clicks: every method has something to release. */
function log(): QueryLog {
  const cats = ["Top/Arts/Music", "Top/Sports/Soccer", "Top/Home/Cooking", "Top/News/Weather"];
  const records: LogRecord[] = [];
  let time = 1_141_000_000;
  for (let e = 0; e < 3; e++) {
    for (let u = 0; u < 12; u++) {
      time += 30;
      const category = cats[(u + e) % 4]!;
      const query = `${category.split("/")[2]!.toLowerCase()} ${(u * 7 + e) % 5}`;
      const r: LogRecord = { user: String(100 + u), query, time, category, unit: query.split(" ")[0]! };
      if (u % 3 === 0) {
        r.itemRank = 1;
        r.clickUrl = `http://www.${query.split(" ")[0]}.com`;
      }
      records.push(r);
    }
  }
  return { records, format: "aol", classified: true };
}

type P = Record<string, unknown>;
/** What each method claims for its parameters (src/log/guarantee.ts); a new method states its claim here. */
const CLAIMS: Record<string, (p: P) => Guarantee> = {
  swap: (p) =>
    p.maxDelay === 0 && !p.ownAuthor && p.end === "suppress"
      ? { model: "k-bucket", k: p.k as number }
      : NO_GUARANTEE,
  mdav: (p) => ({ model: "k-anonymity", k: p.k as number }),
  "mdav-strings": (p) => ({ model: "k-anonymity", k: p.k as number }),
  erola: (p) => ({ model: "k-anonymity", k: p.k as number }),
  navarro: (p) => ({ model: "k-anonymity", k: p.k as number }),
  km: (p) => ({ model: "km-anonymity", k: p.k as number, m: p.m as number }),
  dp: (p) =>
    p.noise === "seeded"
      ? NO_GUARANTEE
      : userLevelDp({ epsilon: p.epsilon as number, delta: p.delta as number }),
  graph: () => NO_GUARANTEE,
  threshold: () => NO_GUARANTEE,
  identity: () => NO_GUARANTEE,
  "drop-all": () => NO_GUARANTEE,
  clientside: () => NO_GUARANTEE,
};

const methods = await loadMethods();

describe("method contract", () => {
  it("every method's claim is stated in this test", () => {
    assert.deepEqual(methods.map((m) => m.name).sort(), Object.keys(CLAIMS).sort());
  });

  for (const [name, raw] of [
    ["swap", { k: 4 }],
    ["swap", { k: 4, end: "suppress" }],
    ["swap", { k: 4, end: "suppress", maxDelay: 30 }],
    ["swap", { k: 4, end: "suppress", ownAuthor: true }],
    ["mdav", { k: 2, workers: 0 }],
    ["erola", { k: 4 }],
    ["km", { k: 2, m: 3 }],
    ["dp", { epsilon: 0.5, delta: 1e-6, noise: "seeded" }],
    ["dp", { epsilon: 0.5, delta: 1e-6 }],
    ["threshold", { k: 2 }],
  ] as const) {
    it(`${name} ${JSON.stringify(raw)}: claims only what its parameters give`, async () => {
      const m = methods.find((x) => x.name === name)!;
      const params = m.parse(raw);
      const release = await m.anonymize(log(), params, { rng: Rng.fromSeed(1), progress: silentProgress });
      const claim = release.guarantee;
      if (claim.model === "differential-privacy") {
        const want = CLAIMS[name]!(params as P);
        assert.ok(want.model === "differential-privacy");
        assert.ok(Math.abs(claim.epsilon - want.epsilon) <= 1e-12 * want.epsilon, "ε");
        // the Gaussian plan spends δ up to its bisections (ρ and the PLD boost rounded down): never above
        assert.ok(claim.delta <= want.delta * (1 + 1e-12) && claim.delta >= want.delta * (1 - 1e-4), "δ");
      } else assert.deepEqual(claim, CLAIMS[name]!(params as P));
      if (m.stageGuarantee) assert.deepEqual(m.stageGuarantee(params), claim, "stage and batch claim alike");
    });
  }

  for (const m of methods) {
    it(`${m.name}: specs match the parser; a release has one origin per record`, async () => {
      const parsed = checkSpecs({ name: m.name, params: m.params.specs, parse: (raw) => m.parse(raw) });
      const input = log();
      const params = m.parse(m.name === "mdav" ? { ...parsed, workers: 0 } : parsed);
      const release = await m.anonymize(input, params, { rng: Rng.fromSeed(1), progress: silentProgress });
      assert.ok(release.log || release.table, `${m.name} released nothing`);
      const got = guaranteeNumbers(release.guarantee);
      const want = guaranteeNumbers(CLAIMS[m.name]!(params as P));
      // dp's Gaussian plan spends δ up to its bisections (ρ and the PLD boost rounded down): within 1e-4 of what
      // was asked, never above
      assert.deepEqual(Object.keys(got).sort(), Object.keys(want).sort());
      for (const [key, value] of Object.entries(want)) {
        assert.ok(
          got[key]! <= value * (1 + 1e-12) && got[key]! >= value * (1 - 1e-4),
          `${m.name} ${key}: ${got[key]} vs ${value}`,
        );
      }
      if (!release.log) return;
      assert.ok(release.origin, `${m.name}: a released log without origins`);
      assert.equal(release.origin.length, release.log.records.length, `${m.name}: origin length`);
      for (const i of release.origin)
        assert.ok(i >= -1 && i < input.records.length, `${m.name}: origin ${i}`);
    });
  }
});

describe("attack contract", () => {
  for (const a of attacks) {
    it(`${a.name}: specs match the parser, which accepts its own parameters`, () => {
      const parsed = checkSpecs(a);
      for (const p of a.params) assert.ok(p.name in parsed, `${a.name}: ${p.name} missing from parse({})`);
    });
  }
});
