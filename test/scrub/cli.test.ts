/**
 * `querymask scrub`: writes the log in its own format with identifiers dropped or tagged, prints counts, and
 * rejects unknown identifier types with exit code 2.
 */
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { main } from "../../src/cli/main.ts";

const dir = mkdtempSync(join(tmpdir(), "querymask-scrub-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const cli = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url));

const LOG = [
  "AnonID\tQuery\tQueryTime\tItemRank\tClickURL",
  "1\tcheap flights\t2006-03-01 07:33:28\t\t",
  "1\tcall 555-123-4567 now\t2006-03-01 07:40:00\t\t",
  "2\tjsmith@aol.com\t2006-03-02 10:00:00\t\t",
  "2\tjohn baker genealogy\t2006-03-02 10:05:00\t1\thttp://www.ancestry.com",
].join("\n");

function spawn(args: string[]): string {
  return execFileSync(process.execPath, ["--import", "tsx", cli, "scrub", "-q", ...args], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
}

describe("querymask scrub", () => {
  const input = join(dir, "in.tsv");
  writeFileSync(input, `${LOG}\n`);

  test("drop mode writes the AOL layout without identifiers and counts per type", () => {
    const out = join(dir, "drop.tsv");
    const summary = JSON.parse(spawn([input, "-o", out, "--json"]));
    assert.equal(summary.records, 4);
    assert.equal(summary.removed, 1);
    assert.equal(summary.spans.phone, 1);
    assert.equal(summary.spans.email, 1);
    assert.equal(summary.spans.person_name, 1);
    const lines = readFileSync(out, "utf8").trim().split("\n");
    assert.equal(lines[0], "AnonID\tQuery\tQueryTime\tItemRank\tClickURL");
    assert.deepEqual(
      lines.slice(1).map((l) => l.split("\t")[1]),
      ["cheap flights", "call now", "genealogy"],
    );
  });

  test("tag mode replaces identifiers with tags", () => {
    const out = join(dir, "tag.tsv");
    spawn([input, "-o", out, "--mode", "tag"]);
    const queries = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => l.split("\t")[1]);
    assert.deepEqual(queries, ["cheap flights", "call [PHONE] now", "[EMAIL]", "[PERSON] genealogy"]);
  });

  test("an unknown --types entry is a usage error (exit 2)", async () => {
    const errWrite = process.stderr.write.bind(process.stderr);
    process.stderr.write = (() => true) as typeof process.stderr.write;
    try {
      const code = await main([
        "node",
        "querymask",
        "scrub",
        input,
        "-o",
        join(dir, "x.tsv"),
        "--types",
        "shoe",
      ]);
      assert.equal(code, 2);
    } finally {
      process.stderr.write = errWrite;
      process.exitCode = undefined;
    }
  });

  test("--allow-list leaves its phrases in the queries and counts them; a bad list line is exit 2", () => {
    const list = join(dir, "allow.txt");
    writeFileSync(list, "# public figures\nJohn Baker\n");
    const out = join(dir, "allowed.tsv");
    const summary = JSON.parse(spawn([input, "-o", out, "--json", "--allow-list", list]));
    assert.equal(summary.allowed, 1);
    assert.equal(summary.spans.person_name, 0);
    assert.deepEqual(summary.allowList, { file: list, phrases: 1 });
    const queries = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => l.split("\t")[1]);
    assert.deepEqual(queries, ["cheap flights", "call now", "john baker genealogy"]);
    writeFileSync(list, "john baker\n***\n");
    const bad = spawnSync(
      process.execPath,
      ["--import", "tsx", cli, "scrub", "-q", input, "-o", join(dir, "b.tsv"), "--allow-list", list],
      { encoding: "utf8" },
    );
    assert.equal(bad.status, 2);
    assert.match(
      bad.stderr,
      new RegExp(`${list.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:2: an allow-list line needs a word`),
    );
  });

  test("an evaluation's weights (QUERYMASK_NAME_WEIGHTS) reach the CLI's scrubber; a bad file is exit 2", () => {
    const run = (weights: unknown) => {
      const file = join(dir, "weights.json");
      writeFileSync(file, JSON.stringify(weights));
      const out = join(dir, "w.tsv");
      const r = spawnSync(process.execPath, ["--import", "tsx", cli, "scrub", "-q", input, "-o", out], {
        encoding: "utf8",
        env: { ...process.env, QUERYMASK_NAME_WEIGHTS: file },
      });
      const queries =
        r.status === 0
          ? readFileSync(out, "utf8")
              .trim()
              .split("\n")
              .slice(1)
              .map((l) => l.split("\t")[1])
          : [];
      return { status: r.status, stderr: r.stderr, queries };
    };
    const bundled = JSON.parse(
      readFileSync(new URL("../../data/scrub/person-name.json", import.meta.url), "utf8"),
    ) as { weights: Record<string, number> };
    assert.ok(run(bundled).queries.includes("genealogy"));
    // a threshold no name reaches without a context, and a context that counts nothing, keep the name: the
    // variable's weights are the ones applied
    const high = run({
      weights: { ...bundled.weights, threshold: 1, manyUsersShift: 0, personalContext: 0, privateCue: 0 },
    });
    assert.ok(high.queries.includes("john baker genealogy"), high.stderr);
    const bad = run({ weights: { threshold: 0.6 } });
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /weights\.json \(QUERYMASK_NAME_WEIGHTS\): weight privateCue must be a number/);
    assert.doesNotMatch(bad.stderr, /\n\s+at /);
  });
});
