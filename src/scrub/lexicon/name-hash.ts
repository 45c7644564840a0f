/**
 * A 53-bit hash of a name (cyrb53-style: two 32-bit multiply-xor lanes), for the built list of public figures
 * (data/scrub/public-people.txt), which stores hashes rather than names so that the repository holds no string
 * equal to a logged query. Fast enough for the recognizer's look-ups (a few per query with a famous first word);
 * 26,000 names in 2^53 make a false match negligible.
 */
export function nameHash(s: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
