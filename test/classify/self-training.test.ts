import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { BUNDLED_MODEL } from "../../src/classify/classifier.ts";
import { readLabelled, TOP_LEVELS } from "../../src/classify/labels.ts";
import type { Example } from "../../src/classify/model.ts";
import { LinearModel } from "../../src/classify/model.ts";
import {
  BUNDLED_SELF_TRAINING,
  CONTEXT_LABELS,
  clickLabels,
  contextLabelled,
  type PoolExamples,
  readPool,
  SELF_TRAINING,
} from "../../src/classify/self-training.ts";
import { trainFromLabels } from "../../src/classify/train.ts";
import { loadKnowledgeBase } from "../../src/knowledge/knowledge-base.ts";
import { writeLabels } from "../helpers/labels.ts";
import { tempDir } from "../helpers/tmp.ts";

const kb = await loadKnowledgeBase();
const dir = tempDir("qm-self-training-");
const labels = writeLabels(dir);

test("self-training: the pool leaves out labelled queries, and a word only fewer than 5 users typed gets no weight", async () => {
  // A made-up log (AOL layout): `qwzarp` typed by 5 users, `zorblax` by 4 (in two queries each, so both pass
  // the two-example minimum and only the user rule tells them apart).
  const lines = ["AnonID\tQuery\tQueryTime\tItemRank\tClickURL"];
  const at = (u: number, q: string) => `${u}\t${q}\t2006-03-01 07:00:00\t\t`;
  for (let u = 1; u <= 5; u++) lines.push(at(u, "qwzarp league"), at(u, "qwzarp scores"));
  for (let u = 1; u <= 4; u++) lines.push(at(10 + u, "zorblax  Symptoms"), at(10 + u, "zorblax pain"));
  lines.push(at(11, "zorblax symptoms"), at(12, "Soccer Ball"));
  const log = join(dir, "pool.tsv");
  writeFileSync(log, `${lines.join("\n")}\n`);
  const rows = readLabelled(labels);
  const pool = await readPool(
    log,
    rows.map((r) => r.query),
  );
  assert.deepEqual(
    [...pool.users.keys()].sort(),
    ["qwzarp league", "qwzarp scores", "zorblax pain", "zorblax symptoms"],
    "labelled query left out",
  );
  assert.equal(pool.users.get("zorblax symptoms")!.size, 4);
  const st = { threshold: 0, weight: 0.5, minUsers: 5 };
  const run = () => trainFromLabels(rows, { kb, folds: 0, embeddings: null, pool, selfTraining: st });
  const a = await run();
  assert.deepEqual(a.file, (await run()).file, "deterministic");
  assert.deepEqual(a.file.trainedOn.options.selfTraining, { ...st, pool: 4 });
  const names = Object.keys(a.file.weights);
  assert.ok(names.includes("w:qwzarp"), "a word of 5 users is learned from the pool");
  for (const gone of [
    "w:zorblax",
    "b:zorblax symptoms",
    "c:^zor",
    "c:zorb",
    "c:orbl",
    "c:rbla",
    "c:blax",
    "c:lax$",
  ])
    assert.ok(!names.includes(gone), `${gone}: a word of 4 users is not`);
  const plain = await trainFromLabels(rows, { kb, folds: 0, embeddings: null });
  assert.ok(!Object.keys(plain.file.weights).includes("w:qwzarp"));
});

test("click propagation: a pool query takes the label its sites' labelled clickers agree on, and only then", async () => {
  // A made-up log (AOL layout): two labelled Sports queries clicked sports.example; `qwzarp` queries of 5 users
  // clicked it too. `zorblax` queries clicked a site a Sports and a Health query share (no agreement), and
  // `flimmet` one that a single labelled query clicked (too little support).
  const lines = ["AnonID\tQuery\tQueryTime\tItemRank\tClickURL"];
  const at = (u: number, q: string, url: string) => `${u}\t${q}\t2006-03-01 07:00:00\t1\t${url}`;
  lines.push(at(1, "soccer ball", "http://www.sports.example"), at(2, "golf clubs", "http://sports.example"));
  lines.push(at(3, "hockey team", "http://mixed.example"), at(4, "flu symptoms", "http://mixed.example"));
  lines.push(at(5, "back pain", "http://lonely.example"));
  for (let u = 1; u <= 5; u++) {
    lines.push(at(10 + u, "qwzarp tickets", "http://www.sports.example"));
    lines.push(at(10 + u, "qwzarp scores", "http://sports.example"));
    lines.push(at(10 + u, "zorblax facts", "http://mixed.example"));
    lines.push(at(10 + u, "flimmet facts", "http://lonely.example"));
  }
  const log = join(dir, "clicks.tsv");
  writeFileSync(log, `${lines.join("\n")}\n`);
  const rows = readLabelled(labels);
  const pool = await readPool(
    log,
    rows.map((r) => r.query),
  );
  assert.deepEqual([...pool.users.keys()].sort(), [
    "flimmet facts",
    "qwzarp scores",
    "qwzarp tickets",
    "zorblax facts",
  ]);
  assert.deepEqual(
    [...pool.clicks.get("soccer ball")!],
    [["sports.example", 1]],
    "labelled queries' clicks kept",
  );
  assert.deepEqual([...pool.clicks.get("qwzarp tickets")!], [["sports.example", 5]]);
  const cp = { purity: 0.9, support: 2, weight: 0.5 };
  const gold: Example[] = rows.map((r) => ({
    features: { names: [], values: [] },
    label: TOP_LEVELS.indexOf(r.label),
  }));
  const queryOf = new Map<Example, string>(gold.map((e, i) => [e, rows[i]!.query]));
  const examples = {
    queries: [...pool.users.keys()].sort(),
    features: [...pool.users.keys()].map(() => ({ names: [], values: [] })),
    clicks: pool.clicks,
    events: pool.events,
    textFeatures: [],
  };
  const got = clickLabels(gold, (e) => queryOf.get(e), examples, cp);
  assert.deepEqual(
    [...got].map((c) => (c < 0 ? "-" : TOP_LEVELS[c])),
    ["-", "Sports", "Sports", "-"],
    "flimmet: one labelled clicker; qwzarp: Sports; zorblax: Sports and Health split",
  );
  assert.deepEqual(
    [...clickLabels(gold, (e) => queryOf.get(e), examples, { ...cp, support: 1 })].map((c) =>
      c < 0 ? "-" : TOP_LEVELS[c],
    ),
    ["Health", "Sports", "Sports", "-"],
  );
  // Through training: with the model's own pseudo-labels off (threshold above 1), only the click graph can teach
  // `qwzarp`, and it teaches Sports.
  const st = { threshold: 2, weight: 0.5, minUsers: 5, click: cp };
  const run = await trainFromLabels(rows, { kb, folds: 0, embeddings: null, pool, selfTraining: st });
  const w = run.file.weights["w:qwzarp"];
  assert.ok(w !== undefined, "a word only the click graph labels is learned");
  assert.equal(run.file.classes[w.indexOf(Math.max(...w))], "Sports");
  const off = await trainFromLabels(rows, {
    kb,
    folds: 0,
    embeddings: null,
    pool,
    selfTraining: { threshold: 2, weight: 0.5, minUsers: 5 },
  });
  assert.equal(off.file.weights["w:qwzarp"], undefined, "without click propagation nothing labels it");
  assert.deepEqual(SELF_TRAINING.click, { purity: 0.95, support: 2, weight: 1 });
});

test("context labels: a pool query takes the branch its log context gives, when sure enough", async () => {
  // A made-up log: user 1 typed `zorblax` between three `plimb` queries; users 2–4 typed `vend` (no neighbours).
  // The model (one word's weights each) is unsure of zorblax (Health 0.35, Sports 0.21), sure of plimb (Sports 0.99)
  // and vend (Health 0.99).
  const lines = ["AnonID\tQuery\tQueryTime\tItemRank\tClickURL"];
  const at = (u: number, q: string, t: string) => `${u}\t${q}\t2006-03-01 ${t}\t\t`;
  lines.push(at(1, "plimb", "09:00:00"), at(1, "Zorblax", "09:30:00"), at(1, "plimb", "10:00:00"));
  lines.push(at(1, "plimb", "10:15:00"));
  for (let u = 2; u <= 4; u++) lines.push(at(u, "vend", "12:00:00"));
  const log = join(dir, "context.tsv");
  writeFileSync(log, `${lines.join("\n")}\n`);
  const pool = await readPool(log, []);
  assert.deepEqual(pool.events.texts, ["plimb", "zorblax", "vend"], "texts compared lower-cased");
  assert.equal(pool.events.n, 7);
  const k = TOP_LEVELS.length;
  const sports = TOP_LEVELS.indexOf("Sports");
  const health = TOP_LEVELS.indexOf("Health");
  const row = (c: number, x: number) => Array.from({ length: k }, (_, i) => (i === c ? x : 0));
  const model = LinearModel.of(
    TOP_LEVELS,
    new Float64Array(k),
    new Map([
      ["w:plimb", Float64Array.from(row(sports, 8))],
      ["w:vend", Float64Array.from(row(health, 8))],
      ["w:zorblax", Float64Array.from(row(health, 2.5).map((x, c) => (c === sports ? 2 : x)))],
    ]),
    new Float64Array(0),
  );
  const feats = (w: string) => ({ names: [`w:${w}`], values: [1] });
  const examples: PoolExamples = {
    queries: ["plimb", "vend", "zorblax"],
    features: ["plimb", "vend", "zorblax"].map(feats),
    clicks: pool.clicks,
    events: pool.events,
    textFeatures: pool.events.texts.map(feats),
  };
  const label = (t: number) =>
    Object.fromEntries(
      contextLabelled(model, examples, { threshold: t, weight: 0.5, rounds: 1 }).map((e) => [
        e.features.names[0],
        TOP_LEVELS[e.label],
      ]),
    );
  // zorblax's text leans to Health; its three Sports neighbours carry it to Sports (a posterior share of ~0.4).
  assert.deepEqual(label(0.3), { "w:plimb": "Sports", "w:vend": "Health", "w:zorblax": "Sports" });
  // Above that share it stays out; the sure ones stay in.
  assert.deepEqual(label(0.9), { "w:plimb": "Sports", "w:vend": "Health" });
  assert.deepEqual(CONTEXT_LABELS, { threshold: 0.7, weight: 0.5, rounds: 5 });
  assert.equal(SELF_TRAINING.context, undefined, "the two fits the experiments compare against");
  assert.deepEqual(BUNDLED_SELF_TRAINING, { ...SELF_TRAINING, context: CONTEXT_LABELS });
});

test("the bundled model was trained with the settings kb train --pool uses now (else retrain it)", () => {
  const file = JSON.parse(readFileSync(BUNDLED_MODEL, "utf8"));
  const { pool, ...settings } = file.trainedOn.options.selfTraining;
  assert.deepEqual(settings, BUNDLED_SELF_TRAINING);
  assert.ok(pool > 0, "self-trained on a pool");
});
