/**
 * No file of the repository quotes a query of the shared AOL subset. The AOL log is research data under its own
 * terms, and a query only one person typed can point at that person ("<first name> i love you", a small
 * clinic's name), so examples in code, comments, docs and tests are invented.
 *
 * How: every AOL query of ≥ 3 words that exactly one user of the subset issued (a query many users typed is a
 * common phrase: "map of ohio", "bank of america") goes into a Set; every line of every tracked text file is cut
 * into words the same way, and each run of 3–12 words is looked up. About 2 CPU-s. Skipped when ../shared is
 * absent.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { gunzipSync } from "node:zlib";

const AOL = "../shared/data/aol-top1000/aol_top1000_users.tsv.gz";
const MIN_WORDS = 3;
const MAX_WORDS = 12;

/**
 * Public reference lists, each with its own source in NOTICE (brands, car models, ODP topic descriptions, famous
 * people, web term statistics), and the bundled Excite 1997 sample (another public log): a phrase they share with
 * one AOL user's query is a coincidence of public text, not a quote.
 */
const EXEMPT = [
  /^data\/knowledge\//,
  /^data\/odp\//,
  /^data\/scrub\/famous-people\.txt$/,
  /^data\/termstats\//,
  /^data\/excite\//,
];

/**
 * Phrases reviewed one by one: public titles, brands, places and generic needs that say nothing about anyone.
 * Add to this list only such a phrase, never an example taken from the log.
 */
const REVIEWED = new Set([
  "books of the bible",
  "breast cancer treatment",
  "classic car shows",
  "coat of arms",
  "don't stop believin lyrics",
  "e mail search",
  "free porn videos",
  "home and garden",
  "la quinta hotel",
  "lord of the rings",
  "myspace com terms",
  "rent a car",
  "robert de niro",
  "sailboats for sale",
  "things to do in boston",
  "u s history",
  "us area codes",
  "www weather com",
]);

/**
 * The pieces of a file whose words are checked together: its lines; for the classifier's model file (one line of
 * JSON), each feature name on its own: the weights after a name are numbers, not words of a query (a pair feature
 * followed by a weight of 4 read as one query of three words was a false alarm). The names are what the model could
 * leak.
 */
function pieces(file: string, text: string): string[] {
  if (/^data\/model\/.*\.json$/.test(file)) {
    const model = JSON.parse(text) as { weights?: Record<string, unknown> };
    return Object.keys(model.weights ?? {});
  }
  return text.split("\n");
}

/** Lower-case words: letters, digits and inner apostrophes ("women's"). */
function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+(?:'[\p{L}\p{N}]+)*/gu) ?? [];
}

test("no tracked file quotes a query of the shared AOL subset", {
  skip: !existsSync(AOL) && `${AOL} absent`,
}, () => {
  // Query → its one user, or "" once a second user issued it too.
  const users = new Map<string, string>();
  const lines = gunzipSync(readFileSync(AOL)).toString("utf8").split("\n");
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const tab = line.indexOf("\t");
    const user = line.slice(0, tab);
    const w = words(line.slice(tab + 1, line.indexOf("\t", tab + 1)));
    if (w.length < MIN_WORDS || w.length > MAX_WORDS) continue;
    const q = w.join(" ");
    const seen = users.get(q);
    if (seen === undefined) users.set(q, user);
    else if (seen !== user) users.set(q, "");
  }
  const queries = new Set([...users].filter(([, u]) => u !== "").map(([q]) => q));
  assert.ok(queries.size > 10_000, "the AOL subset was read");

  const files = execFileSync("git", ["ls-files", "-z"], { encoding: "utf8" }).split("\0").filter(Boolean);
  const found: string[] = [];
  for (const file of files) {
    if (EXEMPT.some((e) => e.test(file)) || !existsSync(file)) continue;
    const buf = readFileSync(file);
    if (buf.includes(0)) continue; // binary
    for (const line of pieces(file, buf.toString("utf8"))) {
      const w = words(line);
      for (let i = 0; i + MIN_WORDS <= w.length; i++) {
        let gram = `${w[i]} ${w[i + 1]}`;
        for (let n = MIN_WORDS; n <= MAX_WORDS && i + n <= w.length; n++) {
          gram += ` ${w[i + n - 1]}`;
          if (queries.has(gram) && !REVIEWED.has(gram)) found.push(`${file}: "${gram}"`);
        }
      }
    }
  }
  const distinct = [...new Set(found)];
  assert.equal(distinct.length, 0, `AOL queries found in the repository:\n${distinct.join("\n")}`);
});
