/**
 * Tokens, part-of-speech tags and lemmas of a query, from wink-nlp with its English light model (both MIT).
 * Chosen over compromise for speed on short texts (~80k queries/s for POS + lemma on one core) with good tags
 * on lower-case query text. Only the POS pipe is enabled: queries have no sentences or entities worth parsing.
 *
 * The model is loaded once, lazily, on the first call.
 */

import model from "wink-eng-lite-web-model";
import winkNLP, { type ItsHelpers, type PartOfSpeech, type WinkMethods } from "wink-nlp";

/** One analysed word of a query. */
export interface Token {
  /** The word as written (lower-cased). */
  readonly text: string;
  /** Dictionary form from wink-nlp (`players` → `player`, `shows` → `show`). */
  readonly lemma: string;
  readonly pos: PartOfSpeech;
}

let engine: { nlp: WinkMethods; its: ItsHelpers } | undefined;

function load(): { nlp: WinkMethods; its: ItsHelpers } {
  if (engine === undefined) {
    const nlp = winkNLP(model, ["pos"]);
    engine = { nlp, its: nlp.its };
  }
  return engine;
}

/** Tokenize, tag and lemmatize a query. Whitespace and punctuation tokens are dropped. */
export function analyze(query: string): Token[] {
  const { nlp, its } = load();
  const tokens = nlp.readDoc(query.toLowerCase()).tokens();
  const texts = tokens.out(its.value) as string[];
  const lemmas = tokens.out(its.lemma as never) as unknown as string[];
  const tags = tokens.out(its.pos) as PartOfSpeech[];
  const out: Token[] = [];
  for (let i = 0; i < texts.length; i++) {
    const pos = tags[i]!;
    if (pos === "PUNCT" || pos === "SPACE") continue;
    out.push({ text: texts[i]!, lemma: (lemmas[i] ?? texts[i]!).toLowerCase(), pos });
  }
  return out;
}
