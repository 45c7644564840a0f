/**
 * What a new user waits for: `npm pack` the checkout, `npm install` the tarball into an empty `type: module`
 * project (from the npm cache when it has the dependencies, as on a machine that installed them before), then the
 * first `npx querymask classify` of the bundled sample with an empty XDG cache — no build step, since the package
 * ships its knowledge — and its output against the checkout's classify of the same file.
 * Targets: node_modules ≤ 150 MB (du; aim 100), install ≤ 40 s wall, first classify ≤ 5 s wall and ≤ 500 MB peak
 * RSS, the checkout's classifications byte for byte. Skips, saying why, when npm can get a dependency from neither
 * its cache nor the registry.
 * Run: `npm run bench -- install` (`npm run bench -- install --keep` leaves the project in the temporary directory
 * it names).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI, load, timed, timeOrSkip } from "./process.ts";
import { writeResults } from "./results.ts";
import { ROOT } from "./shared-aol.ts";

timeOrSkip("install");
const work = mkdtempSync(join(tmpdir(), "querymask-install-bench-"));
const keep = process.argv.includes("--keep");
const done = () => {
  if (keep) console.log(`\nkept ${work}`);
  else rmSync(work, { recursive: true, force: true });
};
const npm = (args: string[], cwd: string) => {
  const r = spawnSync("npm", args, { cwd, encoding: "utf8", maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`npm ${args.join(" ")} failed: ${r.stderr.slice(-2000)}`);
  return r.stdout;
};
/** KiB on disk under `path`, as du counts them. */
const du = (path: string): number =>
  Number(spawnSync("du", ["-sk", path], { encoding: "utf8" }).stdout.split("\t")[0]);

const loadBefore = load();
const packed = JSON.parse(npm(["pack", "--json", "--pack-destination", work], ROOT)) as {
  filename: string;
  size: number;
  unpackedSize: number;
}[];
const tarball = join(work, packed[0]!.filename);
const project = join(work, "project");
mkdirSync(project);
writeFileSync(
  join(project, "package.json"),
  '{ "name": "querymask-user", "version": "1.0.0", "private": true, "type": "module" }\n',
);
process.env.npm_config_update_notifier = "false";
let install: ReturnType<typeof timed>;
try {
  install = timed(["npm", "install", "--prefer-offline", "--no-audit", "--no-fund", tarball], project);
} catch (e) {
  const why = /ENOTCACHED|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|E404/.exec((e as Error).message)?.[0];
  if (why === undefined) throw e;
  console.log(
    `install skipped: npm could not get a dependency of querymask from its cache or the registry (${why}); ` +
      "run `npm ci` in the checkout once with the registry reachable",
  );
  done();
  process.exit(0);
}
const modules = join(project, "node_modules");
const modulesMiB = du(modules) / 1024;
/** The heaviest packages (a scope counts as one), for what to cut next. */
const heaviest = readdirSync(modules)
  .filter((n) => !n.startsWith("."))
  .map((n) => ({ name: n, MiB: du(join(modules, n)) / 1024 }))
  .sort((a, b) => b.MiB - a.MiB)
  .slice(0, 6);
const packages = Number(
  spawnSync("find", [modules, "-name", "package.json", "-path", "*/node_modules/*/package.json"], {
    encoding: "utf8",
  })
    .stdout.split("\n")
    .filter((p) => /node_modules\/(@[^/]+\/)?[^/@]+\/package\.json$/.test(p)).length,
);

process.env.XDG_CACHE_HOME = join(work, "cache"); // an empty cache: nothing built before
const sample = join(modules, "querymask", "data", "excite", "excite-small.log");
const first = timed(["npx", "querymask", "classify", sample, "-o", join(work, "classified.tsv")], project);
const second = timed(["npx", "querymask", "classify", sample, "-o", join(work, "classified2.tsv")], project);
const mine = join(work, "checkout.tsv");
timed([process.execPath, CLI, "classify", sample, "-o", mine, "-q"], ROOT);
const same = readFileSync(join(work, "classified.tsv")).equals(readFileSync(mine));

const figures = {
  load: { before: loadBefore, after: load() },
  tarballMB: packed[0]!.size / 1e6,
  unpackedMB: packed[0]!.unpackedSize / 1e6,
  nodeModulesMiB: modulesMiB,
  packages,
  heaviest,
  install: { wall: install.wall, cpu: install.cpu },
  firstClassify: { wall: first.wall, cpu: first.cpu, rssMiB: first.rssMiB, sameAsCheckout: same },
  secondClassify: { wall: second.wall, cpu: second.cpu, rssMiB: second.rssMiB },
};
const row = (what: string, value: string, target: string) => `| ${what} | ${value} | ${target} |`;
const s = (m: { wall: number; cpu: number; rssMiB: number }) =>
  `${m.wall.toFixed(2)} s / ${m.cpu.toFixed(2)} s / ${m.rssMiB.toFixed(0)} MiB`;
console.log(`\n## install (load ${loadBefore} before, ${figures.load.after} after)\n`);
console.log("| figure | value | target |\n| --- | ---: | ---: |");
console.log(
  row(
    "tarball (packed / unpacked)",
    `${figures.tarballMB.toFixed(1)} / ${figures.unpackedMB.toFixed(1)} MB`,
    "",
  ),
);
console.log(
  row(`node_modules (du; ${packages} packages)`, `${modulesMiB.toFixed(0)} MiB`, "≤ 150 MB (aim 100)"),
);
console.log(
  row("npm install (wall / CPU)", `${install.wall.toFixed(1)} s / ${install.cpu.toFixed(1)} s`, "≤ 40 s"),
);
console.log(row("first classify of the sample (wall / CPU / peak RSS)", s(first), "≤ 5 s, ≤ 500 MB"));
console.log(row("second classify (wall / CPU / peak RSS)", s(second), ""));
console.log(row("classifications as the checkout's", same ? "byte for byte" : "DIFFER", "byte for byte"));
console.log(`\nheaviest: ${heaviest.map((h) => `${h.name} ${h.MiB.toFixed(1)} MiB`).join(", ")}`);
writeResults("install", figures);
done();
if (!same) process.exitCode = 1;
