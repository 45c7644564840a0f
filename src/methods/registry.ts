/**
 * Every anonymization method querymask offers, by name. Adding a method = one folder under src/methods/ that
 * exports a {@link Method}, plus one line here. The CLI and the experiment runner look methods up only here.
 */
import { UsageError } from "../util/errors.ts";
import { clientside } from "./clientside/index.ts";
import { dp } from "./dp/index.ts";
import { erola } from "./erola/index.ts";
import { graph } from "./graph/index.ts";
import { identity } from "./identity/index.ts";
import { km } from "./km/index.ts";
import { mdav } from "./mdav/index.ts";
import { mdavStrings } from "./mdav-strings/index.ts";
import type { Method } from "./method.ts";
import { navarro } from "./navarro/index.ts";
import { dropAll } from "./suppress-all/index.ts";
import { swap } from "./swap/index.ts";
import { threshold } from "./threshold/index.ts";

// biome-ignore lint/suspicious/noExplicitAny: each method has its own parameter type, checked by its parse().
export const methods: Method<any>[] = [
  swap,
  graph,
  dp,
  threshold,
  km,
  identity,
  dropAll,
  mdav,
  mdavStrings,
  erola,
  navarro,
  clientside,
];

// biome-ignore lint/suspicious/noExplicitAny: see above.
export function getMethod(name: string): Method<any> {
  const m = methods.find((x) => x.name === name);
  if (!m) {
    const known = methods.map((x) => x.name).join(", ");
    throw new UsageError(`unknown method ${JSON.stringify(name)}; known methods: ${known}`);
  }
  return m;
}

/** Parameters as a person reads them: `k=3 depth=1` ("" for none). */
export function paramsLabel(params: Readonly<Record<string, unknown>>): string {
  return Object.entries(params)
    .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`)
    .join(" ");
}

/**
 * The parameters in `params` (as the method parsed them) whose value differs from the method's default: the short
 * label of a configuration in the report (`k=5` for swap with k = 5; "" for swap's defaults).
 */
export function paramsChanged(
  name: string,
  params: Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> {
  const m = methods.find((x) => x.name === name);
  if (!m) return params;
  const defaults: Record<string, unknown> = { ...m.parse({}) };
  return Object.fromEntries(
    Object.entries(params).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(defaults[k])),
  );
}
