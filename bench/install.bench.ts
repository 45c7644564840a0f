/**
 * What a new user waits for: `npm pack` the checkout, `npm install` the tarball into an empty project (from the
 * npm cache when it has the dependencies, as on a machine that installed them before), then the first
 * `npx querymask classify` of the bundled sample — with no build step, since the package ships its knowledge.
 * Targets: node_modules ≤ 150 MB (du), install ≤ 40 s wall, first classify ≤ 5 s wall and ≤ 500 MB peak RSS.
 * Run: `npm run bench -- install` (`--keep` leaves the project in the temporary directory it names).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { load, timed, timeOrSkip } from "./process.ts";
import { writeResults } from "./results.ts";
import { ROOT } from "./shared-aol.ts";

timeOrSkip("install");
const work = mkdtempSync(join(tmpdir(), "querymask-install-bench-"));
const npm = (args: string[], cwd: string) => {
  const r = spawnSync("npm", args, { cwd, encoding: "utf8", maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`npm ${args.join(" ")} failed: ${r.stderr.slice(-2000)}`);
  return r.stdout;
};

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
  '{ "name": "querymask-user", "version": "1.0.0", "private": true }\n',
);
const install = timed(["npm", "install", "--prefer-offline", "--no-audit", "--no-fund", tarball], project);
const du = spawnSync("du", ["-sk", "node_modules"], { cwd: project, encoding: "utf8" });
const modulesMB = Number(du.stdout.split("\t")[0]) / 1024;
const cache = join(work, "cache");
process.env.XDG_CACHE_HOME = cache; // an empty cache: nothing built before
const sample = join(project, "node_modules", "querymask", "data", "excite", "excite-small.log");
const first = timed(["npx", "querymask", "classify", sample, "-o", join(work, "classified.tsv")], project);
const second = timed(["npx", "querymask", "classify", sample, "-o", join(work, "classified2.tsv")], project);

const figures = {
  load: { before: loadBefore, after: load() },
  tarballMB: packed[0]!.size / 1e6,
  unpackedMB: packed[0]!.unpackedSize / 1e6,
  nodeModulesMB: modulesMB,
  install: { wall: install.wall, cpu: install.cpu },
  firstClassify: { wall: first.wall, cpu: first.cpu, rssMiB: first.rssMiB },
  secondClassify: { wall: second.wall, cpu: second.cpu, rssMiB: second.rssMiB },
};
const row = (what: string, value: string, target: string) => `| ${what} | ${value} | ${target} |`;
console.log(`\n## install (load ${loadBefore} before, ${figures.load.after} after)\n`);
console.log("| figure | value | target |\n| --- | ---: | ---: |");
console.log(
  row(
    "tarball (packed / unpacked)",
    `${figures.tarballMB.toFixed(1)} / ${figures.unpackedMB.toFixed(1)} MB`,
    "",
  ),
);
console.log(row("node_modules (du)", `${modulesMB.toFixed(0)} MB`, "≤ 150 MB"));
console.log(
  row("npm install (wall / CPU)", `${install.wall.toFixed(1)} s / ${install.cpu.toFixed(1)} s`, "≤ 40 s"),
);
console.log(
  row(
    "first classify of the sample (wall / CPU / peak RSS)",
    `${first.wall.toFixed(2)} s / ${first.cpu.toFixed(2)} s / ${first.rssMiB.toFixed(0)} MiB`,
    "≤ 5 s, ≤ 500 MB",
  ),
);
console.log(
  row(
    "second classify (wall / CPU / peak RSS)",
    `${second.wall.toFixed(2)} s / ${second.cpu.toFixed(2)} s / ${second.rssMiB.toFixed(0)} MiB`,
    "",
  ),
);
writeResults("install", figures);
if (process.argv.includes("--keep")) console.log(`\nkept ${work}`);
else rmSync(work, { recursive: true, force: true });
