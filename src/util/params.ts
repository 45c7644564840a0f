/**
 * Parameters with meaning (k, δ, depth, m, …) are declared once as {@link ParamSpec}s and validated where they
 * enter by a `parse` function built from these helpers. Methods and attacks both use them, so a bad value is a
 * {@link ParamError} (the CLI exits 2) and never a silent NaN.
 */

/** A parameter a method or an attack accepts, for `--help`, configs and validation messages. */
export interface ParamSpec {
  readonly name: string;
  readonly type: "int" | "number" | "string" | "boolean";
  readonly description: string;
  readonly default?: number | string | boolean;
}

/** Raised for a parameter that is out of range or of the wrong type; the CLI exits with code 2. */
export class ParamError extends Error {
  constructor(
    /** The method or attack the parameter belongs to. */
    readonly method: string,
    readonly param: string,
    reason: string,
  ) {
    super(`${method}: parameter ${param}: ${reason}`);
    this.name = "ParamError";
  }
}

type Raw = Readonly<Record<string, unknown>>;

/** Read an integer parameter with a default and bounds. */
export function intParam(
  owner: string,
  raw: Raw,
  name: string,
  def: number | undefined,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const v = raw[name] ?? def;
  const n = typeof v === "string" && v.trim() !== "" ? Number(v) : v;
  if (typeof n !== "number" || !Number.isInteger(n)) {
    throw new ParamError(owner, name, `must be an integer, got ${JSON.stringify(v)}`);
  }
  if (n < min || n > max) {
    // Worded like the config's and the CLI's own integer checks; no "9007199254740991" for "no upper bound".
    const range = max === Number.MAX_SAFE_INTEGER ? `an integer ≥ ${min}` : `in [${min}, ${max}]`;
    throw new ParamError(owner, name, `must be ${range}, got ${n}`);
  }
  return n;
}

/** The smallest positive normal double (2^-1022): below it, numbers lose precision and 1/x overflows. */
const MIN_NORMAL = 2.2250738585072014e-308;

/**
 * Read a number parameter with a default and an owner-specific `check`. Whatever the check, a number must be
 * finite and, if not 0, at least 2.2e-308 in size.
 */
export function numberParam(
  owner: string,
  raw: Raw,
  name: string,
  def: number | undefined,
  check: (n: number) => string | undefined,
): number {
  const v = raw[name] ?? def;
  const n = typeof v === "string" && v.trim() !== "" ? Number(v) : v;
  if (typeof n !== "number" || Number.isNaN(n)) {
    throw new ParamError(owner, name, `must be a number, got ${JSON.stringify(v)}`);
  }
  if (!Number.isFinite(n)) throw new ParamError(owner, name, `must be a finite number, got ${n}`);
  // A subnormal such as 1e-320 loses its precision and its reciprocal is Infinity: ε = 1e-320 used to end in a
  // stack trace deep in the noise code.
  if (n !== 0 && Math.abs(n) < MIN_NORMAL) {
    throw new ParamError(
      owner,
      name,
      `${n} is too close to 0 to compute with (the smallest usable size is 2.2e-308)`,
    );
  }
  const problem = check(n);
  if (problem) throw new ParamError(owner, name, problem);
  return n;
}

/** Read a boolean parameter (true/false, also as the strings "true"/"false"/"1"/"0" of a command line). */
export function boolParam(owner: string, raw: Raw, name: string, def: boolean): boolean {
  const v = raw[name] ?? def;
  if (v === true || v === "true" || v === "1") return true;
  if (v === false || v === "false" || v === "0") return false;
  throw new ParamError(owner, name, `must be true or false, got ${JSON.stringify(v)}`);
}
