/**
 * One pipeline, one release: for every registered method, on the bundled Excite sample and on a generated AOL
 * log, `querymask anonymize`, the library (`anonymize` in memory and `anonymizeFiles`) and the experiment
 * runner's combination release the same bytes for the same seed (dp with `noise: "seeded"`, the only way its
 * release is reproducible); a streaming method's release through `serve`'s runtime equals the CLI's on the
 * classified log. A path that prepares the input differently (scrubs where another classifies, applies a
 * cross-user rule another does not) or seeds the method differently breaks one of these equalities.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { anonymize, anonymizeFiles, type MethodName } from "../../src/api/methods.ts";
import { createKnowledgeService } from "../../src/classify/service.ts";
import { parseConfig } from "../../src/experiment/config.ts";
import { prepareInputs } from "../../src/experiment/input.ts";
import { releaseCombination } from "../../src/experiment/run-one.ts";
import { writeCountTable } from "../../src/log/count-table.ts";
import { loadLog } from "../../src/log/read.ts";
import type { LogRecord, QueryLog } from "../../src/log/record.ts";
import { formatAolTime } from "../../src/log/time.ts";
import { writeLog } from "../../src/log/write.ts";
import type { Release } from "../../src/methods/method.ts";
import { methods } from "../../src/methods/registry.ts";
import { prepareLog } from "../../src/pipeline/prepare.ts";
import { EmbeddedRuntime } from "../../src/service/runtime.ts";
import { startService } from "../../src/service/server.ts";
import { generateLog } from "../../src/synth/generate.ts";
import { silentProgress } from "../../src/util/progress.ts";
import { tempDir } from "../helpers/tmp.ts";

const SAMPLE = "data/excite/excite-small.log";
const SEED = 7;

/** Parameters that keep every method quick on these logs (and dp reproducible). */
const PARAMS: Record<string, Record<string, unknown>> = {
  dp: { noise: "seeded", epsilon: 5 },
  mdav: { workers: 0 },
  clientside: { degree: 4 },
  navarro: { sample: 3 },
};

/** The CLI flags for `params`. */
const flags = (params: Record<string, unknown>) =>
  Object.entries(params).flatMap(([k, v]) => [
    `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`,
    String(v),
  ]);

/** `querymask anonymize` of `file` into `out` (it must exit 0). */
function anonymizeCli(method: string, params: Record<string, unknown>, file: string, out: string): void {
  const r = spawnSync(
    process.execPath,
    [
      "bin/querymask.js",
      "anonymize",
      "-q",
      "--method",
      method,
      ...flags(params),
      "--seed",
      String(SEED),
      file,
      "-o",
      out,
    ],
    { encoding: "utf8" },
  );
  assert.equal(r.status, 0, r.stderr);
}

/** A release written as the CLI writes it: the log in the input's layout, or the count table. */
async function written(path: string, release: Release, input: QueryLog): Promise<string> {
  if (release.table) await writeCountTable(path, release.table);
  else await writeLog(path, { ...release.log!, classified: input.classified ?? false });
  return readFileSync(path, "utf8");
}

const dir = tempDir();
const generated = join(dir, "generated.tsv");
await writeLog(generated, generateLog({ users: 40, seed: 3 }));
const knowledge = createKnowledgeService(undefined, () => {});

describe("every method releases the same bytes through the CLI, the library and the experiment runner", () => {
  for (const [logName, file] of [
    ["the bundled sample", SAMPLE],
    ["a generated log", generated],
  ] as const) {
    for (const m of methods) {
      it(`${m.name} on ${logName}`, async () => {
        const params = PARAMS[m.name] ?? {};
        const tag = `${m.name}.${logName.replace(/ /g, "-")}`;
        const log = await loadLog([file], { progress: silentProgress });

        const byCli = join(dir, `${tag}.cli`);
        anonymizeCli(m.name, params, file, byCli);
        const expected = readFileSync(byCli, "utf8");

        const lib = await anonymize(log, { method: m.name as MethodName, params, seed: SEED, knowledge });
        assert.equal(await written(join(dir, `${tag}.lib`), lib, log), expected, "library anonymize");

        const files = join(dir, `${tag}.files`);
        await anonymizeFiles(file, files, { method: m.name as MethodName, params, seed: SEED, knowledge });
        assert.equal(readFileSync(files, "utf8"), expected, "library anonymizeFiles");

        const config = parseConfig({ log: file, seeds: [SEED], methods: [{ method: m.name, params }] });
        const { input } = await prepareInputs(config, log, knowledge, silentProgress);
        const { release } = await releaseCombination(input, config.combinations[0]!);
        assert.equal(await written(join(dir, `${tag}.runner`), release, log), expected, "experiment runner");
      });
    }
  }
});

describe("a streaming method's release through serve's runtime is the CLI's", () => {
  for (const m of methods.filter((x) => x.input.timeOrder)) {
    it(`${m.name}: serve (one partition) releases what the CLI releases, on the classified log`, async () => {
      // A live stream cannot know the whole log's single-user clicks: both are given the log classified.
      const log = (await prepareLog(await loadLog([generated]), "classified", { crossUser: true, knowledge }))
        .log;
      const classified = join(dir, `${m.name}.classified.tsv`);
      await writeLog(classified, log);
      // Nothing held is paired at the end of the stream, which a service never reaches.
      const params = { end: "suppress" };
      const byCli = join(dir, `${m.name}.serve.cli.tsv`);
      anonymizeCli(m.name, params, classified, byCli);
      const released = join(dir, `${m.name}.released.ndjson`);
      const runtime = await EmbeddedRuntime.create(
        { partitions: 1, method: m.name, params, seed: SEED },
        { releasedPath: released },
      );
      const svc = await startService(runtime, { port: 0 });
      try {
        const sorted = [...log.records].sort((a, b) => a.time - b.time);
        for (let i = 0; i < sorted.length; i += 200) {
          const body = `${sorted
            .slice(i, i + 200)
            .map(({ source: _s, ...r }) => JSON.stringify({ ...r, time: formatAolTime(r.time) }))
            .join("\n")}\n`;
          const res = await fetch(`${svc.url}/ingest`, {
            method: "POST",
            body,
            headers: { "content-type": "application/x-ndjson" },
          });
          assert.equal(res.status, 200, await res.text());
        }
      } finally {
        await svc.shutdown();
      }
      const viaServe = (await loadLog([released], { keepSource: false })).records;
      const viaCli = (await loadLog([byCli], { keepSource: false })).records;
      const row = (x: LogRecord) => [x.user, x.query, x.time, x.itemRank ?? null, x.clickUrl ?? null];
      // A service never reaches the end of its stream: the CLI's release is the service's, plus what the last event
      // (closed only by the end of the stream) sets off.
      assert.ok(viaServe.length > 0.9 * viaCli.length, `${viaServe.length} of ${viaCli.length} released`);
      assert.deepEqual(viaServe.map(row), viaCli.slice(0, viaServe.length).map(row));
    });
  }
});
