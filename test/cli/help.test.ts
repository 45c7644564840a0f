import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { commands } from "../../src/cli/commands/index.ts";
import { tempDir } from "../helpers/tmp.ts";

const run = (...args: string[]) =>
  spawnSync(process.execPath, ["bin/querymask.js", ...args], { encoding: "utf8" });

test("every command answers --help with exit 0 and an example or description", () => {
  const names = commands.map((c) => c.name);
  assert.ok(names.includes("stats") && names.includes("anonymize"));
  for (const name of names) {
    const r = run(name, "--help");
    assert.equal(r.status, 0, `${name} --help: ${r.stderr}`);
    assert.match(r.stdout, new RegExp(`Usage: querymask ${name}`));
    const description = commands.find((c) => c.name === name)!.description;
    assert.ok(r.stdout.includes(description.slice(0, 40)), `${name} --help shows its description`);
  }
});

test("querymask --help lists every command with its description without loading them; help <command> loads it", () => {
  const r = run("--help");
  assert.equal(r.status, 0, r.stderr);
  for (const c of commands) assert.match(r.stdout, new RegExp(`\\n  ${c.name}\\b`), c.name);
  const v = run("--version");
  assert.equal(v.status, 0);
  assert.equal(v.stdout.trim(), JSON.parse(readFileSync("package.json", "utf8")).version);
  const h = run("help", "anonymize");
  assert.equal(h.status, 0, h.stderr);
  assert.match(h.stdout, /--sort-buffer/);
});

test("usage errors exit 2", () => {
  assert.equal(run("no-such-command").status, 2);
  assert.equal(run("stats").status, 2);
  const r = run("anonymize", "--method", "nope", "-o", "/tmp/x", "data/excite/excite-small.log");
  assert.equal(r.status, 2);
  assert.match(r.stderr, /unknown method "nope"/);
});

test("a missing required option prints one line and a pointer to --help, not the whole help page", () => {
  const r = run("anonymize", "data/excite/excite-small.log");
  assert.equal(r.status, 2);
  assert.deepEqual(r.stderr.trim().split("\n"), [
    "error: required option '-m, --method <name>' not specified",
    "(run `querymask <command> --help` for usage)",
  ]);
});

test("anonymize streams an unclassified log through swap, classifying on the way, in the input's format", () => {
  const out = join(tempDir(), "released.log");
  const r = run(
    "anonymize",
    "--method",
    "swap",
    "--k",
    "3",
    "--seed",
    "7",
    "-q",
    "--json",
    "data/excite/excite-small.log",
    "-o",
    out,
  );
  assert.equal(r.status, 0, r.stderr);
  const summary = JSON.parse(r.stdout);
  assert.equal(summary["input rows"], 4501);
  assert.equal(summary["released rows"] + summary["suppressed rows"] + summary["held events"], 4501);
  const lines = readFileSync(out, "utf8").trimEnd().split("\n");
  assert.equal(lines.length, summary["released rows"]);
  assert.match(lines[0]!, /^[0-9A-F]+\t\d{12}\t/); // Excite layout, no category columns
});

test("anonymize --method NAME --help shows that method's own parameters, descriptions and defaults", () => {
  const dp = run("anonymize", "--method", "dp", "--help");
  assert.equal(dp.status, 0, dp.stderr);
  const own = dp.stdout.slice(dp.stdout.indexOf("Parameters of method dp:"));
  assert.match(own, /--delta <number> +failure probability δ/);
  assert.doesNotMatch(dp.stdout, /growth factor/, "swap's δ is not dp's");
  assert.doesNotMatch(dp.stdout, /--max-delay|--vulnerable/, "other methods' flags are not listed for dp");
  const km = run("anonymize", "--method", "km", "--help");
  assert.match(km.stdout, /Parameters of method km:\n {2}--k <int> +.*\(default 5\)/);
  const swap = run("anonymize", "--method", "swap", "--help");
  assert.match(swap.stdout, /--max-delay <number>/);
  const all = run("anonymize", "--help");
  assert.match(all.stdout, /Parameters by method/);
  assert.doesNotMatch(all.stdout, /--maxDelay/, "the camelCase alias is hidden");
});

test("parameter flags are kebab-case; the camelCase spelling still reaches the same parameter", () => {
  for (const flag of ["--max-delay", "--maxDelay"]) {
    const r = run(
      "anonymize",
      "--method",
      "threshold",
      flag,
      "5",
      "-o",
      "/tmp/x",
      "data/excite/excite-small.log",
    );
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /method threshold has no parameter --max-delay; it takes: --k/);
  }
  const a = run("attack", "--attack", "matcher", "--help");
  assert.match(a.stdout, /Parameters of attack matcher:\n {2}--match-time <boolean>/);
});

test("querymask --help prints the program's own top-level help, pre-rendered by the build when dist/ is fresh", async (t) => {
  const { topHelp } = await import("../../src/cli/main.ts");
  const expected = await topHelp();
  assert.match(expected, /^Usage: querymask \[options\] \[command\]/);
  assert.equal(run("--help").stdout, expected);
  assert.equal(run("-h").stdout, expected);
  // bin prints dist/cli/help.txt only when no source is newer than the build: then it must be this text.
  const built = statSync("dist/cli/help.txt", { throwIfNoEntry: false });
  const fresh = built !== undefined && !newerThan("src", built.mtimeMs);
  if (fresh) assert.equal(readFileSync("dist/cli/help.txt", "utf8"), expected);
  else t.diagnostic("dist/ is absent or older than src/: the pre-rendered help was not compared");
});

function newerThan(dir: string, time: number): boolean {
  return readdirSync(dir, { recursive: true }).some((f) => statSync(join(dir, String(f))).mtimeMs > time);
}
