/**
 * Errors that carry their exit code. The CLI maps them: {@link InputError} and {@link UsageError} exit 2
 * (bad input or usage), anything else exits 1 (runtime failure).
 */

/** Bad input data: names the file, the line (when known) and the reason, as `file:line: reason`. */
export class InputError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | undefined,
    readonly reason: string,
  ) {
    super(line === undefined ? `${file}: ${reason}` : `${file}:${line}: ${reason}`);
    this.name = "InputError";
  }
}

/** A bad command line, configuration or parameter. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_BAD_INPUT = 2;
