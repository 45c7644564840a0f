/**
 * The command-line flags of the methods' and attacks' parameters, built from their ParamSpecs so a new method
 * or attack needs no CLI code (`anonymize`, `audit` and `attack` use this).
 *
 * A parameter is the flag `--<kebab-case name>` (`maxDelay` → `--max-delay`); the camelCase spelling stays
 * accepted as a hidden alias so existing scripts keep working. Several methods share a name (`--k`, `--delta`),
 * so the options list only says who takes a flag; each one's own description and default are in the per-method
 * help: `querymask anonymize --method dp --help` (`attack --attack NAME --help`) prints that method's parameters.
 */
import { type Command, Option } from "commander";
import { UsageError } from "../util/errors.ts";
import type { ParamSet, ParamSpec } from "../util/params.ts";

/**
 * A method or an attack, as far as its flags are concerned: a method's parameters are its declaration's schema
 * (whose specs carry the parser's defaults), an attack's a list of specs beside its parser.
 */
export interface ParamOwner {
  readonly name: string;
  readonly params: readonly ParamSpec[] | ParamSet<unknown>;
  parse?(raw: Readonly<Record<string, unknown>>): unknown;
}

/** The owner's parameters, one spec each. */
export function specsOf(owner: ParamOwner): readonly ParamSpec[] {
  return "specs" in owner.params ? owner.params.specs : (owner.params as readonly ParamSpec[]);
}

/** `maxDelay` → `max-delay`; a name without a lower-to-upper boundary stays as it is (`k`, graph's `K`). */
export function flagName(param: string): string {
  return param.replace(/([a-z0-9])([A-Z])/g, (_, a: string, b: string) => `${a}-${b.toLowerCase()}`);
}

/** The value `owner` runs with when the parameter is not given: its parser's, else the spec's stated default. */
export function defaultOf(owner: ParamOwner, spec: ParamSpec): unknown {
  if (owner.parse === undefined || "specs" in owner.params) return spec.default;
  try {
    const parsed = owner.parse({}) as Record<string, unknown>;
    if (parsed[spec.name] !== undefined) return parsed[spec.name];
  } catch {
    // a parser that needs a parameter: fall back to the spec
  }
  return spec.default;
}

/** `owner`'s parameters, one line each: flag, description, default. */
export function describeParams(owner: ParamOwner): string {
  const specs = specsOf(owner);
  if (specs.length === 0) return "  (no parameters)";
  const flags = specs.map((p) => `--${flagName(p.name)} <${p.type}>`);
  const width = Math.max(...flags.map((f) => f.length)) + 2;
  return specs
    .map((p, i) => {
      const def = defaultOf(owner, p);
      const said = /\bdefault\b/.test(p.description); // "(…; default 10, korolova 20)"
      const shown =
        def === undefined || said ? "" : ` (default ${typeof def === "string" ? def : JSON.stringify(def)})`;
      return `  ${flags[i]!.padEnd(width)}${p.description}${shown}`;
    })
    .join("\n");
}

/**
 * Add one flag per distinct parameter name of `owners` to `cmd` (plus the hidden camelCase alias), kept out of the
 * generic options list, and the help that goes with them: the chosen owner's parameters when `--<selector> NAME` is on the command line, else every
 * owner's flags. `kind` names the owners in messages ("method", "attack").
 */
export function addParamFlags(
  cmd: Command,
  owners: readonly ParamOwner[],
  selector: string,
  kind: string,
  reserved: ReadonlySet<string> = new Set(),
): void {
  const users = new Map<string, string[]>();
  for (const o of owners)
    for (const p of specsOf(o)) users.set(p.name, [...(users.get(p.name) ?? []), o.name]);
  for (const [name, who] of users) {
    const flag = flagName(name);
    if (reserved.has(flag)) throw new Error(`${kind} parameter --${flag} clashes with a common flag`);
    // Listed in the help text below, by owner, with descriptions and defaults; not in the generic options list,
    // where one line could only say whose it is (and a shared name such as --delta means different things).
    cmd.addOption(new Option(`--${flag} <value>`, `parameter of ${who.join(", ")}`).hideHelp());
    if (flag !== name) cmd.addOption(new Option(`--${name} <value>`).hideHelp());
  }
  let chosen: string | undefined;
  cmd.on(`option:${selector}`, (v: string) => {
    chosen = v;
  });
  cmd.addHelpText("after", () => {
    const owner = owners.find((o) => o.name === chosen);
    if (owner) return `\nParameters of ${kind} ${owner.name}:\n${describeParams(owner)}`;
    const lines = owners.map(
      (o) =>
        `  ${o.name.padEnd(13)} ${
          specsOf(o)
            .map((p) => `--${flagName(p.name)}`)
            .join(" ") || "-"
        }`,
    );
    return `\nParameters by ${kind} (each one's descriptions and defaults: --${selector} NAME --help):\n${lines.join("\n")}`;
  });
}

/**
 * The raw parameters given for `owner` (commander stores `--max-delay` and its alias `--maxDelay` as
 * `maxDelay`, the parameter's name); a parameter flag `owner` does not take is a usage error.
 */
export function givenParams(
  owner: ParamOwner,
  owners: readonly ParamOwner[],
  flags: Readonly<Record<string, unknown>>,
  kind: string,
): Record<string, unknown> {
  const names = new Set(owners.flatMap((o) => specsOf(o).map((p) => p.name)));
  const own = specsOf(owner);
  const raw: Record<string, unknown> = {};
  for (const name of names) {
    const v = flags[name];
    if (v === undefined) continue;
    if (!own.some((p) => p.name === name)) {
      const takes = own.map((p) => `--${flagName(p.name)}`).join(" ") || "none";
      throw new UsageError(`${kind} ${owner.name} has no parameter --${flagName(name)}; it takes: ${takes}`);
    }
    raw[name] = v;
  }
  return raw;
}

/**
 * The raw parameters of a command that also takes them as JSON (`serve`, `cluster run`: `--params '{"k":3}'`):
 * the kebab-case flags and the JSON merged; a parameter given both ways is a usage error.
 */
export function givenParamsWithJson(
  owner: ParamOwner,
  owners: readonly ParamOwner[],
  flags: Readonly<Record<string, unknown>>,
  json: string | undefined,
  kind: string,
): Record<string, unknown> {
  const fromFlags = givenParams(owner, owners, flags, kind);
  if (json === undefined) return fromFlags;
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new UsageError(`--params: not JSON: ${json}`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new UsageError(`--params: not a JSON object: ${json}`);
  }
  for (const k of Object.keys(parsed)) {
    if (k in fromFlags) throw new UsageError(`--params: ${k} is also given as --${flagName(k)}`);
  }
  return { ...(parsed as Record<string, unknown>), ...fromFlags };
}
