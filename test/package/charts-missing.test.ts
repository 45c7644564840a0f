/**
 * vega and vega-lite are optional peers (the report's charts): an install without them still writes the report,
 * with every table the charted report has and, in place of the charts, a note naming the packages and the
 * command that installs them; the run says the same on its output. The packages are hidden from a child
 * process by a module resolve hook that answers as Node does for a package that is not installed.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import { parseConfig } from "../../src/experiment/config.ts";
import { runExperimentConfig } from "../../src/experiment/runner.ts";
import { smallLog } from "../experiment/fixtures.ts";
import { tempDir } from "../helpers/tmp.ts";

const RAW = {
  log: "(in memory)",
  seeds: [1],
  methods: ["identity", "drop-all", { method: "swap", params: { k: [2, 4] } }],
  yardsticks: ["rl", "retention", "frequency"],
  frontier: { privacy: "rl.rl", utility: "retention.events" },
  jobs: 1,
};

const HOOKS = `export async function resolve(specifier, context, next) {
  if (specifier === "vega" || specifier === "vega-lite") {
    const e = new Error(\`Cannot find package '\${specifier}' imported from \${context.parentURL}\`);
    e.code = "ERR_MODULE_NOT_FOUND";
    throw e;
  }
  return next(specifier, context);
}
`;

const src = (path: string) => JSON.stringify(pathToFileURL(join(process.cwd(), path)).href);
const RUN = `import { parseConfig } from ${src("src/experiment/config.ts")};
import { runExperimentConfig } from ${src("src/experiment/runner.ts")};
import { smallLog } from ${src("test/experiment/fixtures.ts")};
const lines = [];
const r = await runExperimentConfig(parseConfig(JSON.parse(process.argv[2])), {
  out: process.argv[3],
  say: (l) => lines.push(l),
  log: smallLog(),
});
console.log(JSON.stringify({ html: r.files.html, lines }));
`;

/** The report from the methods' tables on (the run time in the reproducibility table aside). */
const tables = (html: string) =>
  html.slice(html.indexOf('<h2 id="methods">'), html.indexOf('<h2 id="reproduce">'));

test("without vega and vega-lite the report is written with its tables and says how to get the charts", {
  timeout: 180_000,
}, async () => {
  const dir = tempDir("querymask-no-charts-");
  writeFileSync(join(dir, "hooks.mjs"), HOOKS);
  writeFileSync(
    join(dir, "register.mjs"),
    'import { register } from "node:module";\nregister("./hooks.mjs", import.meta.url);\n',
  );
  writeFileSync(join(dir, "run.mts"), RUN);
  const child = spawnSync(
    process.execPath,
    [
      "--import",
      "tsx",
      "--import",
      pathToFileURL(join(dir, "register.mjs")).href,
      join(dir, "run.mts"),
      JSON.stringify(RAW),
      join(dir, "out"),
    ],
    { encoding: "utf8", maxBuffer: 1 << 26 },
  );
  assert.equal(child.status, 0, child.stderr);
  const out = JSON.parse(child.stdout.trim().split("\n").at(-1) ?? "") as { html: string; lines: string[] };
  const bare = readFileSync(out.html, "utf8");
  const peers = (
    JSON.parse(readFileSync("package.json", "utf8")) as { peerDependencies: Record<string, string> }
  ).peerDependencies;
  const install = `npm install vega@"${peers.vega}" vega-lite@"${peers["vega-lite"]}"`;
  assert.ok(
    out.lines.includes(
      `report: no charts: the report's charts need vega and vega-lite, which are not installed with querymask: ${install}`,
    ),
    out.lines.join("\n"),
  );
  assert.ok(bare.includes(install.replaceAll('"', "&#34;")), "the note in the report");
  assert.doesNotMatch(bare, /<figure class="chart"|<svg/);

  // Here vega and vega-lite are installed (devDependencies): the same run draws its charts, with the same tables.
  const charted = await runExperimentConfig(parseConfig(RAW), {
    out: join(dir, "charted"),
    quiet: true,
    log: smallLog(),
  });
  const full = readFileSync(charted.files.html, "utf8");
  assert.match(full, /<figure class="chart"[^>]*>\s*<svg/);
  assert.doesNotMatch(full, /No charts/);
  assert.ok(tables(bare).length > 1000, "the methods' tables");
  assert.equal(tables(bare), tables(full));
});
