/**
 * `querymask classify`: streams the log through the classifier, writes every record (AOL layout with the
 * Category and Unit columns), counts query events per top level, and sets bad lines aside in lenient mode.
 */
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { LOG_CONTEXT } from "../../src/classify/log-context.ts";

const dir = mkdtempSync(join(tmpdir(), "querymask-classify-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const cli = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url));
const HEADER = "AnonID\tQuery\tQueryTime\tItemRank\tClickURL";

const args = (rest: string[]) => ["--import", "tsx", cli, "classify", "-q", ...rest];
/** `querymask audit` of a swap release (k = 3) against the log it was made from. */
const auditSwap = (original: string, released: string, extra: readonly string[]) =>
  spawnSync(
    process.execPath,
    [
      "--import",
      "tsx",
      cli,
      "audit",
      "-m",
      "swap",
      "--k",
      "3",
      "-q",
      "--original",
      original,
      "--released",
      released,
      ...extra,
    ],
    { encoding: "utf8" },
  );

describe("querymask classify", () => {
  test("every record is written in order, classified, with events counted once (click rows included)", () => {
    const input = join(dir, "in.tsv");
    // 20,001 rows: more than one read batch (8,192 rows), and the lone first row makes the search and click rows
    // of one event straddle each batch boundary: it must still count once.
    const queries = ["european soccer barcelona players", "cheap flights", "xqzvbnw", "john baker genealogy"];
    const rows = [HEADER, "9\tweather forecast\t2006-02-28 23:59:59\t\t"];
    for (let i = 0; i < 10_000; i++) {
      const q = queries[i % queries.length]!;
      const t = `2006-03-01 ${String(Math.floor(i / 3600) % 24).padStart(2, "0")}:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}`;
      // Each query event is a search row and a click row with the same user, query and time.
      rows.push(`${i % 7}\t${q}\t${t}\t\t`, `${i % 7}\t${q}\t${t}\t1\thttp://www.example.com`);
    }
    writeFileSync(input, `${rows.join("\n")}\n`);
    const out = join(dir, "out.tsv");
    const summary = JSON.parse(
      execFileSync(process.execPath, args([input, "-o", out, "--json"]), { encoding: "utf8" }),
    );
    assert.equal(summary.rows, 20_001);
    assert.equal(summary.counts.events, 10_001);
    assert.equal(summary.counts.unclassified, 2_500);
    assert.equal(summary.counts.Sports, 2_500);
    assert.equal(summary.counts.scrubbed, 2_500);
    assert.equal(summary.coverage, 1 - 2_500 / 10_001);
    const lines = readFileSync(out, "utf8").trim().split("\n");
    assert.equal(lines.length, 20_002);
    assert.equal(lines[0], `${HEADER}\tCategory\tUnit`);
    const first = lines[2]!.split("\t");
    assert.deepEqual(
      [first[1], first[5]!.split("/")[1], first[6]],
      ["european soccer barcelona players", "Sports", "european soccer"],
    );
    // The scrubbed text is what is released: the private person's name is gone.
    assert.equal(lines[8]!.split("\t")[1], "genealogy");
    assert.deepEqual(
      lines.slice(1).map((l) => l.split("\t")[0]),
      rows.slice(1).map((l) => l.split("\t")[0]),
    );
  });

  test("events without query text (empty, AOL's '-') are counted among the unclassified and named", () => {
    const input = join(dir, "no-text.tsv");
    const rows = [
      "1\t-\t2006-03-01 07:00:00\t\t",
      "1\t-\t2006-03-01 07:00:05\t\t",
      "2\t\t2006-03-01 07:01:00\t\t",
      "3\tcheap flights\t2006-03-01 07:02:00\t\t",
      "3\txqzvbnw\t2006-03-01 07:03:00\t\t",
    ];
    writeFileSync(input, `${HEADER}\n${rows.join("\n")}\n`);
    const out = join(dir, "no-text-out.tsv");
    const summary = JSON.parse(
      execFileSync(process.execPath, args([input, "-o", out, "--json"]), { encoding: "utf8" }),
    );
    assert.equal(summary.counts.events, 5);
    assert.equal(summary.noQueryText, 3);
    assert.equal(summary.counts.unclassified, 4, "the three without text and the gibberish");
    const table = execFileSync(process.execPath, ["--import", "tsx", cli, "classify", input, "-o", out], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    assert.equal(summary.textCoverage, 0.5);
    assert.match(
      table,
      /coverage\s+20\.00% \(4 unclassified, 3 of them with no query text; 50\.00% of the events with text\)/,
    );
  });

  test("--threads 2 writes the same bytes and prints the same summary as one thread", () => {
    const input = fileURLToPath(new URL("../../data/excite/excite-small.log", import.meta.url));
    const run = (threads: string) => {
      const out = join(dir, `threads-${threads}.tsv`);
      const summary = JSON.parse(
        execFileSync(process.execPath, args([input, "-o", out, "--json", "--threads", threads]), {
          encoding: "utf8",
        }),
      );
      delete summary.out;
      return { summary, bytes: readFileSync(out) };
    };
    const one = run("1");
    const two = run("2");
    assert.equal(one.summary.rows, 4501);
    assert.deepEqual(two.summary, one.summary);
    assert.ok(two.bytes.equals(one.bytes));
  });

  test("a bad line stops a strict run naming file and line; lenient mode sets it aside and counts it", () => {
    const input = join(dir, "bad.tsv");
    writeFileSync(
      input,
      `${HEADER}\n1\tcheap flights\t2006-03-01 07:33:28\t\t\n1\tno time here\tnot a time\t\t\n`,
    );
    const out = join(dir, "bad-out.tsv");
    const strict = spawnSync(process.execPath, args([input, "-o", out]), { encoding: "utf8" });
    assert.notEqual(strict.status, 0);
    assert.match(strict.stderr, new RegExp(`${input.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:3`));
    const lenient = JSON.parse(
      execFileSync(process.execPath, args([input, "-o", out, "--lenient", "--json"]), { encoding: "utf8" }),
    );
    assert.equal(lenient.rows, 1);
    assert.equal(lenient.rejected, 1);
    assert.match(readFileSync(`${out}.rejects.PRIVATE.tsv`, "utf8"), /no time here/);
  });
});

describe("querymask kb train", () => {
  const train = (rest: string[]) =>
    spawnSync(process.execPath, ["--import", "tsx", cli, "kb", "train", ...rest], { encoding: "utf8" });

  test("writes a model and its cross-validated figures; bad input and usage exit 2", () => {
    const labels = join(dir, "labels.tsv");
    const rows = ["id\tquery\tlabel"];
    const made: [string, string][] = [
      ["soccer ball", "Sports"],
      ["tennis racket", "Sports"],
      ["golf clubs", "Sports"],
      ["flu symptoms", "Health"],
      ["back pain", "Health"],
      ["allergy medicine", "Health"],
    ];
    made.forEach(([q, l], i) => {
      rows.push(`${i}\t${q}\t${l}`);
    });
    writeFileSync(labels, `${rows.join("\n")}\n`);
    const out = join(dir, "model.json");
    // Self-training on a made-up unlabelled log.
    const pool = join(dir, "pool.tsv");
    writeFileSync(
      pool,
      "AnonID\tQuery\tQueryTime\tItemRank\tClickURL\n1\tgolf balls\t2006-03-01 07:00:00\t\t\n2\tsoccer ball\t2006-03-01 07:00:00\t\t\n",
    );
    const ok = train([labels, "-o", out, "--folds", "2", "--json", "--pool", pool]);
    assert.equal(ok.status, 0, ok.stderr);
    const summary = JSON.parse(ok.stdout);
    assert.equal(summary.examples, 6);
    assert.equal(summary.cv.folds.length, 2);
    assert.match(
      ok.stderr,
      /fold 1 of 2: \d+\.\d\d% .*\nfold 2 of 2: .*\nfitting the model on all 6 labelled queries/,
    );
    const file = JSON.parse(readFileSync(out, "utf8"));
    assert.equal(file.format, "querymask-classifier-model");
    assert.equal(file.trainedOn.options.selfTraining.pool, 1, "the labelled query is left out of the pool");
    assert.deepEqual(file.trainedOn.options.selfTraining.context, { threshold: 0.7, weight: 0.5, rounds: 5 });
    const twoFits = train([labels, "-o", out, "--folds", "0", "--pool", pool, "--no-context-labels"]);
    assert.equal(twoFits.status, 0, twoFits.stderr);
    assert.equal(JSON.parse(readFileSync(out, "utf8")).trainedOn.options.selfTraining.context, undefined);
    const plain = train([labels, "-o", out, "--folds", "0"]);
    assert.equal(plain.status, 0, plain.stderr);
    assert.equal(JSON.parse(readFileSync(out, "utf8")).trainedOn.options.selfTraining, undefined);
    const noPool = train([labels, "-o", out, "--pool", join(dir, "missing.tsv")]);
    assert.equal(noPool.status, 2);
    assert.match(noPool.stderr, /missing\.tsv: no such file/);
    const badFolds = train([labels, "-o", out, "--folds", "1"]);
    assert.equal(badFolds.status, 2);
    assert.match(badFolds.stderr, /--folds/);
    writeFileSync(labels, "id\tquery\tlabel\n1\tsoccer\tCooking\n");
    const badLabel = train([labels, "-o", out]);
    assert.equal(badLabel.status, 2);
    assert.match(badLabel.stderr, /labels\.tsv:2: unknown label Cooking/);
    const same = train([labels, "-o", labels]);
    assert.equal(same.status, 2);
    assert.match(same.stderr, /overwrite/);
  });

  test("--context: the same rows, each query text one category, moved events counted, the library's answers, on threads too; refused where it cannot run", async () => {
    const input = join(dir, "context-in.tsv");
    execFileSync(process.execPath, [
      "--import",
      "tsx",
      cli,
      "generate",
      "-q",
      "--users",
      "40",
      "--rows",
      "3000",
      "--seed",
      "7",
      "-o",
      input,
    ]);
    const plainOut = join(dir, "context-plain.tsv");
    const out = join(dir, "context-out.tsv");
    execFileSync(process.execPath, args([input, "-o", plainOut]));
    const summary = JSON.parse(
      execFileSync(process.execPath, args([input, "-o", out, "--json", "--context", "clicks,users"]), {
        encoding: "utf8",
      }),
    );
    const read = (f: string) =>
      readFileSync(f, "utf8")
        .trim()
        .split("\n")
        .slice(1)
        .map((l) => l.split("\t"));
    const plain = read(plainOut);
    const rows = read(out);
    assert.equal(rows.length, plain.length);
    assert.equal(summary.rows, rows.length);
    const raw = read(input);
    const categoryOf = new Map<string, string>(); // by the query as logged (the output's is scrubbed)
    let moved = 0;
    rows.forEach((r, i) => {
      const p = plain[i]!;
      assert.deepEqual(
        r.slice(0, 5),
        p.slice(0, 5),
        "every column but Category and Unit as without the context",
      );
      const cols = `${r[5]}\t${r[6]}`;
      assert.equal(categoryOf.get(raw[i]![1]!) ?? cols, cols, "one category per query text");
      categoryOf.set(raw[i]![1]!, cols);
      // A query event is its first row (the next rows with the same user, query and time are its clicks).
      const prev = rows[i - 1];
      const first = prev === undefined || prev[0] !== r[0] || prev[1] !== r[1] || prev[2] !== r[2];
      if (first && r[5]!.split("/")[1] !== p[5]!.split("/")[1]) moved++;
    });
    assert.deepEqual(summary.context.signals, ["clicks", "users"]);
    assert.equal(summary.context.minutes, 120);
    assert.equal(summary.context.rounds, LOG_CONTEXT.rounds);
    assert.equal(summary.context.eventsChanged, moved);
    assert.ok(moved > 0, "the generated users' context moves some events");
    // The classified log goes on to swap, whose release passes its audit against it.
    const swapped = join(dir, "context-swap.tsv");
    const swapSummary = join(dir, "context-swap.json");
    const cliArgs = (rest: string[]) => ["--import", "tsx", cli, ...rest];
    writeFileSync(
      swapSummary,
      execFileSync(
        process.execPath,
        cliArgs(["anonymize", "--method", "swap", "--k", "3", "-q", "--json", out, "-o", swapped]),
        { encoding: "utf8" },
      ),
    );
    const audit = auditSwap(out, swapped, ["--summary", swapSummary]);
    assert.equal(audit.status, 0, audit.stdout + audit.stderr);
    assert.match(audit.stdout, /release passes the audit/);
    // On two threads (they assess the distinct queries), the same bytes.
    const threaded = join(dir, "context-threads.tsv");
    execFileSync(
      process.execPath,
      args([input, "-o", threaded, "--context", "clicks,users", "--threads", "2"]),
    );
    assert.equal(readFileSync(threaded, "utf8"), readFileSync(out, "utf8"));
    // The library's classify (a log held in memory) gives the command's answers.
    const { classify } = await import("../../src/api/text.ts");
    const { loadLog } = await import("../../src/log/read.ts");
    const inMemory = await classify(await loadLog([input]), { context: ["clicks", "users"] });
    assert.deepEqual(
      inMemory.context,
      summary.context && {
        queriesChanged: summary.context.queriesChanged,
        eventsChanged: summary.context.eventsChanged,
      },
    );
    assert.deepEqual(
      inMemory.log.records.map((r) => `${r.category}\t${r.unit}`),
      rows.map((r) => `${r[5]}\t${r[6]}`),
    );
    const refused = (extra: string[], message: RegExp) => {
      const r = spawnSync(process.execPath, args([input, "-o", join(dir, "x.tsv"), ...extra]), {
        encoding: "utf8",
      });
      assert.equal(r.status, 2, r.stderr);
      assert.match(r.stderr, message);
    };
    refused(["--context", "users", "--no-model"], /needs the model/);
    refused(["--context", "sites"], /"sites" is not a context signal/);
    refused(["--context", "clicks", "--context-rounds", "0"], /--context-rounds/);
  });

  test("--allow-list: its names are classified and released, on one thread or two, and the audit needs the list", () => {
    // An invented public figure the bundled lists lack: the scrubber would drop him as a private person.
    const list = join(dir, "public-figures.txt");
    // (filed under Sports: the list says who he is)
    writeFileSync(list, "# athletes\ndale brickner\tSports\n");
    const input = join(dir, "allow-in.tsv");
    const rows = [HEADER];
    // (his obituary too: a name in a query about a person is an identifier to the audit's own detector unless listed)
    const queries = [
      "dale brickner",
      "john baker genealogy",
      "cheap flights",
      "european soccer barcelona players",
      "dale brickner obituary",
    ];
    for (let u = 0; u < 12; u++)
      for (const [i, q] of queries.entries())
        rows.push(`${u}\t${q}\t2006-03-01 0${i}:${String(10 + u).padStart(2, "0")}:00\t\t`);
    writeFileSync(input, `${rows.join("\n")}\n`);
    const out = join(dir, "allow-out.tsv");
    const summary = JSON.parse(
      execFileSync(process.execPath, args([input, "-o", out, "--json", "--allow-list", list]), {
        encoding: "utf8",
      }),
    );
    assert.deepEqual(summary.allowList, { file: list, phrases: 1 });
    assert.equal(summary.counts.scrubbed, 12, "john baker is still a private person");
    const texts = new Set(
      readFileSync(out, "utf8")
        .trim()
        .split("\n")
        .slice(1)
        .map((l) => l.split("\t")[1]),
    );
    assert.ok(texts.has("dale brickner") && texts.has("genealogy") && !texts.has("john baker genealogy"));
    const filed = readFileSync(out, "utf8")
      .split("\n")
      .filter((l) => l.split("\t")[1] === "dale brickner")
      .map((l) => `${l.split("\t")[5]} ${l.split("\t")[6]}`);
    assert.deepEqual(new Set(filed), new Set(["Top/Sports dale brickner"]));
    const badList = join(dir, "bad-list.txt");
    writeFileSync(badList, "dale brickner\tNascar\n");
    const bad = spawnSync(
      process.execPath,
      args([input, "-o", join(dir, "bad.tsv"), "--allow-list", badList, "--threads", "2"]),
      {
        encoding: "utf8",
      },
    );
    assert.equal(bad.status, 2, bad.stderr);
    assert.match(bad.stderr, /bad-list\.txt:1: Nascar is not an ODP category/);
    const threaded = join(dir, "allow-threads.tsv");
    execFileSync(process.execPath, args([input, "-o", threaded, "--allow-list", list, "--threads", "2"]));
    assert.equal(readFileSync(threaded, "utf8"), readFileSync(out, "utf8"));
    const cliArgs = (rest: string[]) => ["--import", "tsx", cli, ...rest];
    const swapped = join(dir, "allow-swap.tsv");
    execFileSync(
      process.execPath,
      cliArgs(["anonymize", "--method", "swap", "--k", "3", "-q", out, "-o", swapped]),
    );
    assert.ok(readFileSync(swapped, "utf8").includes("\tdale brickner\t"), "the name is released");
    const audit = (extra: string[]) => auditSwap(out, swapped, extra);
    const without = audit([]);
    assert.equal(without.status, 1, without.stdout + without.stderr);
    assert.match(without.stdout, /identifiers[^\n]*FAIL/);
    const withList = audit(["--allow-list", list]);
    assert.equal(withList.status, 0, withList.stdout + withList.stderr);
    assert.match(withList.stdout, /allow list of 1 phrase\b/);
  });
});
