/**
 * A binary min-heap ordered by `before`, with the one operation a k-way merge needs beyond push: the top's key
 * changed (its source advanced), so sift it down again, or drop it when its source is done.
 */
export class MinHeap<T> {
  private readonly items: T[] = [];

  constructor(private readonly before: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  /** The least item (the heap must not be empty). */
  top(): T {
    return this.items[0]!;
  }

  push(x: T): void {
    const h = this.items;
    h.push(x);
    let k = h.length - 1;
    while (k > 0) {
      const p = (k - 1) >> 1;
      if (!this.before(h[k]!, h[p]!)) return;
      [h[k], h[p]] = [h[p]!, h[k]!];
      k = p;
    }
  }

  /** The top moved on: `more` false drops it (its source is done), true puts it back in place. */
  advanced(more: boolean): void {
    const h = this.items;
    if (!more) {
      const last = h.pop()!;
      if (h.length === 0) return;
      h[0] = last;
    }
    for (let k = 0; ; ) {
      const l = 2 * k + 1;
      if (l >= h.length) return;
      const c = l + 1 < h.length && this.before(h[l + 1]!, h[l]!) ? l + 1 : l;
      if (!this.before(h[c]!, h[k]!)) return;
      [h[k], h[c]] = [h[c]!, h[k]!];
      k = c;
    }
  }
}
