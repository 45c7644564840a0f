import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const CLI = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url));

/** Run the CLI in a child process (its output must not mix with the test runner's); returns the exit code. */
function run(args: string[]): number {
  const r = spawnSync(process.execPath, ["--import", "tsx", CLI, ...args], { encoding: "utf8" });
  return r.status ?? -1;
}

const HEADER = "AnonID\tQuery\tQueryTime\tItemRank\tClickURL\n";
const row = (user: string, query: string, minute: number) =>
  `${user}\t${query}\t2006-03-01 10:${String(minute).padStart(2, "0")}:00\t\t\n`;

describe("querymask check-km", () => {
  let dir = "";
  let log = "";
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "km-cli-"));
    log = join(dir, "log.tsv");
    await writeFile(
      log,
      HEADER +
        row("1", "cheap flights", 1) +
        row("2", "cheap flights", 2) +
        row("3", "cheap flights", 3) +
        row("3", "secret hideout", 4),
    );
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("exits 1 on a log that is not (k,m)-anonymous and 0 on km's output", async () => {
    assert.equal(run(["check-km", "--k", "2", "--m", "2", "-q", log]), 1);
    const out = join(dir, "out.tsv");
    const code = run(["anonymize", "--method", "km", "--k", "2", "--m", "2", "-q", log, "-o", out]);
    assert.equal(code, 0);
    assert.doesNotMatch(await readFile(out, "utf8"), /secret|hideout/);
    assert.equal(run(["check-km", "--k", "2", "--m", "2", "-q", out]), 0);
  });

  it("exits 2 on bad parameters or a missing log", async () => {
    assert.equal(run(["check-km", "--k", "1", "--m", "2", "-q", log]), 2);
    assert.equal(run(["check-km", "--k", "2", "--m", "0", "-q", log]), 2);
    assert.equal(run(["check-km", "--k", "2", "--m", "1", "-q", join(dir, "missing.tsv")]), 2);
  });
});
