/**
 * The cluster's clients — NATS' (`@nats-io/*`) and PostgreSQL's (`pg`) — are optional peers: without them
 * `cluster` and `serve --cluster` say in one line which packages to install (all of them at once) and exit 2, and
 * every other command works, the service's embedded runtime and the library API among them. The packages are
 * hidden from a child process by a module resolve hook that answers as Node does for a package that is not
 * installed.
 */
import assert from "node:assert/strict";
import { type SpawnSyncReturns, spawn, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import {
  MissingPackages,
  missingPackageMessage,
  NATS_PACKAGES,
  requirePeers,
} from "../../src/cli/missing-package.ts";
import { tempDir } from "../helpers/tmp.ts";

const HOOKS = `export async function resolve(specifier, context, next) {
  if (specifier === "pg" || specifier.startsWith("pg/") || specifier.startsWith("@nats-io/")) {
    const e = new Error(\`Cannot find package '\${specifier}' imported from \${context.parentURL}\`);
    e.code = "ERR_MODULE_NOT_FOUND";
    throw e;
  }
  return next(specifier, context);
}
`;

const dir = tempDir("querymask-no-cluster-");
writeFileSync(join(dir, "hooks.mjs"), HOOKS);
writeFileSync(
  join(dir, "register.mjs"),
  'import { register } from "node:module";\nregister("./hooks.mjs", import.meta.url);\n',
);
const LOADER = ["--import", pathToFileURL(join(dir, "register.mjs")).href, "--import", "tsx"];
const MAIN = join(process.cwd(), "src", "cli", "main.ts");
const cli = (...args: string[]): SpawnSyncReturns<string> =>
  spawnSync(process.execPath, [...LOADER, MAIN, ...args], { encoding: "utf8", timeout: 120_000 });

const manifest = JSON.parse(readFileSync("package.json", "utf8")) as {
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};
const install = (names: readonly string[]) =>
  `npm install ${names.map((n) => `${n}@"${manifest.peerDependencies[n]}"`).join(" ")}`;

const log = join(dir, "log.tsv");
writeFileSync(
  log,
  "AnonID\tQuery\tQueryTime\tItemRank\tClickURL\n" +
    Array.from(
      { length: 40 },
      (_, i) => `${i % 7}\tcheap flights ${i % 3}\t2006-03-01 07:${String(10 + i).padStart(2, "0")}:00\t\t`,
    ).join("\n") +
    "\n",
);

test("the cluster's clients are optional peers, not dependencies", () => {
  for (const name of [...NATS_PACKAGES, "pg"]) {
    assert.equal(manifest.dependencies[name], undefined, name);
    assert.ok(manifest.peerDependencies[name], name);
    assert.equal(manifest.peerDependenciesMeta[name]?.optional, true, name);
  }
});

test("without them, cluster and serve --cluster name every package to install in one line, exit 2", () => {
  const run = cli("cluster", "run", log, "-o", join(dir, "never.tsv"), "-q");
  assert.equal(run.status, 2, run.stderr);
  assert.equal(
    run.stderr,
    `querymask: querymask cluster (NATS JetStream and PostgreSQL) needs @nats-io/jetstream, @nats-io/kv, @nats-io/transport-node and pg, which are not installed with querymask: ${install([...NATS_PACKAGES, "pg"])}\n`,
  );
  const serve = cli("serve", "--cluster", "--port", "0", "-q");
  assert.equal(serve.status, 2, serve.stderr);
  assert.equal(
    serve.stderr,
    `querymask: serve --cluster (the cluster's message bus) needs @nats-io/jetstream, @nats-io/kv and @nats-io/transport-node, which are not installed with querymask: ${install(NATS_PACKAGES)}\n`,
  );
});

test("without them, cluster's help and cluster run's help print (the clients load only to run)", () => {
  for (const [args, usage] of [
    [["cluster", "--help"], /^Usage: querymask cluster \[options\] \[command\]/],
    [["cluster", "run", "--help"], /^Usage: querymask cluster run \[options\] <log\.\.\.>/],
    [["cluster", "worker", "batch", "--help"], /^Usage: querymask cluster worker batch \[options\]/],
  ] as const) {
    const r = cli(...args);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, usage);
    assert.equal(r.stderr, "");
  }
});

test("without them, anonymize and the library API work", () => {
  const out = join(dir, "swap.tsv");
  const a = cli("anonymize", "--method", "swap", "--k", "2", log, "-o", out, "-q", "--json");
  assert.equal(a.status, 0, a.stderr);
  assert.ok(readFileSync(out, "utf8").startsWith("AnonID\t"));
  const api = spawnSync(
    process.execPath,
    [
      ...LOADER,
      "--input-type=module",
      "-e",
      `const q = await import(${JSON.stringify(pathToFileURL(join(process.cwd(), "src", "index.ts")).href)});
       const r = await q.anonymize(q.generateLog({ seed: 1, users: 20 }), { method: "swap", params: { k: 2 }, seed: 3 });
       console.log(r.log.records.length > 0 ? "ok" : "empty");`,
    ],
    { encoding: "utf8", timeout: 120_000 },
  );
  assert.equal(api.status, 0, api.stderr);
  assert.equal(api.stdout.trim(), "ok");
});

test("without them, serve runs its embedded pipeline: it answers, takes a batch and stops on SIGTERM", {
  timeout: 180_000,
}, async () => {
  const child = spawn(
    process.execPath,
    [...LOADER, MAIN, "serve", "--port", "0", "--json", "-q", "--k", "2"],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout!.on("data", (d: Buffer) => {
        out += d.toString();
        const line = out.split("\n").find((l) => l.startsWith("{"));
        if (line) resolve((JSON.parse(line) as { url: string }).url);
      });
      child.on("exit", (code) => reject(new Error(`serve exited ${code} before listening: ${stderr}`)));
    });
    assert.equal((await fetch(`${url}/healthz`)).status, 200);
    const res = await fetch(`${url}/ingest`, {
      method: "POST",
      body: `${JSON.stringify({ user: "1", query: "cheap flights", time: "2006-03-01 07:33:28" })}\n`,
    });
    assert.equal(res.status, 200, await res.text());
  } finally {
    child.kill("SIGTERM");
  }
  assert.equal(await exited, 0, stderr);
});

test("requirePeers names every missing package and passes any other failure on", async () => {
  const notFound = (name: string) =>
    Object.assign(new Error(`Cannot find package '${name}' imported from /x.js`), {
      code: "ERR_MODULE_NOT_FOUND",
    });
  const load = async (name: string) => {
    if (name !== "@nats-io/kv") throw notFound(name);
  };
  await assert.rejects(requirePeers([...NATS_PACKAGES, "pg"], "the cluster", load), (e: unknown) => {
    assert.ok(e instanceof MissingPackages);
    assert.deepEqual(e.packages, ["@nats-io/jetstream", "@nats-io/transport-node", "pg"]);
    assert.equal(
      missingPackageMessage(e),
      `the cluster needs @nats-io/jetstream, @nats-io/transport-node and pg, which are not installed with querymask: ${install(["@nats-io/jetstream", "@nats-io/transport-node", "pg"])}`,
    );
    return true;
  });
  await requirePeers(NATS_PACKAGES, "the cluster", async () => {});
  // A package that is there but fails to load, or one that misses a package of its own: not ours to name.
  await assert.rejects(
    requirePeers(["pg"], "the cluster", async () => {
      throw new SyntaxError("Unexpected token");
    }),
    SyntaxError,
  );
  await assert.rejects(
    requirePeers(["pg"], "the cluster", async () => {
      throw notFound("pg-types");
    }),
    (e: unknown) => !(e instanceof MissingPackages),
  );
  // A bare import of one NATS package that fails names the three: one install brings the bus.
  assert.match(
    missingPackageMessage(notFound("@nats-io/kv")) ?? "",
    /^the cluster's message bus \(cluster, serve --cluster\) needs @nats-io\/jetstream, @nats-io\/kv and @nats-io\/transport-node, which are not installed/,
  );
});
