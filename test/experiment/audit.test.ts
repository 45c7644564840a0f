/** The runner audits every release and the report shows the verdict. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { parseConfig } from "../../src/experiment/config.ts";
import { runExperiment } from "../../src/experiment/runner.ts";
import { tempDir } from "../helpers/tmp.ts";
import { rec, smallLog } from "./fixtures.ts";

describe("runExperiment audits every release", () => {
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
    const r = await runExperiment(config, { out: tempDir(), quiet: true, log });
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
});
