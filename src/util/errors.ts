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

/**
 * A log too large for the heap of a method that holds it whole (exit 2). `atLeast`: the count stopped there (the
 * log has that many rows or more). The pipeline puts the input's name in front (`withInput`).
 */
export class HeapTooSmall extends UsageError {
  constructor(
    readonly method: string,
    readonly rows: number,
    readonly atLeast: boolean,
    readonly fit: number,
    readonly heapLimit: number,
    readonly input?: string,
  ) {
    super(
      `${input === undefined ? "" : `${input}: `}${rows.toLocaleString("en")} rows${atLeast ? " or more" : ""}: ` +
        `${method} holds the whole log in memory and about ${fit.toLocaleString("en")} fit in this process's heap ` +
        `of ${Math.round(heapLimit / 2 ** 20).toLocaleString("en")} MiB: split the log by user, or give Node ` +
        `more heap (NODE_OPTIONS=--max-old-space-size=<MiB>)`,
    );
  }

  /** The same refusal naming the input it read. */
  withInput(input: string): HeapTooSmall {
    return new HeapTooSmall(this.method, this.rows, this.atLeast, this.fit, this.heapLimit, input);
  }
}

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_BAD_INPUT = 2;
