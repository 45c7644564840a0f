/**
 * Parameters with meaning (k, δ, depth, m, …). A method declares its parameters once, as one schema
 * ({@link defineParams}, built on valibot from the helpers {@link int}, {@link num}, {@link bool}, {@link choice},
 * {@link text}); its TypeScript type ({@link ParamsOf}), its parser with defaults and validation, the CLI's flags
 * and help ({@link ParamSet.specs}) and the JSON Schema of configs ({@link ParamSet.jsonSchema}) all come from it.
 * A bad value is a {@link ParamError} (the CLI exits 2) and never a silent NaN.
 *
 * One rule for every entry point (command line, config, library): a value may be given as its type or as the
 * string a command line gives ("3" for 3); a boolean is `true`/`false`, or one of the strings true/false, yes/no,
 * on/off, 1/0 (any case), or the numbers 1/0; a name the schema does not declare is an error.
 */
import * as v from "valibot";

/** A parameter as the help, the flags and validation messages see it (derived from the schema). */
export interface ParamSpec {
  readonly name: string;
  readonly type: "int" | "number" | "string" | "boolean";
  readonly description: string;
  readonly default?: number | string | boolean;
  /** The values a `choice` parameter takes. */
  readonly choices?: readonly string[];
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
type Kind = ParamSpec["type"];

/** The smallest positive normal double (2^-1022): below it, numbers lose precision and 1/x overflows. */
const MIN_NORMAL = 2.2250738585072014e-308;

const got = (x: unknown): string => (typeof x === "number" ? String(x) : JSON.stringify(x));

// biome-ignore lint/suspicious/noExplicitAny: any valibot schema of one parameter.
type Schema = v.GenericSchema<any, any>;
/** One parameter: a valibot schema, optional (with its default or without one), tagged with its kind. */
export type Param<T, D extends T | undefined> = v.OptionalSchema<v.GenericSchema<T, T>, D>;

/** Each parameter schema's kind (and choices), for coercion and the help. */
const KINDS = new WeakMap<object, { kind: Kind; choices?: readonly string[] }>();

function param<T, D extends T | undefined>(
  kind: Kind,
  base: v.GenericSchema<T, T>,
  description: string,
  def: D,
  extra: { choices?: readonly string[] } = {},
): Param<T, D> {
  const schema = v.optional(v.pipe(base, v.description(description)), def as never);
  KINDS.set(schema, { kind, ...extra });
  return schema as unknown as Param<T, D>;
}

/** Bounds of a number: inclusive min/max, exclusive gt/lt; `hint` adds a reason to an out-of-range message. */
export interface Bounds {
  readonly min?: number;
  readonly max?: number;
  readonly gt?: number;
  readonly lt?: number;
  readonly hint?: (n: number) => string;
}

/** "must be in [0.001, 1000]", "must be ≥ 0", "must be > 1", "must be in [1e-100, 1)". */
function rangeText(b: Bounds, integer: boolean): string | undefined {
  const lo = b.min !== undefined ? `[${b.min}` : b.gt !== undefined ? `(${b.gt}` : undefined;
  const hi = b.max !== undefined ? `${b.max}]` : b.lt !== undefined ? `${b.lt})` : undefined;
  if (lo && hi) return `must be in ${lo}, ${hi}`;
  if (b.min !== undefined) return integer ? `must be an integer ≥ ${b.min}` : `must be ≥ ${b.min}`;
  if (b.gt !== undefined) return `must be > ${b.gt}`;
  if (b.max !== undefined) return `must be ≤ ${b.max}`;
  if (b.lt !== undefined) return `must be < ${b.lt}`;
  return undefined;
}

function inRange(n: number, b: Bounds): boolean {
  return (
    (b.min === undefined || n >= b.min) &&
    (b.max === undefined || n <= b.max) &&
    (b.gt === undefined || n > b.gt) &&
    (b.lt === undefined || n < b.lt)
  );
}

/** The valibot actions of a range, worded as {@link rangeText}. */
function rangeActions(b: Bounds, integer: boolean) {
  const say = rangeText(b, integer);
  const msg = (i: { input: number }) => `${say}, got ${got(i.input)}${b.hint?.(i.input) ?? ""}`;
  const out: v.PipeAction<number, number, v.BaseIssue<unknown>>[] = [];
  if (b.min !== undefined) out.push(v.minValue(b.min, msg));
  if (b.gt !== undefined) out.push(v.gtValue(b.gt, msg));
  if (b.max !== undefined) out.push(v.maxValue(b.max, msg));
  if (b.lt !== undefined) out.push(v.ltValue(b.lt, msg));
  return out;
}

/** An integer parameter. */
export function int(description: string, o: Bounds & { readonly default: number }): Param<number, number>;
export function int(description: string, o: Bounds): Param<number, undefined>;
export function int(description: string, o: Bounds & { readonly default?: number }) {
  const base = v.pipe(
    v.number((i) => `must be an integer, got ${got(i.input)}`),
    v.integer((i) => `must be an integer, got ${got(i.input)}`),
    // Not v.safeInteger, whose bound would enter the JSON Schema as a maximum nobody asked for.
    v.check<number, (i: v.CheckIssue<number>) => string>(
      Number.isSafeInteger,
      (i) => `${rangeText(o, true) ?? "must be an integer"}, got ${got(i.input)}`,
    ),
    ...rangeActions(o, true),
  );
  return param("int", base, description, o.default);
}

/** A number parameter: finite, and if not 0 at least 2.2e-308 in size, within `bounds`. */
export function num(description: string, o: Bounds & { readonly default: number }): Param<number, number>;
export function num(description: string, o: Bounds): Param<number, undefined>;
export function num(description: string, o: Bounds & { readonly default?: number }) {
  const base = v.pipe(
    v.number((i) => `must be a number, got ${got(i.input)}`),
    v.finite((i) => `must be a finite number, got ${got(i.input)}`),
    // A subnormal such as 1e-320 loses its precision and its reciprocal is Infinity.
    v.check<number, (i: v.CheckIssue<number>) => string>(
      (n) => n === 0 || Math.abs(n) >= MIN_NORMAL,
      (i) => `${got(i.input)} is too close to 0 to compute with (the smallest usable size is 2.2e-308)`,
    ),
    ...rangeActions(o, false),
  );
  return param("number", base, description, o.default);
}

/** A boolean parameter (spellings: see the module comment). */
export function bool(description: string, def: boolean): Param<boolean, boolean> {
  return param(
    "boolean",
    v.boolean((i) => `must be true or false, got ${got(i.input)}`),
    description,
    def,
  );
}

/** A parameter taking one of `values`. */
export function choice<const T extends readonly [string, ...string[]]>(
  values: T,
  description: string,
  def: T[number],
): Param<T[number], T[number]>;
export function choice<const T extends readonly [string, ...string[]]>(
  values: T,
  description: string,
): Param<T[number], undefined>;
export function choice<const T extends readonly [string, ...string[]]>(
  values: T,
  description: string,
  def?: T[number],
) {
  const base = v.picklist(values, (i) => `must be one of ${values.join(", ")}, got ${got(i.input)}`);
  return param("string", base as v.GenericSchema<T[number], T[number]>, description, def, {
    choices: values,
  });
}

/** A non-empty string parameter (a file path), without a default. */
export function text(description: string, what = "a file path"): Param<string, undefined> {
  const base = v.pipe(
    v.string((i) => `must be ${what}, got ${got(i.input)}`),
    v.minLength(1, (i) => `must be ${what}, got ${got(i.input)}`),
  );
  return param("string", base, description, undefined);
}

/** The issues that say a value is of the wrong type (not out of range). */
const WRONG_TYPE = new Set(["number", "integer", "safe_integer", "finite", "boolean", "picklist", "string"]);

const TRUE = new Set(["true", "yes", "on", "1"]);
const FALSE = new Set(["false", "no", "off", "0"]);

/** A raw value as the schema's kind reads it (the module comment's rule); anything else is left to the schema. */
function coerce(kind: Kind | undefined, x: unknown): unknown {
  if (kind === "boolean") {
    if (typeof x === "string") {
      const s = x.trim().toLowerCase();
      if (TRUE.has(s)) return true;
      if (FALSE.has(s)) return false;
    }
    if (x === 1) return true;
    if (x === 0) return false;
    return x;
  }
  if ((kind === "int" || kind === "number") && typeof x === "string" && x.trim() !== "") {
    const n = Number(x);
    return Number.isNaN(n) ? x : n;
  }
  return x;
}

type Entries = Record<string, Schema>;
/** What the schema of `E` parses to, before the owner's cross-parameter step. */
export type SchemaOutput<E extends Entries> = v.InferOutput<v.StrictObjectSchema<E, undefined>>;

/** Raise a {@link ParamError} from within a `refine` step. */
export type Fail = (param: string, reason: string) => never;

/** A method's (or attack's) parameters: its one schema and everything derived from it. */
export interface ParamSet<P> {
  readonly owner: string;
  /** The valibot schema (strict: an undeclared name is an error). */
  readonly schema: v.GenericSchema;
  /** Each parameter for the CLI's flags and help, in declaration order. */
  readonly specs: readonly ParamSpec[];
  /** Validate raw parameters, defaults filled in; throws {@link ParamError}. */
  parse(raw: Raw): P;
  /** The JSON Schema of the parameters (for configs). */
  jsonSchema(): Promise<Record<string, unknown>>;
}

/** The parameter type of a {@link ParamSet}. */
export type ParamsOf<S> = S extends ParamSet<infer P> ? P : never;

/**
 * One schema of `owner`'s parameters. `refine` (optional) is the step across parameters (`K ≤ k`, a default that
 * depends on another parameter); it calls `fail` for a bad combination.
 */
export function defineParams<E extends Entries>(
  owner: string,
  entries: E,
): ParamSet<Readonly<SchemaOutput<E>>>;
export function defineParams<E extends Entries, P>(
  owner: string,
  entries: E,
  refine: (p: SchemaOutput<E>, fail: Fail) => P,
): ParamSet<P>;
export function defineParams<E extends Entries, P>(
  owner: string,
  entries: E,
  refine?: (p: SchemaOutput<E>, fail: Fail) => P,
): ParamSet<P> {
  const schema = v.strictObject(entries, (i) => {
    const keys = Object.keys(entries);
    return `not a parameter of ${owner}; it takes: ${keys.length === 0 ? "none" : keys.join(", ")} (${got(i.input)})`;
  });
  const specs = Object.entries(entries).map(([name, s]) => specOf(name, s));
  const kinds = new Map(specs.map((s) => [s.name, s.type]));
  const fail: Fail = (param, reason) => {
    throw new ParamError(owner, param, reason);
  };
  return {
    owner,
    schema,
    specs,
    parse(raw) {
      const input: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(raw)) {
        if (x !== undefined) input[k] = coerce(kinds.get(k), x);
      }
      for (const k of Object.keys(input)) {
        if (!kinds.has(k)) {
          const takes = specs.map((s) => s.name).join(", ") || "none";
          throw new ParamError(owner, k, `not a parameter of ${owner}; it takes: ${takes}`);
        }
      }
      const r = v.safeParse(schema, input, { abortEarly: true });
      if (!r.success) {
        const issue = r.issues[0];
        const key = issue.path?.[0]?.key;
        const name = typeof key === "string" ? key : "values";
        // A value of the wrong type is named as given ("2.5" from a command line), not as read.
        const given = raw[name];
        const message =
          given !== undefined && given !== issue.input && WRONG_TYPE.has(issue.type)
            ? issue.message.replace(`got ${got(issue.input)}`, `got ${got(given)}`)
            : issue.message;
        throw new ParamError(owner, name, message);
      }
      const out = r.output as SchemaOutput<E>;
      return refine ? refine(out, fail) : (out as P);
    },
    async jsonSchema() {
      const { toJsonSchema } = await import("@valibot/to-json-schema");
      const { $schema: _drop, ...rest } = toJsonSchema(schema, { errorMode: "ignore" }) as Record<
        string,
        unknown
      >;
      return rest;
    },
  };
}

/** The spec of one parameter, read off its schema. */
function specOf(name: string, s: Schema): ParamSpec {
  const wrapped = (s as { wrapped?: Schema }).wrapped ?? s;
  const meta = KINDS.get(s) ?? { kind: "string" };
  const def = (s as { default?: unknown }).default;
  return {
    name,
    type: meta.kind,
    description: v.getDescription(wrapped as never) ?? "",
    ...(def === undefined ? {} : { default: def as number | string | boolean }),
    ...(meta.choices ? { choices: meta.choices } : {}),
  };
}

/** Read an integer parameter with a default and bounds (attacks; methods declare a schema). */
export function intParam(
  owner: string,
  raw: Raw,
  name: string,
  def: number | undefined,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const bounds: Bounds = max === Number.MAX_SAFE_INTEGER ? { min } : { min, max };
  return one(owner, raw, name, def === undefined ? int("", bounds) : int("", { ...bounds, default: def }));
}

/**
 * Read a number parameter with a default and an owner-specific `check` (attacks). Whatever the check, a number
 * must be finite and, if not 0, at least 2.2e-308 in size.
 */
export function numberParam(
  owner: string,
  raw: Raw,
  name: string,
  def: number | undefined,
  check: (n: number) => string | undefined,
): number {
  const n = one(owner, raw, name, def === undefined ? num("", {}) : num("", { default: def }));
  const problem = check(n);
  if (problem) throw new ParamError(owner, name, problem);
  return n;
}

/** Read a boolean parameter (spellings: see the module comment). */
export function boolParam(owner: string, raw: Raw, name: string, def: boolean): boolean {
  return one(owner, raw, name, bool("", def));
}

function one<T>(owner: string, raw: Raw, name: string, schema: Param<T, T | undefined>): T {
  const r = v.safeParse(schema, coerce(specOf(name, schema).type, raw[name]));
  if (!r.success) throw new ParamError(owner, name, r.issues[0].message);
  if (r.output === undefined) throw new ParamError(owner, name, "is required");
  return r.output as T;
}

/** Range check of a number in a `refine` step, worded as the schema's own. */
export function checkRange(fail: Fail, param: string, n: number, b: Bounds, integer = false): void {
  if (!inRange(n, b)) fail(param, `${rangeText(b, integer)}, got ${n}`);
}
