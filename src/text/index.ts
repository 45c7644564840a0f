/** Text processing for queries: tokens, tags, lemmas, noun phrases and Porter stems. */
export { analyze, type Token } from "./nlp.ts";
export { chunkTokens, nounPhrases } from "./noun-phrases.ts";
export { stem, stemKey } from "./stem.ts";
export { isStopword, STOPWORDS } from "./stopwords.ts";
