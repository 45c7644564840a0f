/**
 * What a method declares (src/methods/<name>/meta.ts) that the layers before and after it read without knowing
 * the method: the text its input carries, and the privacy model it is built to keep. The pipeline prepares the
 * input by the first; the audit prepares the original the same way and picks its checks by the second.
 */

/**
 * The text a method is given: `raw` as typed (identity, clientside); `scrubbed`, identifiers removed as
 * `querymask scrub` does; `classified`, scrubbed and given category and unit as `querymask classify` does (swap).
 */
export type TextDomain = "raw" | "scrubbed" | "classified";

/**
 * The privacy model a method is built for, whatever its parameters (the guarantee a release claims is in
 * src/log/guarantee.ts and may be weaker): the audit applies each model's checks.
 */
export type MethodModel =
  | "k-bucket"
  | "k-anonymity"
  | "km-anonymity"
  | "k-users-per-query"
  | "graph-disconnection"
  | "differential-privacy"
  | "none";

/** The part of a method's declaration the audit reads. */
export interface DeclaredInput {
  readonly model: MethodModel;
  readonly text: TextDomain;
  /** Whether preparation used cross-user evidence (the single-clicker URL rule). */
  readonly crossUser: boolean;
}
