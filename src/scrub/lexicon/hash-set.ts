/**
 * The name lists' hashes (./name-hash.ts, 53 bits) as sets: ~420,000 of them are read at every start of classify
 * and scrub. A `Set` of that many numbers (heap doubles, each boxed) took ~0.4 CPU-s to fill; an open-addressing
 * table of doubles filled by one scan of the stored table's text takes ~0.05.
 */

/** A set of non-negative integers below 2^53 in an open-addressing table of doubles (-1 = empty slot). */
export class HashSet53 {
  private readonly table: Float64Array;
  private readonly mask: number;
  readonly size: number;

  constructor(values: readonly number[]) {
    let slots = 1024;
    while (slots < values.length * 2) slots *= 2;
    this.table = new Float64Array(slots).fill(-1);
    this.mask = slots - 1;
    let size = 0;
    for (const v of values) {
      // a hash's low 32 bits (ToUint32 is exact below 2^53) are as mixed as the rest: the slot
      let i = (v >>> 0) & this.mask;
      for (;;) {
        const at = this.table[i]!;
        if (at === v) break;
        if (at === -1) {
          this.table[i] = v;
          size++;
          break;
        }
        i = (i + 1) & this.mask;
      }
    }
    this.size = size;
  }

  has(v: number): boolean {
    let i = (v >>> 0) & this.mask;
    for (;;) {
      const at = this.table[i]!;
      if (at === v) return true;
      if (at === -1) return false;
      i = (i + 1) & this.mask;
    }
  }
}

/**
 * The hashes of a stored hash table's lines (`K HEX` or `K HEX REST`, K one letter, HEX below 2^53), by each
 * line's letter among `kinds`; lines of other letters go to `other` whole.
 */
export function hashesByKind(
  text: string,
  kinds: string,
  other: (line: string) => void = () => {},
): number[][] {
  const out = [...kinds].map((): number[] => []);
  const n = text.length;
  let at = 0;
  while (at < n) {
    let nl = text.indexOf("\n", at);
    if (nl < 0) nl = n;
    const k = kinds.indexOf(text[at]!);
    if (k < 0 || text.charCodeAt(at + 1) !== 32) other(text.slice(at, nl));
    else {
      // hex digits to the first space or the line's end; exact, since every prefix of a value below 2^53 is too
      let v = 0;
      for (let i = at + 2; i < nl; i++) {
        const c = text.charCodeAt(i);
        if (c === 32) break;
        v = v * 16 + (c <= 57 ? c - 48 : c - 87);
      }
      out[k]!.push(v);
    }
    at = nl + 1;
  }
  return out;
}
