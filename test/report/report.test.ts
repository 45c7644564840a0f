/** The HTML report: self-contained, one chart and table per thing it promises, and real rendering in Chromium. */
import assert from "node:assert/strict";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { CHROMIUM, checkReport } from "../../scripts/check-report.ts";
import { parseConfig } from "../../src/experiment/config.ts";
import { runExperiment } from "../../src/experiment/runner.ts";
import { markFrontier } from "../../src/report/charts.ts";
import { smallLog } from "../experiment/fixtures.ts";
import { tempDir } from "../helpers/tmp.ts";

const raw = {
  log: "(in memory)",
  seeds: [1],
  methods: ["identity", "drop-all", { method: "threshold", params: { k: [2, 3] } }],
  yardsticks: ["rl", "background", "dp", "retention", "frequency", "emd", "clicks"],
  frontier: { privacy: "rl.rl", utility: "retention.events" },
  jobs: 1,
};

async function makeReport(): Promise<string> {
  const r = await runExperiment(parseConfig(raw), { out: tempDir(), quiet: true, log: smallLog() });
  return r.files.html;
}

describe("report.html", () => {
  it("is self-contained: inline SVG charts, no script, no external resource", async () => {
    const html = readFileSync(await makeReport(), "utf8");
    assert.ok(!/<script/i.test(html), "no scripts");
    assert.ok(!/(src|href)\s*=\s*["']?(https?:)?\/\//i.test(html), "no external src/href");
    assert.ok(!/@import|url\(/i.test(html), "no CSS imports");
    const charts = html.match(/<figure class="chart"/g) ?? [];
    assert.ok(charts.length >= 2, `frontier + per-yardstick charts, got ${charts.length}`);
    assert.equal((html.match(/<figure class="chart"[^>]*>\s*<svg/g) ?? []).length, charts.length);
    for (const m of ["identity", "drop-all", "threshold"]) assert.ok(html.includes(`<h3>${m}</h3>`), m);
    for (const s of ["Data", "Privacy–utility frontier", "How to read each yardstick", "Reproducibility"]) {
      assert.ok(html.includes(s), s);
    }
    assert.ok(html.includes("n/a"), "not-applicable values shown as n/a");
  });

  it("marks the non-dominated points as the frontier", () => {
    const pts = markFrontier([
      { method: "a", label: "", privacy: 0, utility: 0 },
      { method: "b", label: "", privacy: 10, utility: 50 },
      { method: "c", label: "", privacy: 20, utility: 40 },
      { method: "d", label: "", privacy: 100, utility: 100 },
    ]);
    assert.deepEqual(
      pts.map((p) => p.frontier),
      [true, true, false, true],
    );
  });

  it("renders in headless Chromium with every chart drawn and no console error", {
    timeout: 120_000,
  }, async (t) => {
    if (!existsSync(CHROMIUM)) {
      t.skip(`${CHROMIUM} not installed (run scripts/setup-chromium.sh); skipping the browser check`);
      return;
    }
    const shot = join("test-artifacts", "report-test.png");
    const result = await checkReport(await makeReport(), shot);
    assert.deepEqual(result.problems, []);
    assert.ok(result.charts >= 2);
    assert.ok(statSync(shot).size > 10_000, "a real screenshot");
  });
});
