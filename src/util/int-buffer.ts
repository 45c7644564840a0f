/** A grow-on-demand Int32 buffer (a list of ints without a JS array's 8 bytes per element). */
export class IntBuffer {
  data: Int32Array;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Int32Array(Math.max(16, capacity));
  }
  push(v: number): void {
    if (this.length === this.data.length) this.reserve(this.length + 1);
    this.data[this.length++] = v;
  }
  /** Make room for at least `n` values in total. */
  reserve(n: number): void {
    if (n <= this.data.length) return;
    const next = new Int32Array(Math.max(n, this.data.length * 2));
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }
}
