/** Typed-array columns that grow by doubling (the raw-row reader's offsets, the swap stage's held events). */

/** `a`'s values at the start of a new Int32Array of length `n` (≥ `a.length`). */
export function grown(a: Int32Array, n: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(n);
  b.set(a);
  return b;
}

/** `a`'s bytes at the start of a new Uint8Array of length `n` (≥ `a.length`). */
export function grownBytes(a: Uint8Array, n: number): Uint8Array<ArrayBuffer> {
  const b = new Uint8Array(n);
  b.set(a);
  return b;
}
