/**
 * Drop mode with an offset map. Dropping a span can join its neighbours into a new identifier ("555 john
 * 123 4567" → "555 123 4567"), so the scrubber re-analyzes the released text until nothing is found, and needs
 * to map what it finds there back to offsets in the original text.
 */
import type { PiiSpan } from "./types.ts";

export interface Released {
  readonly text: string;
  /** For each UTF-16 unit of `text`, its offset in the original. */
  readonly map: Int32Array;
}

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x2028 || c === 0x2029 || c === 0xfeff;
}

/**
 * `text` with every span (disjoint, sorted) removed and whitespace normalized as {@link normalizeSpace} does
 * (a removed span counts as whitespace). Non-ASCII whitespace beyond the common ones is kept as is.
 */
export function dropWithMap(text: string, spans: readonly PiiSpan[]): Released {
  const chars: number[] = [];
  const map: number[] = [];
  let pendingSpace = -1;
  let si = 0;
  for (let i = 0; i < text.length; ) {
    const s = spans[si];
    if (s !== undefined && i >= s.start) {
      if (pendingSpace < 0) pendingSpace = s.start;
      i = Math.max(i, s.end);
      si++;
      continue;
    }
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      if (pendingSpace < 0) pendingSpace = i;
    } else {
      if (pendingSpace >= 0 && chars.length > 0) {
        chars.push(32);
        map.push(pendingSpace);
      }
      pendingSpace = -1;
      chars.push(c);
      map.push(i);
    }
    i++;
  }
  let out = "";
  for (let i = 0; i < chars.length; i += 4096) out += String.fromCharCode(...chars.slice(i, i + 4096));
  return { text: out, map: Int32Array.from(map) };
}

/**
 * Add spans found in a released text (offsets mapped back through `map`) to the original spans: a new span that
 * overlaps old ones absorbs them, taking the union of their extents and its own type.
 */
export function mergeBack(
  original: string,
  spans: readonly PiiSpan[],
  found: readonly PiiSpan[],
  map: Int32Array,
): PiiSpan[] {
  let out = spans.slice();
  for (const f of found) {
    let start = map[f.start]!;
    let end = map[f.end - 1]! + 1;
    const keep: PiiSpan[] = [];
    for (const s of out) {
      if (s.end <= start || s.start >= end) keep.push(s);
      else {
        start = Math.min(start, s.start);
        end = Math.max(end, s.end);
      }
    }
    keep.push({ type: f.type, start, end, value: original.slice(start, end) });
    out = keep;
  }
  return out.sort((a, b) => a.start - b.start);
}
