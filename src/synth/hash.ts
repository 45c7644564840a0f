/**
 * Small integer hashes for the generator's pure functions (query text from (salt, category, rank), result URLs
 * from (salt, query, rank)). They are not randomness sources: their inputs carry salts drawn from the run's Rng.
 */

/** murmur3's 32-bit finalizer: a cheap, well-mixed hash step. */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** FNV-1a over the UTF-16 code units of a string, finalized. */
export function hashString(s: string, seed: number): number {
  let h = (seed ^ 0x811c9dc5) >>> 0;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return fmix32(h);
}
