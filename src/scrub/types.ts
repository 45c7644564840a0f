/**
 * Identifier scrubbing (the HIPAA Safe Harbor step of paper 000's Algorithm 1): detectors find typed spans of
 * personal identifiers in query text; an operator then drops them or replaces them with a type tag.
 */

/** The Safe Harbor identifier kinds that can occur in query text. */
export type PiiType =
  | "person_name"
  | "street_address"
  | "zip"
  | "phone"
  | "email"
  | "id_number"
  | "url"
  | "ip_address"
  | "date";

/** Every {@link PiiType}, in a stable order (reports, counts, `--types` validation). */
export const PII_TYPES: readonly PiiType[] = [
  "person_name",
  "street_address",
  "zip",
  "phone",
  "email",
  "id_number",
  "url",
  "ip_address",
  "date",
];

export interface PiiSpan {
  readonly type: PiiType;
  /** UTF-16 offsets into the original text, end exclusive. */
  readonly start: number;
  readonly end: number;
  readonly value: string;
}

/** What to do with a found identifier: remove it, or replace it with a tag such as `[PERSON]`. */
export type ScrubMode = "drop" | "tag";

export interface ScrubResult {
  /** The text with every span dropped or tagged, whitespace normalized. */
  readonly text: string;
  readonly spans: readonly PiiSpan[];
  /** Spans found in the text that the allow list set aside as not identifiers (absent: none). */
  readonly allowed?: number;
}
