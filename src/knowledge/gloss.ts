/**
 * The gloss fallback of the knowledge-base build: a WordNet sense that nothing else places can still be told by
 * its definition.
 */
import { analyze } from "../text/nlp.ts";
import { SCIENCE_MAX_CHAIN, type SenseMapper } from "./senses.ts";
import type { Taxonomy } from "./taxonomy.ts";
import type { Synset, WordNet } from "./wordnet.ts";

/**
 * Gloss fallback (see `glossCategory`): the most hypernym / domain links through which a noun of a definition may
 * reach its anchor to vote, and the votes the winning branch needs (it also needs twice any other branch's).
 */
const GLOSS_MAX_CHAIN = 2;
/** One vote placed thousands of common words by one generic noun (greeting, advantage, grace): 219 of 40,000
 * sampled AOL queries changed, mostly wrongly; two votes changed 39. */
const GLOSS_MIN_VOTES = 2;
/** Nouns definitions use for what a thing is, not what it is about (`the act of …`, `a form of …`). */
const GLOSS_STOP = new Set(
  "act|action|form|property|use|lack|order|result|effect|word|term|body|condition|state|base|ground|extent|fact|structure|consequence|experience|class|division|stimulus|meaning|information|head|face|order|member|kind|type|sort|part|piece|way|manner|means|process|activity|event|matter|object|thing|set|group|series|system|person|people|man|woman|one|source|situation|quality|purpose|practice|method|instance|example|case|point|cause|relation|position|level|degree|number|amount|quantity|unit|line|end|side|name|expression|phrase|work|product|substance|material|device|instrument|character|feature|nature|study|field|subject|branch|area|region|place|time|period".split(
    "|",
  ),
);
/** Lexicographer files of nouns too general to tell a definition's topic (`property`, `part`, `amount`). */
const GLOSS_SKIP_LEXNAMES = new Set([
  "noun.Tops",
  "noun.attribute",
  "noun.relation",
  "noun.quantity",
  "noun.shape",
]);

/**
 * A sense nothing else places can still be told by its definition: "an animal sterol … synthesized by the liver
 * …", "having no symptoms of illness or disease". Each distinct noun of the gloss (wink-nlp tag; the longest
 * WordNet noun, its first sense) that reaches an anchor itself or within GLOSS_MAX_CHAIN links votes for that
 * anchor's top-level branch; lexicographer guesses, labels, general nouns (attributes, relations, quantities)
 * and weak places, people or generic artifacts do not vote. A branch wins only with twice any other's votes.
 * Returns the category a synset's gloss gives (-1 = none), memoised.
 */
export function glossCategories(taxonomy: Taxonomy, wn: WordNet, m: SenseMapper): (s: Synset) => number {
  const { anchorOf, isWeak, top } = m;
  const scienceTop = taxonomy.id("Top/Science")!;
  const shoppingTop = taxonomy.id("Top/Shopping")!;
  const glossMemo = new Map<string, number>();
  const glossCategory = (s: Synset): number => {
    const memo = glossMemo.get(s.key);
    if (memo !== undefined) return memo;
    const toks = analyze(s.gloss);
    const seen = new Set<string>();
    const votes = new Map<number, Map<number, number>>();
    for (let i = 0; i < toks.length; i++) {
      let lemma: string | undefined;
      for (let n = Math.min(3, toks.length - i); n >= 2 && lemma === undefined; n--) {
        if (toks[i + n - 1]!.pos !== "NOUN") continue;
        const phrase = toks
          .slice(i, i + n)
          .map((t, j) => (j === n - 1 ? t.lemma : t.text))
          .join(" ");
        if (wn.nouns.has(phrase)) {
          lemma = phrase;
          i += n - 1;
        }
      }
      const t = toks[i]!;
      if (lemma === undefined && t.pos === "NOUN")
        lemma = wn.nouns.has(t.lemma) ? t.lemma : wn.nouns.has(t.text) ? t.text : undefined;
      if (lemma === undefined || lemma.length <= 2 || GLOSS_STOP.has(lemma)) continue;
      if (seen.has(lemma) || s.lemmas.includes(lemma)) continue;
      seen.add(lemma);
      const ns = wn.synsets.get(wn.nouns.get(lemma)![0]!);
      if (ns === undefined || GLOSS_SKIP_LEXNAMES.has(ns.lexname)) continue;
      let c = anchorOf(ns, false);
      if (c < 0) {
        c = m.walk(ns.key);
        const limit = top(c) === scienceTop ? Math.min(SCIENCE_MAX_CHAIN, GLOSS_MAX_CHAIN) : GLOSS_MAX_CHAIN;
        if (c >= 0 && m.walkDistance(ns.key) > limit) c = -1;
      }
      if (c < 0 || isWeak(ns, c) || c === shoppingTop) continue;
      const byCat = votes.get(top(c)) ?? new Map<number, number>();
      byCat.set(c, (byCat.get(c) ?? 0) + 1);
      votes.set(top(c), byCat);
    }
    const totals = [...votes.values()]
      .map((m) => ({ m, n: [...m.values()].reduce((a, b) => a + b, 0) }))
      .sort((a, b) => b.n - a.n);
    let found = -1;
    const [best, second] = totals;
    if (best !== undefined && best.n >= GLOSS_MIN_VOTES && best.n >= 2 * (second?.n ?? 0))
      found = [...best.m].sort((a, b) => b[1] - a[1])[0]![0]; // the branch's most voted category
    glossMemo.set(s.key, found);
    return found;
  };
  return glossCategory;
}
