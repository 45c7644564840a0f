import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { createKnowledgeService } from "../../src/classify/service.ts";
import { loadLog } from "../../src/log/read.ts";
import { erola } from "../../src/methods/erola/index.ts";
import { mdav } from "../../src/methods/mdav/index.ts";
import type { Method } from "../../src/methods/method.ts";
import { silentProgress } from "../../src/util/progress.ts";
import { Rng } from "../../src/util/random.ts";
import { tempDir } from "../helpers/tmp.ts";

const CLI = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url));

const QUERIES = [
  "cheap flights to paris",
  "scuba diving lessons",
  "secondhand hatchback listings",
  "chocolate cake recipe",
  "mortgage rates",
  "college basketball scores",
  "flu symptoms in children",
  "wedding dresses",
  "knitting patterns",
  "dog training tips",
  "stock market news",
  "guitar chords",
];

/** Six users with four queries each, in the AOL layout. */
function writeLog(path: string): void {
  let text = "AnonID\tQuery\tQueryTime\tItemRank\tClickURL\n";
  for (let u = 0; u < 6; u++) {
    for (let q = 0; q < 4; q++) {
      const query = QUERIES[(u * 5 + q * 7) % QUERIES.length]!;
      text += `${100 + u}\t${query}\t2006-03-0${1 + q} 1${u}:00:00\t\t\n`;
    }
  }
  writeFileSync(path, text);
}

for (const method of [mdav, erola] as Method[]) {
  test(`querymask anonymize --method ${method.name} maps queries with the knowledge base, not the stand-in`, async () => {
    const dir = tempDir();
    const log = join(dir, "log.tsv");
    writeLog(log);
    const out = join(dir, "out.tsv");
    const r = spawnSync(
      process.execPath,
      [
        "--import",
        "tsx",
        CLI,
        "anonymize",
        "-q",
        "--method",
        method.name,
        "--k",
        "2",
        "--json",
        log,
        "-o",
        out,
      ],
      { encoding: "utf8" },
    );
    assert.equal(r.status, 0, r.stderr);
    const summary = JSON.parse(r.stdout);
    const input = await loadLog([log], { progress: silentProgress });
    const params = method.parse({ k: 2 });
    const run = (knowledge?: ReturnType<typeof createKnowledgeService>) =>
      method.anonymize(input, params, { rng: Rng.fromSeed(1), progress: silentProgress, knowledge });
    const withKb = await run(createKnowledgeService());
    const standIn = await run(undefined);
    const rows = (records: readonly { user: string; query: string }[]) =>
      records.map((x) => `${x.user} ${x.query}`);
    // The two mappers give different releases on this log (else the test could not tell them apart)…
    assert.notDeepEqual(rows(withKb.log!.records), rows(standIn.log!.records));
    // … and the CLI's is the knowledge base's.
    const released = await loadLog([out], { progress: silentProgress });
    assert.deepEqual(rows(released.records), rows(withKb.log!.records));
    const unmapped = "queries not mapped to ODP";
    if (method.name === "mdav") {
      assert.ok(withKb.counts[unmapped]! < standIn.counts[unmapped]!);
      assert.equal(summary[unmapped], withKb.counts[unmapped]);
    }
  });
}
