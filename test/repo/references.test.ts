/**
 * Every paper a user is shown — a method's or an attack's `paper`, a yardstick's title and source, the CLI's
 * help — is named by a key ("Batet et al. 2013", "Balle & Wang 2018") that docs/references.md lists in full, and
 * no user-facing text names a paper by the shared folder's file number ("paper 004", "(000)").
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { test } from "node:test";
import { attacks } from "../../src/attacks/registry.ts";
import { methods } from "../../src/methods/registry.ts";
import { yardsticks } from "../../src/metrics/registry.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const REFERENCES = readFileSync(join(ROOT, "docs/references.md"), "utf8");

/** "Surname et al. 2016", "Surname & Surname 2018", "A, B & C 2020", "Surname 1980". */
const KEY = /\p{Lu}[\p{L}'-]+(?:(?:, | & )\p{Lu}[\p{L}'-]+)*(?: et al\.)? (?:19|20)\d\d\b/gu;

/** The keys a text cites. */
export function citedKeys(text: string): string[] {
  return [...text.matchAll(KEY)].map((m) => m[0]);
}

/** A paper by its file number in the shared folder: "paper 004", "004 §5.1", "(000)", "004's". */
const FILE_NUMBER = /\bpapers? 00[0-4]\b|\(00[0-4][),]|\b00[0-4](?: §|'s\b)|\bPaper 00[0-4]\b/;

test("every paper a method, an attack or a yardstick names is in docs/references.md", () => {
  const texts = [
    ...methods.map((m) => [`method ${m.name}`, `${m.paper} ${m.summary}`] as const),
    ...attacks.map((a) => [`attack ${a.name}`, `${a.paper} ${a.summary}`] as const),
    ...yardsticks.map((y) => [`yardstick ${y.name}`, `${y.title} ${y.source}`] as const),
  ];
  let cited = 0;
  for (const [who, text] of texts) {
    assert.doesNotMatch(text, FILE_NUMBER, `${who} names a paper by its file number: ${text}`);
    for (const key of citedKeys(text)) {
      cited++;
      assert.ok(
        REFERENCES.includes(`**${key}**`),
        `${who} cites ${key}, which docs/references.md does not list`,
      );
    }
  }
  assert.ok(cited >= 10, `the registries cite ${cited} papers`);
});

test("the key pattern finds the citations it must (so the check can fail)", () => {
  assert.deepEqual(citedKeys("Korolova et al. 2009; Gopi et al. 2020; Balle & Wang 2018"), [
    "Korolova et al. 2009",
    "Gopi et al. 2020",
    "Balle & Wang 2018",
  ]);
  assert.deepEqual(citedKeys("(Canonne, Kamath & Steinke 2020, Theorem 14)"), [
    "Canonne, Kamath & Steinke 2020",
  ]);
  assert.match("the classifier (paper 000, Algorithm 1)", FILE_NUMBER);
  assert.match("swap … (000)", FILE_NUMBER);
  assert.doesNotMatch("ε in [0.001, 1000]", FILE_NUMBER);
});

function markdown(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? markdown(join(dir, e.name)) : e.name.endsWith(".md") ? [join(dir, e.name)] : [],
  );
}

test("the README and the docs cite papers by key, not by file number", () => {
  for (const f of [join(ROOT, "README.md"), ...markdown(join(ROOT, "docs"))]) {
    readFileSync(f, "utf8")
      .split("\n")
      .forEach((line, i) => {
        assert.doesNotMatch(line, FILE_NUMBER, `${f.slice(ROOT.length + 1)}:${i + 1}: ${line}`);
      });
  }
});
