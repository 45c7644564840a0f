/**
 * `serve --state` under kill -9 at random points — while batches arrive, around checkpoints, during the replay
 * of a restart — checked against what the client was told: every batch answered 200 is in the release exactly
 * once, a batch whose answer was lost and that is retried under its Idempotency-Key is applied once, and after the
 * last (clean) stop the released file equals an uninterrupted run's and the profile database equals the profiles
 * of the released file. A key retried after a restart is answered as a duplicate.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { PartitionedStages } from "../../src/cluster/embedded.ts";
import { ndjsonCodec } from "../../src/log/formats/ndjson.ts";
import type { LogRecord } from "../../src/log/record.ts";
import { formatAolTime } from "../../src/log/time.ts";
import { Profiler } from "../../src/profile/profiler.ts";
import { SqliteProfileStore } from "../../src/profile/sqlite-store.ts";
import { parseBody } from "../../src/service/parse.ts";
import { Rng } from "../../src/util/random.ts";
import { tempDir } from "../helpers/tmp.ts";

const CONFIG = { partitions: 2, method: "swap", params: { k: 3 }, seed: 4 };
const CATS = ["Top/Arts/Movies", "Top/Sports/Soccer", "Top/Health/Fitness", "Top/Computers/Internet"];

/** `n` batches of a time-ordered classified stream from 60 users, as NDJSON request bodies. */
function bodies(n: number, size: number, seed: number): string[] {
  const rng = Rng.fromSeed(seed);
  let t = 1_141_171_200;
  const out: string[] = [];
  for (let b = 0; b < n; b++) {
    const lines: string[] = [];
    for (let i = 0; i < size; i++) {
      t += rng.int(20);
      const r = {
        user: `u${rng.int(60)}`,
        query: `q${rng.int(300)}`,
        time: formatAolTime(t),
        category: CATS[rng.int(4)],
      };
      lines.push(JSON.stringify(r));
    }
    out.push(`${lines.join("\n")}\n`);
  }
  return out;
}

interface Server {
  readonly child: ChildProcess;
  readonly exited: Promise<unknown>;
  url(): Promise<string | undefined>;
}

function start(dir: string, round: number): Server {
  const portFile = join(dir, `url.${round}`);
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      new URL("./serve-child.ts", import.meta.url).pathname,
      join(dir, "state.json"),
      join(dir, "released.ndjson"),
      join(dir, "profiles.sqlite"),
      portFile,
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve(signal ?? code)));
  let done = false;
  void exited.then(() => {
    done = true;
  });
  return {
    child,
    exited,
    async url() {
      for (;;) {
        if (done) {
          assert.equal(stderr, "", "the service failed on its own");
          return undefined;
        }
        const text = existsSync(portFile) ? readFileSync(portFile, "utf8") : "";
        if (/^http:\/\/127\.0\.0\.1:\d+$/.test(text)) return text;
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}

async function post(url: string, body: string, key: string): Promise<Record<string, unknown> | undefined> {
  try {
    const res = await fetch(`${url}/ingest`, {
      method: "POST",
      body,
      headers: { "content-type": "application/x-ndjson", "idempotency-key": key },
    });
    const answer = (await res.json()) as Record<string, unknown>;
    assert.equal(res.status, 200, JSON.stringify(answer));
    return answer;
  } catch (e) {
    if (e instanceof assert.AssertionError) throw e;
    return undefined; // the connection died with the server: the answer is lost
  }
}

test("serve --state: kill -9 at random points loses no answered batch and applies none twice", {
  timeout: 240_000,
}, async () => {
  const dir = tempDir("querymask-serve-crash-");
  const batches = bodies(150, 120, 9);
  const rng = Rng.fromSeed(2026);
  const answers = new Map<number, Record<string, unknown>>();
  let next = 0;
  let kills = 0;
  let killedMidStream = 0;
  let planned = 0; // rounds whose kill is set off by answered batches
  for (let round = 0; next < batches.length; round++) {
    const server = start(dir, round);
    // Most kills land while batches arrive; some while the service starts (its replay, its first checkpoint).
    // A kill while batches arrive is set off by what the client saw, not by a clock (on a loaded machine a
    // start can take longer than any fixed delay): once `after` batches of this round are answered, the kill
    // comes at a random instant of the next batch's time (as long as the last one took), so it lands before the
    // journal write, during the apply or a checkpoint, or after the answer was sent but before it was read.
    const last = round >= 14;
    const early = !last && rng.int(5) === 0;
    const after = 1 + rng.int(6);
    const spread = rng.float();
    if (!last && !early) planned++;
    const kill = (ms: number) =>
      setTimeout(() => {
        kills++;
        server.child.kill("SIGKILL");
      }, ms);
    let timer = early ? kill(rng.int(1500)) : undefined;
    const url = await server.url();
    const from = next;
    while (url !== undefined && next < batches.length) {
      const t0 = performance.now();
      const answer = await post(url, batches[next]!, `batch-${next}`);
      if (answer === undefined) break; // retried (same key) by the next round
      if (answers.has(next)) assert.fail(`batch ${next} answered twice`);
      answers.set(next, answer);
      next++;
      if (!last && !early && next - from === after)
        timer = kill(Math.floor(spread * (performance.now() - t0)));
    }
    if (next === batches.length && url !== undefined) {
      clearTimeout(timer);
      // A key answered before the restarts is a duplicate now: nothing is applied again.
      const again = await post(url, batches[0]!, "batch-0");
      assert.deepEqual(again, { ...answers.get(0), duplicate: true });
      server.child.kill("SIGTERM");
    }
    await server.exited;
    clearTimeout(timer);
    if (!last && next > from && next < batches.length) killedMidStream++;
  }
  assert.ok(
    planned >= 5 && killedMidStream >= planned,
    `killed ${kills} times, ${killedMidStream} while batches arrived (${planned} planned so)`,
  );

  // The uninterrupted run over the same batches, each once, in order.
  const whole = await PartitionedStages.create(CONFIG);
  const want: string[] = [];
  batches.forEach((b, i) => {
    const parsed = parseBody(Buffer.from(b), undefined);
    assert.ok(parsed.ok);
    const out = whole.push(parsed.records);
    assert.equal(answers.get(i)?.released, out.length, `batch ${i}: the answer counts what it released`);
    for (const r of out) want.push(ndjsonCodec.toLine(r, true));
  });
  const got = readFileSync(join(dir, "released.ndjson"), "utf8").split("\n").slice(0, -1);
  assert.ok(want.length > 3000, `${want.length} released`);
  assert.equal(got.length, want.length, "nothing released twice, nothing lost");
  assert.deepEqual(got, want);

  // The profile database holds exactly the released file's profiles.
  const fromFile = new SqliteProfileStore(":memory:");
  const profiler = new Profiler(fromFile, 1);
  profiler.update(got.map((l) => ndjsonCodec.parse(l, true) as LogRecord));
  profiler.flush();
  const db = new SqliteProfileStore(join(dir, "profiles.sqlite"));
  assert.deepEqual(db.rows(), fromFile.rows());
  db.close();
});
