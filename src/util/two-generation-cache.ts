/**
 * A bounded memo at the cost of a Map: entries go into a young generation; when it holds `size`, it becomes the
 * old one (the previous old one is dropped) and a new young one starts. A hit in the old generation is copied
 * into the young one, so what is used survives. At most 2 × `size` entries; approximately least-recently-used
 * eviction, without the per-hit bookkeeping of an LRU list (lru-cache's cost 1.6× a Map's per hit in the classify
 * worker's profile: research/bench/classify-memo.bench.ts).
 */
export class TwoGenerationCache<K, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();

  constructor(private readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`bad cache size ${size}`);
  }

  get(key: K): V | undefined {
    const v = this.young.get(key);
    if (v !== undefined) return v;
    const o = this.old.get(key);
    if (o !== undefined) this.set(key, o);
    return o;
  }

  set(key: K, value: V): void {
    if (this.young.size >= this.size) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(key, value);
  }

  /** Entries held (both generations; a key in both counts twice). */
  get entries(): number {
    return this.young.size + this.old.size;
  }
}
