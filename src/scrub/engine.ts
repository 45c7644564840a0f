/**
 * The one engine: runs every enabled recognizer over a prepared query and resolves overlapping findings into a
 * set of disjoint spans. Overlaps are common by design (a phone number inside a street address, a first name
 * that is also a street name, a zip code at the end of an address), so the rule must be simple and stable:
 * higher score wins, then the longer span, then the earlier one (then the type name, so the result never
 * depends on the registry's order). The result is sorted by start offset.
 */

import { emptyList, mapList } from "../util/elements.ts";
import { DEFAULT_NAME_WEIGHTS } from "./name-weights.ts";
import type { Finding, Recognizer, RecognizerContext } from "./recognizer.ts";
import { prepare } from "./tokenize.ts";
import type { PiiSpan, PiiType } from "./types.ts";

function better(a: Finding, b: Finding): number {
  if (a.score !== b.score) return b.score - a.score;
  const la = a.end - a.start;
  const lb = b.end - b.start;
  if (la !== lb) return lb - la;
  if (a.start !== b.start) return a.start - b.start;
  return a.type < b.type ? -1 : a.type > b.type ? 1 : 0;
}

/** Pick a maximal set of non-overlapping findings, greedily by {@link better}; sorted by start. */
export function resolveOverlaps(findings: readonly Finding[]): Finding[] {
  if (findings.length <= 1) return findings.slice();
  const ranked = findings.slice().sort(better);
  // `kept` stays sorted by start and disjoint, so one binary search finds the only neighbours that can overlap.
  const kept: Finding[] = [];
  for (const f of ranked) {
    if (f.end <= f.start) continue;
    let lo = 0;
    let hi = kept.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (kept[mid]!.start < f.start) lo = mid + 1;
      else hi = mid;
    }
    const prev = kept[lo - 1];
    const next = kept[lo];
    if ((prev && prev.end > f.start) || (next && next.start < f.end)) continue;
    kept.splice(lo, 0, f);
  }
  return kept;
}

/** True when `text` holds an ASCII digit. */
function hasDigit(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) return true;
  }
  return false;
}

export class Engine {
  private readonly recognizers: readonly Recognizer[];
  /** The recognizers that can find something in a text without a digit. */
  private readonly digitFree: readonly Recognizer[];
  private readonly enabled: ReadonlySet<PiiType>;

  constructor(
    recognizers: readonly Recognizer[],
    types: readonly PiiType[],
    private readonly context: RecognizerContext = { nameWeights: DEFAULT_NAME_WEIGHTS },
  ) {
    this.enabled = new Set(types);
    this.recognizers = recognizers.filter((r) => r.types.some((t) => this.enabled.has(t)));
    this.digitFree = this.recognizers.filter((r) => r.needsDigit !== true);
  }

  /** Disjoint identifier spans of `text`, sorted by start. */
  analyze(text: string): PiiSpan[] {
    if (text.length === 0) return emptyList();
    const query = prepare(text);
    const all: Finding[] = [];
    for (const r of hasDigit(text) ? this.recognizers : this.digitFree) {
      for (const f of r.find(query, this.context)) if (this.enabled.has(f.type)) all.push(f);
    }
    if (all.length === 0) return emptyList();
    return mapList(resolveOverlaps(all), ({ type, start, end, value }) => ({ type, start, end, value }));
  }
}
