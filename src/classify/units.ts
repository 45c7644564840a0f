/**
 * Semantic units of a query (paper 000 Algorithm 1, `lemmatize(log)`; Sánchez et al.): the nouns and
 * adjectives of the query, grouped so that each unit names one concept. Inside a noun-phrase chunk, the longest
 * phrase the knowledge base knows is kept whole ("real estate", "video games"); other words stand alone,
 * except that an adjective joins the word after it ("european soccer"). Numbers are not units.
 *
 * Web addresses are reduced to the site name first (`www.myspace.com` → `myspace`), so navigational queries
 * reach the site table.
 */
import type { KnowledgeBase } from "../knowledge/knowledge-base.ts";
import { analyze, type Token } from "../text/nlp.ts";
import { chunkTokens } from "../text/noun-phrases.ts";
import { stem } from "../text/stem.ts";
import { isStopword } from "../text/stopwords.ts";

/** One semantic unit: its words as written and their Porter stems. */
export interface Unit {
  readonly words: string[];
  readonly stems: string[];
  /** Position of the first word in the query, to break ties deterministically. */
  readonly at: number;
}

const URL_PART =
  /^(?:https?:\/\/)?(?:www\d?\.)?([a-z0-9-]+(?:\.[a-z0-9-]+)*?)\.(?:com|net|org|edu|gov|us|info|biz|tv|co\.uk)(?:\/\S*)?$/;
/** Type tags left by the scrubber in tag mode, e.g. `[PERSON]`. */
const TAG = /\[[A-Z_]+\]/g;
const LONGEST = 4;

/** Normalize query text for analysis: drop scrubber tags, reduce web addresses to site names. */
export function normalizeQuery(text: string): string {
  return text
    .replace(TAG, " ")
    .toLowerCase()
    .split(/\s+/)
    .map((w) => {
      const m = URL_PART.exec(w);
      if (m) return m[1]!.replace(/[.-]/g, " ");
      return w.replace(/^www\./, "").replace(/^\.(com|net|org)$/, "");
    })
    .join(" ")
    .trim();
}

function isNumber(t: Token): boolean {
  return /^[\d.,/-]+$/.test(t.text);
}

function skipped(t: Token): boolean {
  return isNumber(t) || isStopword(t.text);
}

function segment(chunk: readonly Token[], offset: number, kb: KnowledgeBase, out: Unit[]): void {
  const words = chunk.filter((t) => !skipped(t));
  const stems = words.map((t) => stem(t.text));
  const pieces: { from: number; to: number }[] = [];
  let i = 0;
  while (i < words.length) {
    let to = i + 1;
    for (let n = Math.min(LONGEST, words.length - i); n >= 2; n--) {
      if (kb.lookupStems(stems.slice(i, i + n)) !== undefined) {
        to = i + n;
        break;
      }
    }
    pieces.push({ from: i, to });
    i = to;
  }
  // An adjective standing alone specialises the unit after it.
  for (let p = 0; p < pieces.length; p++) {
    const cur = pieces[p]!;
    const next = pieces[p + 1];
    if (next !== undefined && cur.to - cur.from === 1 && words[cur.from]!.pos === "ADJ") {
      next.from = cur.from;
      continue;
    }
    out.push({
      words: words.slice(cur.from, cur.to).map((t) => t.text),
      stems: stems.slice(cur.from, cur.to),
      at: offset + cur.from,
    });
  }
}

/**
 * The semantic units of (already scrubbed) query text. `recommend` may replace a word by its spelling
 * recommendation before units are formed (Algorithm 1, `recommendation(SU)`).
 */
export function semanticUnits(
  text: string,
  kb: KnowledgeBase,
  recommend?: (word: string) => string | undefined,
): { units: Unit[]; tokens: Token[] } {
  let normalized = normalizeQuery(text);
  if (recommend !== undefined) {
    normalized = normalized
      .split(" ")
      .map((w) => recommend(w) ?? w)
      .join(" ");
  }
  const tokens = analyze(normalized);
  const units: Unit[] = [];
  let offset = 0;
  for (const chunk of chunkTokens(tokens)) {
    segment(chunk, offset, kb, units);
    offset += chunk.length;
  }
  return { units, tokens };
}
