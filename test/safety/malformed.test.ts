/**
 * The malformed-input matrix: every command that reads a log, strict and `--lenient`, over bad times, CRLF, a
 * byte-order mark, invalid UTF-8, NUL bytes, a carriage return inside a field, a 1 MB line, an extra tab, three
 * columns, empty queries, an empty file, a header alone, truncated and fake gzip, negative ranks and no header —
 * and the HTTP service over the same bodies. What must hold for every cell:
 *
 * - the exit code is 0, 1 (a check that failed: audit, check-km) or 2, and never with a stack trace;
 * - strict mode refuses a file with a bad line with exit 2 and `file:line: reason`, and accepts a good one;
 * - lenient mode goes on, says how many lines it set aside (the count the reject file holds), and never
 *   drops one silently;
 * - the input is left as it was;
 * - `serve` answers a body as the file reader reads the file: 400 naming the same line and reason, or 200.
 *
 * Each command runs over every input in one process (matrix-child.ts), so the classifier loads once per command;
 * the inputs are generated here.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { EmbeddedRuntime } from "../../src/service/runtime.ts";
import { startService } from "../../src/service/server.ts";
import { tempDir } from "../helpers/tmp.ts";
import { CASES, commands } from "./matrix-cases.ts";

const dir = tempDir("querymask-matrix-");
for (const c of CASES) writeFileSync(join(dir, c.file), c.bytes);

for (const cmd of commands(dir)) {
  test(`malformed-input matrix: ${cmd.name}`, { timeout: 300_000 }, () => {
    const child = spawnSync(
      process.execPath,
      ["--import", "tsx", new URL("./matrix-child.ts", import.meta.url).pathname, dir, cmd.name],
      { encoding: "utf8", maxBuffer: 1 << 26 },
    );
    assert.equal(child.status, 0, child.stderr);
    const runs = JSON.parse(child.stdout) as {
      case: string;
      lenient: boolean;
      out: string;
      code: number;
      err: string;
    }[];
    assert.equal(runs.length, 2 * CASES.length);
    const problems: string[] = [];
    for (const r of runs) {
      const c = CASES.find((x) => x.name === r.case)!;
      const input = join(dir, c.file);
      const where = `${cmd.name} ${r.lenient ? "--lenient" : "strict"} on ${c.name} (exit ${r.code}): ${r.err.trim()}`;
      const ok = r.code === 0 || (cmd.verdict === true && r.code === 1);
      if (/\n\s+at /.test(r.err)) problems.push(`${where}: a stack trace`);
      if (!readFileSync(input).equals(c.bytes)) problems.push(`${where}: the input changed`);
      const refusedLikeReader = (reason: RegExp, line?: number) => {
        // A problem of the whole file (gzip data cut short) may be found at a line: either way it names the file.
        const head = `querymask: ${input}:${line === undefined ? "" : `${line}:`}`;
        const named =
          r.err.startsWith(head) && (line !== undefined || /^ |^\d+: /.test(r.err.slice(head.length)));
        return r.code === 2 && named && reason.test(r.err) && r.err.trim().split("\n").length === 1;
      };
      if (!r.lenient || c.rejects === undefined) {
        if (c.bad === undefined ? !ok : !refusedLikeReader(c.bad.reason, c.bad.line)) problems.push(where);
        continue;
      }
      // Lenient: goes on, and counts what it set aside in the reject file.
      if (!ok) {
        problems.push(where);
        continue;
      }
      const said = /(\d+) bad lines set aside/.exec(r.err);
      const count = said ? Number(said[1]) : 0;
      if (count !== c.rejects) problems.push(`${where}: said ${count} bad lines, expected ${c.rejects}`);
      const rejects = join(r.out, "rejects.PRIVATE.tsv");
      const held = readdirSync(r.out).includes("rejects.PRIVATE.tsv")
        ? readFileSync(rejects, "utf8").split("\n").length - 2
        : 0;
      if (held !== c.rejects) problems.push(`${where}: the reject file holds ${held}, expected ${c.rejects}`);
    }
    assert.deepEqual(problems, []);
  });
}

test("malformed-input matrix: serve answers each body as the file reader reads the file", async () => {
  const svc = await startService(
    await EmbeddedRuntime.create({ partitions: 1, method: "swap", params: {}, seed: 1 }),
    {
      port: 0,
    },
  );
  try {
    const problems: string[] = [];
    for (const c of CASES) {
      if (c.file.endsWith(".gz")) continue; // a request body is text, not a file
      const res = await fetch(`${svc.url}/ingest`, {
        method: "POST",
        body: c.bytes,
        headers: { "content-type": "text/tab-separated-values" },
      });
      const body = (await res.json()) as { line?: number; reason?: string };
      const want = c.bad === undefined || c.bad.line === undefined ? 200 : 400;
      if (c.name === "empty file" && res.status === 200) continue; // an empty request is an empty batch
      if (res.status !== want) problems.push(`${c.name}: ${res.status} ${JSON.stringify(body)}`);
      // The reader counts the header as line 1, as the service does.
      else if (want === 400 && (body.line !== c.bad!.line || !c.bad!.reason.test(body.reason ?? "")))
        problems.push(`${c.name}: ${JSON.stringify(body)}`);
    }
    assert.deepEqual(problems, []);
  } finally {
    await svc.shutdown();
  }
});
