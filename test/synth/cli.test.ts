import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { main } from "../../src/cli/main.ts";
import { writeBatches } from "../../src/log/write.ts";
import { generateBatches } from "../../src/synth/generate.ts";

async function* toAsync<T>(items: Iterable<T>): AsyncGenerator<T> {
  yield* items;
}

const dir = mkdtempSync(join(tmpdir(), "querymask-generate-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const cli = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url));

/** Run the CLI as a separate process (stdout is the test runner's own channel in this one). */
function spawn(args: string[]): string {
  return execFileSync(process.execPath, ["--import", "tsx", cli, "generate", "-q", ...args], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
}

/** Run the CLI in this process, for usage errors (they print to stderr only); returns the exit code. */
async function runHere(args: string[]): Promise<number> {
  const errWrite = process.stderr.write.bind(process.stderr);
  process.stderr.write = (() => true) as typeof process.stderr.write;
  try {
    return await main(["node", "querymask", "generate", ...args]);
  } finally {
    process.stderr.write = errWrite;
    process.exitCode = undefined;
  }
}

describe("querymask generate", () => {
  test("two separate runs with the same seed write byte-identical files", () => {
    const files = ["a.tsv", "b.tsv"].map((f) => join(dir, f));
    for (const f of files) spawn(["--users", "300", "--seed", "42", "-o", f]);
    const [a, b] = files.map((f) => readFileSync(f));
    assert.ok(a!.length > 1000);
    assert.ok(a!.equals(b!));
    assert.ok(a!.toString("utf8").startsWith("AnonID\tQuery\tQueryTime\tItemRank\tClickURL\n"));
  });

  test("gzip output matches the library's stream; the JSON summary counts; the rows cap holds", async () => {
    const f = join(dir, "c.tsv.gz");
    const g = join(dir, "d.tsv.gz");
    const summary = JSON.parse(spawn(["--users", "200", "--rows", "5000", "--seed", "7", "--json", "-o", f]));
    const opts = { seed: 7, users: 200, rows: 5000, start: "2006-03-01", days: 92 };
    await writeBatches(g, "aol", toAsync(generateBatches(opts)));
    assert.equal(summary.rows, 5000);
    for (const k of ["users", "queryEvents", "clickRows", "nextPageRequests", "piiQueries"]) {
      assert.ok(Number.isInteger(summary[k]) && summary[k] > 0, k);
    }
    const text = gunzipSync(readFileSync(f)).toString("utf8");
    assert.equal(text.trimEnd().split("\n").length, 5001); // header + rows
    assert.ok(gunzipSync(readFileSync(g)).equals(gunzipSync(readFileSync(f))));
  });

  test("--rows alone sizes the users; --truth adds the category (ndjson by file name)", () => {
    const f = join(dir, "e.ndjson");
    spawn(["--rows", "3000", "--truth", "--seed", "1", "-o", f]);
    const lines = readFileSync(f, "utf8").trimEnd().split("\n");
    assert.equal(lines.length, 3000);
    const rec = JSON.parse(lines[0]!);
    assert.ok(typeof rec.category === "string" && rec.category.startsWith("Top/"));
  });

  test("usage errors exit 2", async () => {
    assert.equal(await runHere(["-o", join(dir, "x.tsv")]), 2);
    assert.equal(
      await runHere(["--users", "5", "--truth", "--format", "excite", "-o", join(dir, "y.log")]),
      2,
    );
    assert.equal(await runHere(["--users", "5", "--pii-share", "3", "-o", join(dir, "z.tsv")]), 2);
    assert.equal(await runHere(["--users", "5", "--start", "yesterday", "-o", join(dir, "w.tsv")]), 2);
  });
});
