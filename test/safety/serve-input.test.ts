/**
 * The service takes only what the file reader takes, over NDJSON as over TSV: invalid UTF-8, a NUL (as a byte or
 * as \u0000), a 100 KB query, a time no log can hold (99999999999999: year 3170843) are each answered 400 with the
 * line and reason, nothing of the batch applied, so the released file stays readable by `querymask stats`. An
 * Idempotency-Key retried after a clean restart is a duplicate. A port in use is one line, exit 2.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { test } from "node:test";
import { EmbeddedRuntime } from "../../src/service/runtime.ts";
import { startService } from "../../src/service/server.ts";
import { tempDir } from "../helpers/tmp.ts";

const config = { partitions: 1, method: "swap", params: { k: 2 }, seed: 4 };
const line = (o: Record<string, unknown>) => JSON.stringify({ category: "Top/Arts", ...o });
const good = (i: number) => line({ user: `u${i % 5}`, query: `q${i % 7}`, time: 1_141_171_200 + 60 * i });

async function post(url: string, body: string | Buffer, key?: string) {
  const res = await fetch(`${url}/ingest`, {
    method: "POST",
    body,
    headers: { "content-type": "application/x-ndjson", ...(key ? { "idempotency-key": key } : {}) },
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

test("serve refuses over NDJSON what the file reader refuses; the released file reads back", async () => {
  const dir = tempDir("querymask-serve-input-");
  const released = join(dir, "released.ndjson");
  const state = join(dir, "state.json");
  const opts = { releasedPath: released, statePath: state };
  let svc = await startService(await EmbeddedRuntime.create(config, opts), { port: 0 });
  const hostile: [string, string | Buffer, RegExp][] = [
    [
      "invalid UTF-8",
      Buffer.concat([
        Buffer.from(`${good(1)}\n{"user":"u1","query":"caf`),
        Buffer.from([0xe9]),
        Buffer.from(`","time":1141171300,"category":"Top/Arts"}\n`),
      ]),
      /invalid UTF-8/,
    ],
    ["NUL byte", `${good(1)}\n{"user":"u1","query":"a\u0000b","time":1141171300}\n`, /NUL/],
    // JSON.stringify writes the NUL as \u0000.
    ["NUL escaped", `${good(1)}\n${line({ user: "u1", query: "a\u0000b", time: 1141171300 })}\n`, /NUL/],
    [
      "a 100 KB query",
      `${good(1)}\n${line({ user: "u1", query: "x".repeat(100_000), time: 1141171300 })}\n`,
      /longer than 65536 bytes/,
    ],
    [
      "year 3170843",
      `${good(1)}\n${line({ user: "u1", query: "q", time: 99_999_999_999_999 })}\n`,
      /outside the years 0000–9999/,
    ],
  ];
  try {
    let body = "";
    for (let i = 0; i < 60; i++) body += `${good(i)}\n`;
    assert.equal((await post(svc.url, body, "first")).status, 200);
    for (const [name, bad, reason] of hostile) {
      const r = await post(svc.url, bad);
      assert.equal(r.status, 400, `${name}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.line, 2, name);
      assert.match(String(r.body.reason), reason, name);
    }
    await svc.shutdown();
    // A clean restart keeps the keys: the retried batch is answered as the first time, applied once.
    const before = readFileSync(released, "utf8");
    svc = await startService(await EmbeddedRuntime.create(config, opts), { port: 0 });
    const again = await post(svc.url, body, "first");
    assert.equal(again.status, 200);
    assert.equal(again.body.duplicate, true);
    assert.equal(readFileSync(released, "utf8"), before, "nothing applied again");
    let more = "";
    for (let i = 60; i < 90; i++) more += `${good(i)}\n`;
    assert.equal((await post(svc.url, more, "second")).status, 200);
  } finally {
    await svc.shutdown();
  }
  const text = readFileSync(released, "utf8");
  assert.ok(text.split("\n").length > 50, "the service released the good batches");
  const stats = spawnSync(process.execPath, ["bin/querymask.js", "stats", released, "--json", "-q"], {
    encoding: "utf8",
  });
  assert.equal(stats.status, 0, stats.stderr);
  assert.equal((JSON.parse(stats.stdout) as { rows: number }).rows, text.trimEnd().split("\n").length);
  assert.ok(!text.includes("3170843") && !text.includes("\\u0000"));
});

test("serve on a port in use: one line naming the port, exit 2", async () => {
  const taken = createServer();
  await new Promise<void>((r) => taken.listen(0, "127.0.0.1", r));
  const port = (taken.address() as { port: number }).port;
  try {
    const r = spawnSync(process.execPath, ["bin/querymask.js", "serve", "--port", String(port), "-q"], {
      encoding: "utf8",
      timeout: 120_000,
    });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, new RegExp(`^querymask: .*${port}.*in use`));
    assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
  } finally {
    taken.close();
  }
});
