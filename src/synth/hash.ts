/**
 * Small integer hashes for the generator's pure functions (query text from (salt, category, rank), result URLs
 * from (salt, query, rank)). They are not randomness sources: their inputs carry salts drawn from the run's Rng.
 */

import { fmix32 } from "../util/hash.ts";

/** FNV-1a over the UTF-16 code units of a string, finalized. */
export function hashString(s: string, seed: number): number {
  let h = (seed ^ 0x811c9dc5) >>> 0;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return fmix32(h);
}
