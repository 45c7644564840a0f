/**
 * Every anonymization method querymask offers: what is known of it without loading it (its folder's `meta.ts`)
 * and a loader for its implementation (its `index.ts`). Adding a method = one folder under src/methods/ with a
 * `meta.ts` exporting its {@link MethodInfo} and an `index.ts` exporting its {@link Method}, plus one line here.
 *
 * The CLI's `anonymize` lists every method's flags and help from here and loads only the method it runs
 * ({@link loadMethod}): importing every implementation costs ~150 CPU-ms and ~8 MiB at each start. Code that
 * needs every method at once (experiments, the report, the library API, the audit) imports ./registry.ts.
 */
import { UsageError } from "../util/errors.ts";
import { clientsideInfo } from "./clientside/meta.ts";
import { dpInfo } from "./dp/meta.ts";
import { erolaInfo } from "./erola/meta.ts";
import { graphInfo } from "./graph/meta.ts";
import { identityInfo } from "./identity/meta.ts";
import { kmInfo } from "./km/meta.ts";
import { mdavInfo } from "./mdav/meta.ts";
import { mdavStringsInfo } from "./mdav-strings/meta.ts";
import type { Method, MethodInfo } from "./method.ts";
import { navarroInfo } from "./navarro/meta.ts";
import { dropAllInfo } from "./suppress-all/meta.ts";
import { swapInfo } from "./swap/meta.ts";
import { thresholdInfo } from "./threshold/meta.ts";

export interface MethodEntry extends MethodInfo {
  /** The method itself, its implementation imported on first call. */
  // biome-ignore lint/suspicious/noExplicitAny: each method has its own parameter type, checked by its parse().
  load(): Promise<Method<any>>;
}

export const catalog: readonly MethodEntry[] = [
  { ...swapInfo, load: async () => (await import("./swap/index.ts")).swap },
  { ...graphInfo, load: async () => (await import("./graph/index.ts")).graph },
  { ...dpInfo, load: async () => (await import("./dp/index.ts")).dp },
  { ...thresholdInfo, load: async () => (await import("./threshold/index.ts")).threshold },
  { ...kmInfo, load: async () => (await import("./km/index.ts")).km },
  { ...identityInfo, load: async () => (await import("./identity/index.ts")).identity },
  { ...dropAllInfo, load: async () => (await import("./suppress-all/index.ts")).dropAll },
  { ...mdavInfo, load: async () => (await import("./mdav/index.ts")).mdav },
  { ...mdavStringsInfo, load: async () => (await import("./mdav-strings/index.ts")).mdavStrings },
  { ...erolaInfo, load: async () => (await import("./erola/index.ts")).erola },
  { ...navarroInfo, load: async () => (await import("./navarro/index.ts")).navarro },
  { ...clientsideInfo, load: async () => (await import("./clientside/index.ts")).clientside },
];

/** The catalog entry named `name`; a {@link UsageError} naming the known methods otherwise. */
export function methodEntry(name: string): MethodEntry {
  const m = catalog.find((x) => x.name === name);
  if (!m) {
    const known = catalog.map((x) => x.name).join(", ");
    throw new UsageError(`unknown method ${JSON.stringify(name)}; known methods: ${known}`);
  }
  return m;
}

/** The method named `name`, loading its implementation only (a {@link UsageError} for an unknown name). */
// biome-ignore lint/suspicious/noExplicitAny: see MethodEntry.load.
export async function loadMethod(name: string): Promise<Method<any>> {
  return methodEntry(name).load();
}
