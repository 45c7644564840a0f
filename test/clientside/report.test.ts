import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { parseConfig } from "../../src/experiment/config.ts";
import { runExperimentConfig } from "../../src/experiment/runner.ts";
import { pelSection } from "../../src/report/pel.ts";
import { smallLog } from "../experiment/fixtures.ts";
import { tempDir } from "../helpers/tmp.ts";

test("client-side joins the experiment as a method; the report shows its PEL distribution beside the frontier", async () => {
  const raw = {
    log: "(in memory)",
    seeds: [1, 2],
    methods: ["identity", { method: "clientside", params: { degree: 2, maxHops: [0, 1] } }],
    yardsticks: ["rl", "retention"],
    frontier: { privacy: "rl.rl", utility: "retention.events" },
    jobs: 1,
  };
  const r = await runExperimentConfig(parseConfig(raw), { out: tempDir(), quiet: true, log: smallLog() });
  const rows = JSON.parse(readFileSync(r.files.json, "utf8"));
  const list = (Array.isArray(rows) ? rows : rows.rows) as {
    method: string;
    status: string;
    params: { maxHops: number };
    counts: Record<string, number>;
    values: Record<string, number | null>;
  }[];
  const cs = list.filter((x) => x.method === "clientside");
  assert.equal(cs.length, 4);
  for (const x of cs) {
    assert.equal(x.status, "ok");
    assert.equal(typeof x.counts.meanPel, "number");
    assert.equal(x.values["retention.events"], 100); // every query reaches the engine (percent)
    if (x.params.maxHops === 0) assert.equal(x.counts.meanPel, 100);
  }
  const html = readFileSync(r.files.html, "utf8");
  assert.ok(html.includes('id="pel"'));
  assert.match(
    html,
    /<th scope="row">clientside degree=2 maxHops=0<\/th><td>2<\/td><td>3\.0<\/td><td>100\.0<\/td>/,
  );
  assert.ok(html.includes("<h3>clientside</h3>"));
  // Client-side protection is a simulation of what the engine would see, not a release to ship: the decision
  // recommends releases only and shows it as a what-if.
  const decision = /<section id="decision"[^>]*>([\s\S]*?)<\/section>/.exec(html)?.[1] ?? "";
  assert.doesNotMatch(decision, /ship <strong>clientside/);
  assert.match(decision, /What-if: client-side protection is not a release a data team can apply/);
});

test("the PEL section is absent without client-side rows, and averages seeds", () => {
  assert.equal(pelSection([]), "");
  const row = (seed: number, meanPel: number) => ({
    key: String(seed),
    method: "clientside",
    paper: "002",
    params: { degree: 4 },
    seed,
    status: "ok" as const,
    seconds: 0,
    counts: { meanPel, pelUsers: 10 },
    guarantee: { model: "none" as const },
    values: {},
  });
  const html = pelSection([row(1, 20), row(2, 30)]);
  assert.match(html, /clientside degree=4<\/th><td>2<\/td><td>10\.0<\/td><td>25\.0<\/td>/);
});
