/**
 * A codec turns one line of a log format into a {@link LogRecord} and back. Each supported layout (AOL TSV,
 * Excite, NDJSON) is one file implementing this interface; readers and writers are written once against it.
 */
import type { LogFormat, LogRecord } from "../record.ts";

export interface LineCodec {
  readonly format: LogFormat;
  /**
   * Parse one data line (no newline). Returns the record, or the reason the line is bad.
   * `classified` says the file declared the classifier columns (category, unit) in its header.
   */
  parse(line: string, classified: boolean): LogRecord | string;
  /** One line for `rec` (no newline). Throws {@link UnwritableRecord} if the layout cannot carry it. */
  toLine(rec: LogRecord, classified: boolean): string;
  /** The header line the layout starts with, if any. */
  header(classified: boolean): string | undefined;
  /** If `line` is this layout's header, whether it declares the classifier columns; otherwise undefined. */
  readHeader(line: string): { classified: boolean } | undefined;
  /**
   * The user id of a data line without parsing the rest (a reader skipping other users' lines), or undefined when
   * the layout cannot tell it cheaply (the line is then parsed).
   */
  userOf?(line: string): string | undefined;
}

/** {@link LineCodec.userOf} of a tab-separated layout whose first field is the user. */
export function firstTsvField(line: string): string | undefined {
  const tab = line.indexOf("\t");
  return tab > 0 ? line.slice(0, tab) : undefined;
}

/** A record that the output layout cannot represent (a tab inside a TSV field, a click in Excite…). */
export class UnwritableRecord extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "UnwritableRecord";
  }
}

/** Reject text that would break a tab-separated line. */
export function checkTsvField(name: string, value: string): void {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 9 || c === 10 || c === 13 || c === 0) {
      throw new UnwritableRecord(`${name} contains a tab, line break or NUL and cannot be written as TSV`);
    }
  }
}

/**
 * The reason a TSV line (its line break and a CRLF's carriage return already cut off) is refused for a carriage
 * return inside a field, or undefined. The writers cannot put one back (it would end the line for many readers),
 * so a log that holds one is refused where it is read, with its line, not when its release is written.
 */
export function strayCarriageReturn(line: string): string | undefined {
  return line.indexOf("\r") < 0
    ? undefined
    : "carriage return (CR) inside a field: a TSV field cannot hold one (a line may end in CRLF)";
}
