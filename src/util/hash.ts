/**
 * Integer hash steps shared by the generator, the noise sources, the random-stream labels and the spelling index:
 * the one place for a small non-cryptographic hash (the cache keys use SHA-256).
 */

/** murmur3's 32-bit finalizer: a bijection that spreads every input bit over the (unsigned) output. */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** FNV-1a over the UTF-16 code units of a string, finalized with {@link fmix32}: the same on every machine and run. */
export function hashString(s: string, seed = 0): number {
  let h = (seed ^ 0x811c9dc5) >>> 0;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return fmix32(h);
}
