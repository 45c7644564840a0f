/**
 * An indexed binary max-heap over node ids 0..n−1 with float keys and key updates in O(log n). Ties go to the
 * smaller id, so the order of removals is fully determined by the input. Used by the graph disconnection
 * heuristic, where every removal lowers the keys of the removed node's neighbours.
 */
export class IndexedMaxHeap {
  private readonly heap: Int32Array;
  private readonly pos: Int32Array;
  private readonly key: Float64Array;
  private length = 0;

  constructor(n: number) {
    this.heap = new Int32Array(n);
    this.pos = new Int32Array(n).fill(-1);
    this.key = new Float64Array(n);
  }

  get size(): number {
    return this.length;
  }

  has(id: number): boolean {
    return this.pos[id]! >= 0;
  }

  /** The key `id` was last given (meaningful while it is in the heap). */
  keyOf(id: number): number {
    return this.key[id]!;
  }

  /** Insert `id` with `key`, or change its key if present. */
  set(id: number, key: number): void {
    const p = this.pos[id]!;
    if (p < 0) {
      this.key[id] = key;
      this.heap[this.length] = id;
      this.pos[id] = this.length;
      this.up(this.length++);
      return;
    }
    const old = this.key[id]!;
    this.key[id] = key;
    if (key > old) this.up(p);
    else if (key < old) this.down(p);
  }

  /** The id with the largest key (smallest id among equals), without removing it; -1 when empty. */
  peek(): number {
    return this.length === 0 ? -1 : this.heap[0]!;
  }

  /** Remove `id` if present. */
  delete(id: number): void {
    const p = this.pos[id]!;
    if (p < 0) return;
    const last = this.heap[--this.length]!;
    this.pos[id] = -1;
    if (p === this.length) return;
    this.heap[p] = last;
    this.pos[last] = p;
    this.up(p);
    this.down(this.pos[last]!);
  }

  /** Remove and return the top id; -1 when empty. */
  pop(): number {
    const top = this.peek();
    if (top >= 0) this.delete(top);
    return top;
  }

  /** Whether the node at heap slot a should sit above the one at slot b. */
  private above(a: number, b: number): boolean {
    const x = this.heap[a]!;
    const y = this.heap[b]!;
    const kx = this.key[x]!;
    const ky = this.key[y]!;
    return kx > ky || (kx === ky && x < y);
  }

  private swap(a: number, b: number): void {
    const x = this.heap[a]!;
    const y = this.heap[b]!;
    this.heap[a] = y;
    this.heap[b] = x;
    this.pos[y] = a;
    this.pos[x] = b;
  }

  private up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.above(i, parent)) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(i: number): void {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let best = i;
      if (l < this.length && this.above(l, best)) best = l;
      if (r < this.length && this.above(r, best)) best = r;
      if (best === i) return;
      this.swap(i, best);
      i = best;
    }
  }
}
