/**
 * Every anonymization method, loaded: for code that needs them all at once (experiments, the report, the library
 * API, the audit, the cluster). The list and each method's one line are in ./catalog.ts, which the CLI's
 * `anonymize` uses to load only the method it runs.
 */
import { UsageError } from "../util/errors.ts";
import { catalog } from "./catalog.ts";
import type { Method } from "./method.ts";

// biome-ignore lint/suspicious/noExplicitAny: each method has its own parameter type, checked by its parse().
export const methods: Method<any>[] = await Promise.all(catalog.map((entry) => entry.load()));

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
