/**
 * English function words: never semantic units, never spelling-corrected (the term-specificity table drops
 * them, so without this list "their" would be "corrected" to "heir"). The classic SMART-style short list plus
 * query words ("free", "online", "com").
 */
const WORDS =
  "a about above after again against all am an and any are as at be because been before being below between both but by can could did do does doing down during each few for from further had has have having he her here hers herself him himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other our ours ourselves out over own same she should so some such than that the their theirs them themselves then there these they this those through to too under until up very was we were what when where which while who whom why will with would you your yours yourself yourselves get got go going make made want wanted need find like also us im dont cant didnt doesnt isnt wont whats hows ever really much many one ones something anything everything someone anyone way www http https com net org html htm";

export const STOPWORDS: ReadonlySet<string> = new Set(WORDS.split(" "));

/** True for a function word (lower case). */
export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}
