/** The runner end to end on a hand-made log: outputs, the cache, parallel = serial, the main job. */
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { parseConfig } from "../../src/experiment/config.ts";
import { runMainJob } from "../../src/experiment/main-job.ts";
import { runExperimentConfig } from "../../src/experiment/runner.ts";
import { tempDir } from "../helpers/tmp.ts";
import { smallLog } from "./fixtures.ts";

const raw = {
  log: "(in memory)",
  seeds: [1, 2],
  methods: ["identity", "drop-all", { method: "threshold", params: { k: [2, 3] } }],
  yardsticks: ["rl", "background", "retention", "frequency", "emd", "clicks"],
  jobs: 1,
};

describe("runExperimentConfig", () => {
  it("writes results.tsv, results.json and report.html with one row per combination", async () => {
    const out = tempDir();
    const r = await runExperimentConfig(parseConfig(raw), { out, quiet: true, log: smallLog() });
    assert.equal(r.rows.length, 8);
    for (const f of [r.files.tsv, r.files.json, r.files.html]) assert.ok(existsSync(f), f);
    const tsv = readFileSync(r.files.tsv, "utf8").trim().split("\n");
    assert.equal(tsv.length, 1 + 8);
    assert.ok(tsv[0]!.split("\t").includes("rl.rl"));
    const id = r.rows.find((x) => x.method === "identity")!;
    assert.equal(id.values["rl.rl"], 100);
    const none = r.rows.find((x) => x.method === "drop-all")!;
    assert.equal(none.values["retention.events"], 0);
    assert.ok(
      tsv.some((l) => l.startsWith("drop-all") && l.includes("n/a")),
      "n/a written for undefined values",
    );
    const json = JSON.parse(readFileSync(r.files.json, "utf8"));
    assert.equal(json.rows.length, 8);
    assert.equal(json.meta.users, 4);
  });

  it("a method's defaults written out are the same configuration: computed once, one row, one report line", async () => {
    const out = tempDir();
    const config = parseConfig({
      ...raw,
      seeds: [1],
      methods: ["threshold", { method: "threshold", params: { k: 5 } }],
      yardsticks: ["retention"],
    });
    assert.deepEqual(config.combinations[0]!.params, { k: 5 }, "defaults filled in by the method's parser");
    const r = await runExperimentConfig(config, { out, quiet: true, log: smallLog() });
    assert.equal(r.meta.computed, 1);
    assert.equal(r.rows.length, 1);
    assert.deepEqual(r.rows[0]!.params, { k: 5 });
    const json = JSON.parse(readFileSync(r.files.json, "utf8"));
    assert.equal(json.rows.length, 1);
  });

  it("a rerun takes every result from the cache; a changed grid computes only the new point", async () => {
    const out = tempDir();
    const first = await runExperimentConfig(parseConfig(raw), { out, quiet: true, log: smallLog() });
    assert.equal(first.meta.computed, 8);
    const second = await runExperimentConfig(parseConfig(raw), { out, quiet: true, log: smallLog() });
    assert.equal(second.meta.computed, 0);
    assert.equal(second.meta.cached, 8);
    assert.deepEqual(
      second.rows.map((r) => r.values),
      first.rows.map((r) => r.values),
    );
    const grown = {
      ...raw,
      methods: [...raw.methods.slice(0, 2), { method: "threshold", params: { k: [2, 3, 4] } }],
    };
    const third = await runExperimentConfig(parseConfig(grown), { out, quiet: true, log: smallLog() });
    assert.equal(third.meta.computed, 2, "k=4 for two seeds");
    assert.equal(third.meta.cached, 8);
  });

  it("worker threads give the same results as one thread", async () => {
    const serial = await runExperimentConfig(parseConfig(raw), {
      out: tempDir(),
      quiet: true,
      log: smallLog(),
      jobs: 1,
    });
    const parallel = await runExperimentConfig(parseConfig(raw), {
      out: tempDir(),
      quiet: true,
      log: smallLog(),
      jobs: 2,
    });
    assert.deepEqual(
      parallel.rows.map((r) => [r.method, r.seed, r.values]),
      serial.rows.map((r) => [r.method, r.seed, r.values]),
    );
  });
});

describe("runMainJob", () => {
  it("runs the default method and the baselines on a log and returns the report path", async () => {
    const dir = tempDir();
    const log = join(dir, "tiny.log");
    const lines: string[] = [];
    for (let u = 0; u < 6; u++) {
      for (let q = 0; q < 5; q++) lines.push(`USER${u}\t97091600${u}${q}00\tquery ${u} ${q} music`);
    }
    writeFileSync(log, `${lines.join("\n")}\n`);
    const report = await runMainJob({ out: join(dir, "out"), seed: 1, quiet: true, log });
    assert.ok(existsSync(report));
    const json = JSON.parse(readFileSync(join(dir, "out", "results.json"), "utf8"));
    const names = json.rows.map((r: { method: string }) => r.method);
    assert.ok(names.includes("identity") && names.includes("drop-all"));
    assert.equal(json.meta.users, 6);
  });
});
