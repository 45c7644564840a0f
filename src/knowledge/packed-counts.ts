/**
 * A read-only `word → number` table over a snapshot's `key TAB number` text, without a string or a map entry per
 * row: an open-addressing hash table of row numbers (FNV-1a over the key's characters) that compares a looked-up
 * word with the key where it stands in the text. Loading the knowledge base's 253,610 term counts into a `Map`
 * was the largest part of its load (a string and an entry per row); this keeps the text itself (one byte per
 * character), the keys' offsets and the numbers.
 */

/**
 * The number of `text[from, to)`, as `eachCountRow` (snapshot.ts) reads it: plain digits (15 or fewer, exact in
 * a double) summed straight from the text, anything else through `Number`.
 */
function countAt(text: string, from: number, to: number): number {
  let v = 0;
  let i = from;
  const plain = to > i && to - i <= 15;
  for (; plain && i < to; i++) {
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9) break;
    v = v * 10 + c;
  }
  return plain && i === to ? v : Number(text.slice(from, to));
}

/** What the knowledge base asks of a table of counts (a `Map` has it too). */
export interface CountTable {
  get(key: string): number | undefined;
  readonly size: number;
  entries(): IterableIterator<[string, number]>;
}

/** FNV-1a; its offset basis as an int32 (callers read `h & mask`): the empty key's hash is no double. */
function fnv(text: string, from: number, to: number): number {
  let h = 0x811c9dc5 | 0;
  for (let k = from; k < to; k++) h = Math.imul(h ^ text.charCodeAt(k), 0x01000193);
  return h;
}

export class PackedCounts implements CountTable {
  /** Row r's key is `text.slice(bounds[2r], bounds[2r + 1])` (side by side: one cache line for both). */
  private readonly bounds: Int32Array;
  private readonly values: Float64Array;
  /**
   * Two numbers per slot: the row number + 1 (0 = empty) and its key's hash. A probe compares the hashes before
   * it reads the row's key: most words looked up are in no table (the scrubber asks whether each word of each
   * query is a first name), and a probe that read every occupied slot's key bounds and text missed the cache
   * two or three times more per look-up.
   */
  private readonly table: Int32Array;
  private readonly mask: number;
  private rows = 0;

  /**
   * The table of `text` (`key TAB number` lines). A key listed twice keeps its last number, as `Map.set` would.
   */
  constructor(private readonly text: string) {
    let lines = text.length === 0 ? 0 : 1;
    for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) lines++;
    this.bounds = new Int32Array(2 * lines);
    this.values = new Float64Array(lines);
    let size = 1024;
    while (size < lines * 2) size *= 2;
    this.table = new Int32Array(2 * size);
    this.mask = size - 1;
    const n = text.length;
    let at = 0;
    while (at < n) {
      let nl = text.indexOf("\n", at);
      if (nl < 0) nl = n;
      const tab = text.indexOf("\t", at);
      if (tab < 0 || tab > nl) throw new Error(`counts table: line without a tab at character ${at}`);
      const h = fnv(text, at, tab);
      const slot = this.find(text, at, tab, h);
      const value = countAt(text, tab + 1, nl);
      const row = this.table[2 * slot]! - 1;
      if (row >= 0) this.values[row] = value;
      else {
        const r = this.rows++;
        this.bounds[2 * r] = at;
        this.bounds[2 * r + 1] = tab;
        this.values[r] = value;
        this.table[2 * slot] = r + 1;
        this.table[2 * slot + 1] = h;
      }
      at = nl + 1;
    }
  }

  /** The slot of the key `s[from, to)` with hash `h`: where it is, or the empty one to take. */
  private find(s: string, from: number, to: number, h: number): number {
    const text = this.text;
    const table = this.table;
    const len = to - from;
    for (let slot = h & this.mask; ; slot = (slot + 1) & this.mask) {
      const r = table[2 * slot]! - 1;
      if (r < 0) return slot;
      if (table[2 * slot + 1] !== h) continue;
      const start = this.bounds[2 * r]!;
      if (this.bounds[2 * r + 1]! - start !== len) continue;
      let k = 0;
      while (k < len && text.charCodeAt(start + k) === s.charCodeAt(from + k)) k++;
      if (k === len) return slot;
    }
  }

  get(key: string): number | undefined {
    const r = this.table[2 * this.find(key, 0, key.length, fnv(key, 0, key.length))]! - 1;
    return r < 0 ? undefined : this.values[r];
  }

  has(key: string): boolean {
    return this.table[2 * this.find(key, 0, key.length, fnv(key, 0, key.length))]! > 0;
  }
  get size(): number {
    return this.rows;
  }

  *entries(): IterableIterator<[string, number]> {
    for (let r = 0; r < this.rows; r++)
      yield [this.text.slice(this.bounds[2 * r], this.bounds[2 * r + 1]), this.values[r]!];
  }
}
