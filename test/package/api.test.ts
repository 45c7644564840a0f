/**
 * The library API (src/index.ts) on generated logs: typed parameters cover every registered method, a bad
 * parameter is a ParamError worded as the CLI words it, the streaming stage releases what `anonymize` releases,
 * and nothing prints. Generated logs carry their true categories (`withTruth`), so no knowledge base is needed.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  anonymize,
  attack,
  audit,
  createStage,
  generateLog,
  listMethods,
  type MethodName,
  measure,
  ParamError,
  type ProgressEvent,
  parseParams,
  type QueryLog,
  runExperiment,
  runStage,
  scrub,
} from "../../src/index.ts";
import { loadMethod } from "../../src/methods/registry.ts";
import { tempDir } from "../helpers/tmp.ts";

/** A generated log as `querymask classify` would give it: true categories, identifiers scrubbed, in time order. */
async function classifiedLog(seed: number, users: number): Promise<QueryLog> {
  const { log } = await scrub(generateLog({ seed, users, withTruth: true }));
  const records = [...log.records].sort((a, b) => a.time - b.time);
  return { records, format: "aol", classified: true };
}

/** Every method name the typed map knows; TypeScript requires each key of MethodName here, and no other. */
const TYPED: Record<MethodName, true> = {
  swap: true,
  graph: true,
  dp: true,
  threshold: true,
  km: true,
  identity: true,
  "drop-all": true,
  mdav: true,
  "mdav-strings": true,
  erola: true,
  navarro: true,
  clientside: true,
};

test("the typed parameter map names exactly the registered methods", () => {
  assert.deepEqual(
    Object.keys(TYPED).sort(),
    listMethods()
      .map((m) => m.name)
      .sort(),
  );
  assert.deepEqual(
    listMethods()
      .filter((m) => m.streaming)
      .map((m) => m.name),
    ["swap"],
  );
});

test("a bad parameter is a ParamError with the method's own message; a name it does not take too", async () => {
  for (const [method, params] of [
    ["swap", { k: 1 }],
    ["km", { m: 0 }],
    ["dp", { epsilon: -1 }],
    ["threshold", { k: "x" }],
  ] as const) {
    let cli = "";
    try {
      (await loadMethod(method)).parse(params);
    } catch (e) {
      cli = (e as Error).message;
    }
    assert.ok(cli !== "", `${method} refuses ${JSON.stringify(params)}`);
    assert.throws(
      () => parseParams(method, params as never),
      (e) => e instanceof ParamError && e.message === cli,
    );
  }
  assert.throws(
    () => parseParams("km", { kk: 3 } as never),
    (e) =>
      e instanceof ParamError && /^km: parameter kk: not a parameter of km; it takes: k, m/.test(e.message),
  );
  // @ts-expect-error km takes no parameter kk: a compile error where TypeScript can see it.
  assert.throws(() => parseParams("km", { k: 3, kk: 3 }), ParamError);
});

test("anonymize: same log, parameters and seed give the same release; audit passes; nothing prints", async () => {
  const log = await classifiedLog(5, 30);
  const events: ProgressEvent[] = [];
  const writes: string[] = [];
  const out = process.stdout.write.bind(process.stdout);
  const err = process.stderr.write.bind(process.stderr);
  const capture =
    (real: (chunk: Uint8Array) => boolean) =>
    (chunk: unknown): boolean => {
      // `node --test` runs each file in a child that reports to the runner over stdout, V8-serialized (a message
      // starts with the serializer's version tag, 0xff): the runner's, not ours, so passed on. It may flush during
      // the awaits below (CI, session 14: the test failed on the runner's own queued messages).
      if (chunk instanceof Uint8Array && chunk[0] === 0xff) return real(chunk);
      writes.push(String(chunk));
      return true;
    };
  process.stdout.write = capture(out) as typeof process.stdout.write;
  process.stderr.write = capture(err) as typeof process.stderr.write;
  let a: Awaited<ReturnType<typeof anonymize<"swap">>>;
  let b: typeof a;
  let km: Awaited<ReturnType<typeof anonymize<"km">>>;
  const warnings: string[] = [];
  try {
    a = await anonymize(log, {
      method: "swap",
      params: { k: 3 },
      seed: 9,
      onProgress: (e) => events.push(e),
    });
    b = await anonymize(log, { method: "swap", params: { k: 3 }, seed: 9 });
    km = await anonymize(log, { method: "km", params: { k: 3, m: 2 } });
    // dp's not-private warning for seeded noise goes to onWarning, not to stderr.
    await anonymize(log, { method: "dp", params: { noise: "seeded" }, onWarning: (w) => warnings.push(w) });
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
  assert.deepEqual(writes, []);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0] ?? "", /NOT differentially private/);
  assert.deepEqual(a.log?.records, b.log?.records);
  assert.equal(a.params.k, 3);
  assert.equal(a.params.delta, 1.2, "defaults filled in");
  assert.ok(events.some((e) => e.type === "start") && events.at(-1)?.type === "stop");
  for (const r of [a, km]) {
    const report = await audit(log, r);
    assert.ok(report.ok, JSON.stringify(report.results.filter((x) => !x.ok)));
  }
});

test("the streaming stage releases what anonymize releases for the same seed", async () => {
  const log = await classifiedLog(8, 25);
  const batch = await anonymize(log, { method: "swap", params: { k: 4 }, seed: 3 });
  const stage = await createStage({ method: "swap", params: { k: 4 }, seed: 3, classified: true });
  async function* feed() {
    for (let i = 0; i < log.records.length; i += 100) yield log.records.slice(i, i + 100);
  }
  const streamed = [];
  for await (const out of runStage(stage, feed())) streamed.push(...out);
  const strip = ({ source: _s, ...r }: Record<string, unknown>) => r;
  assert.deepEqual(
    streamed.map((r) => strip({ ...r })),
    (batch.log?.records ?? []).map((r) => strip({ ...r })),
  );
  assert.ok(streamed.length > 0);
});

test("measure gives the experiment runner's figures for the same release; attacks run on a release", async () => {
  const log = await classifiedLog(4, 30);
  const yardsticks = ["rl", "background", "retention", "frequency"];
  const messages: string[] = [];
  const results = await runExperiment(
    {
      log: "generated-in-memory.tsv",
      classify: false,
      seeds: [2],
      methods: [{ method: "threshold", params: { k: 2 } }],
      yardsticks,
    },
    { out: tempDir(), log, jobs: 1, onMessage: (line) => messages.push(line) },
  );
  const [row] = results.rows;
  assert.equal(row?.status, "ok", row?.error);
  assert.equal(row?.audit, "pass");
  assert.ok(messages.some((m) => m.startsWith("[1/1] threshold")));
  const release = await anonymize(log, { method: "threshold", params: { k: 2 }, seed: 2 });
  assert.ok(Object.values(row?.values ?? {}).filter((v) => v !== null).length >= yardsticks.length);
  assert.deepEqual(await measure(log, release, { yardsticks }), row?.values);

  const identity = await anonymize(log, { method: "identity" });
  const linked = await attack("background", log, identity, { params: { m: 2 } });
  assert.equal(linked.total, log.records.length);
  assert.ok(linked.linked > 0, "the background attacker re-identifies users of an unchanged log");
});
