/** The runner audits every release and the report shows the verdict. */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { parseConfig } from "../../src/experiment/config.ts";
import { runExperimentConfig } from "../../src/experiment/runner.ts";
import { tempDir } from "../helpers/tmp.ts";
import { rec, smallLog } from "./fixtures.ts";

describe("runExperimentConfig audits every release", () => {
  it("a verdict per row, in results.tsv and in the report's method tables", async () => {
    const log = smallLog();
    // Two users searched the same e-mail address: the threshold releases it (k = 2), and the audit says so.
    log.records.push(rec("alice", "helenwatson133 aol com", 9000, "Top/Computers"));
    log.records.push(rec("bob", "helenwatson133 aol com", 9001, "Top/Computers"));
    const config = parseConfig({
      log: "(in memory)",
      seeds: [1],
      methods: ["identity", { method: "threshold", params: { k: [2, 5] } }],
      yardsticks: ["retention"],
      jobs: 1,
    });
    const r = await runExperimentConfig(config, { out: tempDir(), quiet: true, log });
    const verdict = (method: string, k?: number) =>
      r.rows.find((x) => x.method === method && (k === undefined || x.params.k === k))!;
    assert.equal(verdict("identity").audit, "pass");
    assert.equal(verdict("threshold", 5).audit, "pass");
    assert.equal(verdict("threshold", 2).audit, "FAIL: identifiers");
    assert.match(verdict("threshold", 2).auditViolations![0]!, /helenwatson133 aol com/);
    const tsv = readFileSync(r.files.tsv, "utf8").split("\n");
    assert.equal(tsv[0]!.split("\t")[4], "audit");
    assert.ok(tsv.some((l) => l.startsWith("threshold") && l.split("\t")[4] === "FAIL: identifiers"));
    assert.equal(tsv[0]!.split("\t")[5], "guarantee");
    assert.ok(tsv.some((l) => l.startsWith("threshold") && l.split("\t")[5] === "none"));
    const html = readFileSync(r.files.html, "utf8");
    assert.match(html, /<th title="querymask audit[^"]*">audit<\/th>/);
    assert.match(html, /<td class="error">FAIL: identifiers<\/td>/);
  });

  it("allowList: its phrases are not identifiers to the audit, and the run says which list it used", async () => {
    const log = smallLog();
    // An invented public figure the bundled lists lack, searched by two users for his obituary (a name in a query
    // about a person is an identifier to the audit's detector unless listed): the threshold (k = 2) releases it.
    log.records.push(rec("alice", "dale brickner obituary", 9000, "Top/Sports"));
    log.records.push(rec("bob", "dale brickner obituary", 9001, "Top/Sports"));
    const dir = tempDir();
    const list = join(dir, "public-figures.txt");
    writeFileSync(list, "dale brickner\n");
    const raw = {
      log: "(in memory)",
      seeds: [1],
      methods: [{ method: "threshold", params: { k: 2 } }],
      jobs: 1,
    };
    const run = async (extra: object) =>
      await runExperimentConfig(parseConfig({ ...raw, ...extra }, "x.yaml", dir), {
        out: tempDir(),
        quiet: true,
        log,
      });
    const without = await run({});
    assert.equal(without.rows[0]!.audit, "FAIL: identifiers");
    // Two seeds on two workers: each worker's audit has the list too.
    const withList = await run({ allowList: "public-figures.txt", seeds: [1, 2], jobs: 2 });
    assert.deepEqual(
      withList.rows.map((r) => r.audit),
      ["pass", "pass"],
    );
    assert.ok(withList.meta.notes.some((n) => n.includes(list) && n.includes("1 phrase)")));
    assert.throws(() => parseConfig({ ...raw, allowList: 3 }), /allowList: must be the path of a file/);
  });
});
