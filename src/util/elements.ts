/**
 * Arrays of one V8 elements kind. An array literal `[]` starts with small-integer elements and moves to generic
 * ones on its first string or object; one that stays empty keeps the integer kind, and so does `.map` of an
 * empty array. Code V8 optimized on filled arrays then meets another map on the first empty one, deoptimizes
 * ("wrong map") and is compiled again. The classifier's per-query arrays (words, tokens, identifier spans) are
 * built from {@link emptyList} so that empty and filled ones share a map.
 */

const GENERIC: unknown[] = [null];
GENERIC.pop(); // empty, and generic (a pop never moves an array back to a narrower kind)

/** A new empty array with generic (object) elements, the kind a filled array of strings or objects has. */
export function emptyList<T>(): T[] {
  return GENERIC.slice() as T[];
}

/** `text` split at every single space, as `text.split(" ")`, always as a packed generic array (see above). */
export function splitSpaces(text: string): string[] {
  const out = emptyList<string>();
  let from = 0;
  for (let to = text.indexOf(" "); to >= 0; to = text.indexOf(" ", from)) {
    out.push(text.slice(from, to));
    from = to + 1;
  }
  out.push(from === 0 ? text : text.slice(from));
  return out;
}

/**
 * `a.map(f)` as a packed generic array whatever V8 does: the built-in `map` returns a packed array, the copy
 * TurboFan inlines into optimized code a holey one, so the same line hands its readers two maps.
 */
export function mapList<T, U>(a: readonly T[], f: (x: T, i: number) => U): U[] {
  const out = emptyList<U>();
  for (let i = 0; i < a.length; i++) out.push(f(a[i]!, i));
  return out;
}
