/** `querymask experiment` as a user runs it: exit codes, the offending key on stderr, outputs on disk. */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { tempDir } from "../helpers/tmp.ts";

const MAIN = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url));

function run(args: string[]) {
  return spawnSync(process.execPath, ["--import", "tsx", MAIN, "experiment", ...args], { encoding: "utf8" });
}

describe("querymask experiment", () => {
  it("a bad config exits 2 and names the offending key", () => {
    const dir = tempDir();
    const cfg = join(dir, "bad.yaml");
    writeFileSync(
      cfg,
      "log: x.log\nmethods:\n  - method: identity\n  - method: threshold\n    params: { k: 1 }\n",
    );
    const r = run([cfg, "-o", join(dir, "out")]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /methods\[1\]\.params\.k: /);
  });

  it("runs a config, prints JSON, and writes the three outputs", () => {
    const dir = tempDir();
    const log = join(dir, "tiny.log");
    const lines: string[] = [];
    for (let u = 0; u < 4; u++)
      for (let q = 0; q < 4; q++) lines.push(`U${u}\t9709160${u}${q}000\tq${u}${q}`);
    writeFileSync(log, `${lines.join("\n")}\n`);
    const cfg = join(dir, "exp.json");
    writeFileSync(
      cfg,
      JSON.stringify({
        log: "tiny.log",
        classify: false,
        methods: ["identity", "drop-all"],
        yardsticks: ["rl", "retention"],
      }),
    );
    const out = join(dir, "out");
    const r = run([cfg, "-o", out, "--json", "-q", "-j", "1"]);
    assert.equal(r.status, 0, r.stderr);
    const json = JSON.parse(r.stdout);
    assert.equal(json.rows.length, 2);
    assert.equal(json.rows[0].values["rl.rl"], 100);
    for (const f of ["results.tsv", "results.json", "report.html"]) assert.ok(existsSync(join(out, f)), f);
  });
});
