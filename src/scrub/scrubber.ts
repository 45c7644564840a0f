/**
 * The public entry point of identifier scrubbing (the HIPAA Safe Harbor step of paper 000's Algorithm 1):
 * `createScrubber(opts).scrub(text)` returns the typed spans found (offsets into `text`) and the released text.
 *
 * Pure and deterministic: no randomness, no I/O after module load, the same text always gives the same result.
 * It runs on every query of a log, so the work per query is a handful of regular expressions and hash look-ups.
 *
 * In drop mode the released text is a fixed point: scrubbing it again finds nothing, because the scrubber
 * re-analyzes what it released until no identifier is left (dropping "john" from "555 john 123 4567" would
 * otherwise release a phone number).
 */
import type { AllowList } from "./allow-list.ts";
import { Engine } from "./engine.ts";
import { DEFAULT_NAME_WEIGHTS, type NameWeights } from "./name-weights.ts";
import { applyOperator, DEFAULT_TAGS, normalizeSpace } from "./operators.ts";
import type { NameEvidence } from "./recognizer.ts";
import { defaultRecognizers } from "./registry.ts";
import { dropWithMap, mergeBack } from "./release.ts";
import { PII_TYPES, type PiiSpan, type PiiType, type ScrubMode, type ScrubResult } from "./types.ts";

export interface ScrubberOptions {
  /** `drop` (default) removes identifiers; `tag` replaces each with its tag, e.g. `[PERSON]`. */
  mode?: ScrubMode;
  /** Override tags per type (tag mode). */
  tags?: Partial<Record<PiiType, string>>;
  /** Only look for these kinds (default: all). */
  types?: PiiType[];
  /** Phrases that are not identifiers (public figures, …): a span within one of them is not scrubbed. */
  allow?: AllowList | undefined;
  /**
   * Cross-user evidence: how many distinct users of the log typed each name (./name-users.ts), one signal among
   * the person-name recognizer's others. Computed by the caller over the whole log, and only given where a
   * record's release may depend on other records (never on a per-record-only path such as a DP method's input).
   */
  nameUsers?: NameEvidence | undefined;
  /** The person-name recognizer's weights (default: the bundled ones); for evaluations. */
  nameWeights?: NameWeights | undefined;
}

export interface Scrubber {
  readonly mode: ScrubMode;
  readonly types: readonly PiiType[];
  scrub(text: string): ScrubResult;
}

/** How many times drop mode re-analyzes its own output at most; in practice one extra pass finds nothing. */
const MAX_PASSES = 4;

export function createScrubber(opts: ScrubberOptions = {}): Scrubber {
  const mode: ScrubMode = opts.mode ?? "drop";
  if (mode !== "drop" && mode !== "tag") throw new TypeError(`unknown scrub mode: ${String(mode)}`);
  const types = opts.types ?? [...PII_TYPES];
  for (const t of types) if (!PII_TYPES.includes(t)) throw new TypeError(`unknown identifier type: ${t}`);
  const tags: Record<PiiType, string> = { ...DEFAULT_TAGS, ...opts.tags };
  const engine = new Engine(defaultRecognizers(), types, {
    nameWeights: opts.nameWeights ?? DEFAULT_NAME_WEIGHTS,
    nameUsers: opts.nameUsers,
  });
  const allow = opts.allow !== undefined && opts.allow.size > 0 ? opts.allow : undefined;
  /** Spans the allow list set aside in the last `analyze`. */
  let setAside = 0;
  const analyze =
    allow === undefined
      ? (text: string) => engine.analyze(text)
      : (text: string) => {
          const found = engine.analyze(text);
          const spans = allow.filter(text, found);
          setAside = found.length - spans.length;
          return spans;
        };
  /** The result, with the count of spans the allow list set aside in the text as given (when any). */
  const result = (text: string, spans: readonly PiiSpan[], allowed: number): ScrubResult =>
    allowed > 0 ? { text, spans, allowed } : { text, spans };

  const tag = (text: string): ScrubResult => {
    setAside = 0;
    const spans = analyze(text);
    return result(
      applyOperator(text, spans, (s) => tags[s.type]),
      spans,
      setAside,
    );
  };

  const drop = (text: string): ScrubResult => {
    setAside = 0;
    let spans: PiiSpan[] = analyze(text);
    const allowed = setAside;
    if (spans.length === 0) {
      const normalized = normalizeSpace(text);
      if (normalized === text || analyze(normalized).length === 0) return result(normalized, spans, allowed);
    }
    let released = dropWithMap(text, spans);
    for (let pass = 1; pass < MAX_PASSES; pass++) {
      const more = analyze(released.text);
      if (more.length === 0) break;
      spans = mergeBack(text, spans, more, released.map);
      released = dropWithMap(text, spans);
    }
    return result(released.text, spans, allowed);
  };

  return { mode, types, scrub: mode === "tag" ? tag : drop };
}
