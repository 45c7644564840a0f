/** Typed-array columns that grow by doubling (the raw-row reader's offsets, the swap stage's held events). */

/** `a`'s values at the start of a new Int32Array of length `n` (≥ `a.length`). */
export function grown(a: Int32Array, n: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(n);
  b.set(a);
  return b;
}
