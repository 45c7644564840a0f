/**
 * querymask as a new user gets it: `npm pack` the checkout (prepack builds dist/), install the tarball into a
 * fresh project in a temporary directory outside the checkout, then from there
 *  1. `querymask kb build` builds the knowledge base into the user's cache ($XDG_CACHE_HOME/querymask/<version>),
 *     never inside node_modules;
 *  2. `npx querymask demo` writes its report;
 *  3. a TypeScript file importing the API (anonymize a generated log with swap and km, audit both, write and read
 *     back a release) type-checks with `tsc --noEmit` against the installed `.d.ts` and runs; a wrong parameter
 *     name for a method is a compile error.
 *
 * Dependencies come from the npm cache (`--prefer-offline`); when neither the cache nor the registry can provide
 * them the test is skipped with the reason. Install scripts are not run (`--ignore-scripts`): better-sqlite3's
 * would download a binary from GitHub or compile SQLite for minutes, and only `querymask profile` needs it.
 * Cost: 105.6 user + 28.0 sys CPU-seconds, 1.09 GB peak RSS (BENCHMARKS.md, "The npm package").
 */
import assert from "node:assert/strict";
import { type SpawnSyncReturns, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { tempDir } from "../helpers/tmp.ts";

const NPM = process.platform === "win32" ? "npm.cmd" : "npm";
const NPX = process.platform === "win32" ? "npx.cmd" : "npx";
const CHECKOUT = process.cwd();

function run(
  cmd: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): SpawnSyncReturns<string> {
  return spawnSync(cmd, args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, ...env },
    maxBuffer: 64 << 20,
  });
}

function ok(r: SpawnSyncReturns<string>, what: string): string {
  assert.equal(r.status, 0, `${what} exited ${r.status}\n${r.stderr.slice(-4000)}\n${r.stdout.slice(-2000)}`);
  return r.stdout;
}

const APP = `import {
  anonymize,
  audit,
  generateLog,
  type MethodName,
  ParamError,
  parseParams,
  readLog,
  writeLog,
} from "querymask";

const log = generateLog({ seed: 11, users: 40 });
const releases = [
  await anonymize(log, { method: "swap", params: { k: 3, delta: 1.2 }, seed: 7 }),
  await anonymize(log, { method: "km", params: { k: 3, m: 2 }, seed: 7 }),
];
const methods: MethodName[] = [];
for (const release of releases) {
  const report = await audit(log, release);
  if (!report.ok) throw new Error(release.method + " failed its audit: " + JSON.stringify(report.results));
  methods.push(release.method);
}
const first = releases[0]!;
if (!first.log) throw new Error("swap released no log");
await writeLog("released.tsv", first.log);
const back = await readLog("released.tsv");
let message = "";
try {
  parseParams("swap", { k: 1 });
} catch (e) {
  if (e instanceof ParamError) message = e.message;
}
console.log(JSON.stringify({ methods, input: log.records.length, readBack: back.records.length, message }));
`;

const WRONG = `import { anonymize, generateLog } from "querymask";
await anonymize(generateLog({ seed: 1, users: 5 }), { method: "km", params: { kk: 3 } });
await anonymize(generateLog({ seed: 1, users: 5 }), { method: "swap", params: { end: "never" } });
`;

const TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    noUncheckedIndexedAccess: true,
    types: ["node"],
    outDir: "build",
  },
  files: ["app.ts"],
};

test("the packed tarball installs into a fresh project, and its CLI and typed API work there", {
  timeout: 20 * 60_000,
}, async (t) => {
  const work = tempDir("querymask-package-");
  const pack = run(NPM, ["pack", "--json", "--pack-destination", work], CHECKOUT);
  ok(pack, "npm pack");
  const [packed] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf("["))) as {
    filename: string;
    size: number;
    entryCount: number;
    files: { path: string }[];
  }[];
  assert.ok(packed);
  t.diagnostic(`${packed.filename}: ${packed.size} bytes, ${packed.entryCount} files`);
  const shipped = packed.files.map((f) => f.path);
  // Only what runs: no sources, tests, benchmarks, docs or source maps.
  for (const p of shipped) {
    assert.match(
      p,
      /^(bin\/|dist\/.*\.(js|d\.ts|json)$|data\/|package\.json$|README\.md$|LICENSE$|NOTICE$)/,
      p,
    );
  }
  assert.ok(shipped.includes("dist/index.d.ts") && shipped.includes("dist/cli/main.js"));
  assert.ok(shipped.includes("data/excite/excite-small.log"));

  const project = join(work, "project");
  const cache = join(work, "cache");
  const env = { XDG_CACHE_HOME: cache, QUERYMASK_KB: undefined, npm_config_update_notifier: "false" };
  mkdirSync(project);
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: "querymask-user", version: "1.0.0", private: true, type: "module" }),
  );
  const install = run(
    NPM,
    [
      "install",
      "--prefer-offline",
      "--ignore-scripts",
      "--no-audit",
      "--no-fund",
      join(work, packed.filename),
      "typescript@~5.9",
      "@types/node@20",
    ],
    project,
    env,
  );
  if (install.status !== 0) {
    const why = install.stderr.match(/ENOTCACHED|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|E404/)?.[0];
    if (why) {
      t.skip(`npm could not get querymask's dependencies from the cache or the registry (${why})`);
      return;
    }
    ok(install, "npm install of the tarball");
  }
  const installed = join(project, "node_modules", "querymask");

  // 1. The knowledge base builds from the installed package, into the user's cache.
  ok(run(NPX, ["querymask", "kb", "build"], project, env), "querymask kb build");
  const version = (JSON.parse(readFileSync(join(installed, "package.json"), "utf8")) as { version: string })
    .version;
  const snapshot = join(cache, "querymask", version, "knowledge-base.json");
  assert.ok(statSync(snapshot).size > 1_000_000, "the snapshot is in the user's cache");

  // 2. The main job writes its report, reusing that knowledge base.
  const demo = run(NPX, ["querymask", "demo", "-o", "out/main-job"], project, env);
  ok(demo, "querymask demo");
  assert.match(readFileSync(join(project, "out/main-job/report.html"), "utf8"), /<html/i);
  assert.doesNotMatch(demo.stderr, /kb: building/, "the demo reused the snapshot kb build wrote");
  assert.ok(!existsSync(join(installed, ".cache")), "nothing written inside node_modules/querymask");

  // 3. The typed API, from TypeScript.
  writeFileSync(join(project, "app.ts"), APP);
  writeFileSync(join(project, "tsconfig.json"), JSON.stringify(TSCONFIG));
  const tsc = join(project, "node_modules", "typescript", "bin", "tsc");
  ok(run(process.execPath, [tsc, "--noEmit", "-p", "."], project, env), "tsc --noEmit app.ts");
  ok(run(process.execPath, [tsc, "-p", "."], project, env), "tsc app.ts");
  const app = JSON.parse(ok(run(process.execPath, ["build/app.js"], project, env), "node app.js")) as {
    methods: string[];
    input: number;
    readBack: number;
    message: string;
  };
  assert.deepEqual(app.methods, ["swap", "km"]);
  assert.ok(app.input > 0 && app.readBack > 0);
  assert.equal(app.message, "swap: parameter k: must be an integer ≥ 2, got 1");

  writeFileSync(join(project, "wrong.ts"), WRONG);
  writeFileSync(join(project, "tsconfig.json"), JSON.stringify({ ...TSCONFIG, files: ["wrong.ts"] }));
  const wrong = run(process.execPath, [tsc, "--noEmit", "-p", "."], project, env);
  assert.notEqual(wrong.status, 0, "a wrong parameter name or value is a compile error");
  assert.match(wrong.stdout, /wrong\.ts\(2,.*'kk'/, "km has no parameter kk");
  assert.match(wrong.stdout, /wrong\.ts\(3,.*"never"/, "swap's end is release or suppress");
});
