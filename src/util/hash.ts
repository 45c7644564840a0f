/** Integer hash steps shared by the generator, the noise sources and the spelling index. */

/** murmur3's 32-bit finalizer: a bijection that spreads every input bit over the (unsigned) output. */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
