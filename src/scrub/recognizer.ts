/**
 * What a recognizer sees and what it returns. A recognizer finds ONE kind of identifier and knows nothing about
 * the engine, the operators or the other recognizers (Presidio's split): adding one never touches the engine.
 */
import type { NameWeights } from "./name-weights.ts";
import type { PiiSpan, PiiType } from "./types.ts";

/** A word of the query with its UTF-16 offsets in the original text. */
export interface Token {
  /** Lower-cased word (letters, digits; inner apostrophes kept). */
  readonly text: string;
  readonly start: number;
  readonly end: number;
  /** True when the token is made only of ASCII digits. */
  readonly digits: boolean;
}

/** The query prepared once per `scrub` call and shared by every recognizer. */
export interface Query {
  /** The original text (offsets refer to it). */
  readonly text: string;
  /** `text` lower-cased; same length and offsets as `text` for the characters recognizers care about. */
  readonly lower: string;
  readonly tokens: readonly Token[];
}

/**
 * A found identifier with the confidence the engine uses to resolve overlaps: when two findings overlap, the one
 * with the higher score wins (then the longer one, then the earlier one).
 */
export interface Finding extends PiiSpan {
  readonly score: number;
}

/**
 * Evidence about names from outside the query: how many distinct users of the log typed it. Cross-user evidence
 * (a record's fate then depends on other records), so the caller computes it over the whole log (./name-users.ts)
 * and gives it explicitly; a per-record-only path (a DP method's input) never has it.
 */
export interface NameEvidence {
  /** Distinct users who typed a query holding `name` (its words, lower case, space-joined); 0 when none. */
  users(name: string): number;
}

/** What the scrubber gives every recognizer besides the query (fixed for the scrubber's life). */
export interface RecognizerContext {
  readonly nameWeights: NameWeights;
  readonly nameUsers?: NameEvidence | undefined;
}

export interface Recognizer {
  /** Named for what it finds: "email", "phone", "person-name", … */
  readonly name: string;
  /** The kinds of identifier it can return (the engine skips a recognizer whose kinds are all disabled). */
  readonly types: readonly PiiType[];
  /**
   * True when the recognizer finds nothing in a text without an ASCII digit (the engine then does not call it:
   * most queries have no digit, and seven recognizers' early exits cost ~0.5 µs per query together).
   */
  readonly needsDigit?: boolean;
  find(query: Query, context: RecognizerContext): Finding[];
}

/** Build a finding covering `[start, end)` of `query.text`. */
export function finding(query: Query, type: PiiType, start: number, end: number, score: number): Finding {
  return { type, start, end, value: query.text.slice(start, end), score };
}

/** Build a finding covering the tokens `from..to` (inclusive). */
export function tokenFinding(query: Query, type: PiiType, from: number, to: number, score: number): Finding {
  const a = query.tokens[from]!;
  const b = query.tokens[to]!;
  return finding(query, type, a.start, b.end, score);
}
