/**
 * Every anonymization method querymask offers: its declaration (its folder's `meta.ts`: name, summary, input,
 * kind, disclosure, model, parameters' schema) beside a loader of its implementation (its `index.ts`). Adding a
 * method = one folder under src/methods/ with a `meta.ts` and an `index.ts`, plus one line here.
 *
 * The list is of declarations, so the CLI offers every method's flags and help while loading only the method
 * that runs ({@link loadMethod}): importing every implementation costs ~150 CPU-ms and ~8 MiB at each start.
 */
import { UsageError } from "../util/errors.ts";
import { clientsideDeclaration } from "./clientside/meta.ts";
import { dpDeclaration } from "./dp/meta.ts";
import { dropAllDeclaration } from "./drop-all/meta.ts";
import { erolaDeclaration } from "./erola/meta.ts";
import { graphDeclaration } from "./graph/meta.ts";
import { identityDeclaration } from "./identity/meta.ts";
import { kmDeclaration } from "./km/meta.ts";
import { mdavDeclaration } from "./mdav/meta.ts";
import { mdavStringsDeclaration } from "./mdav-strings/meta.ts";
import type { Method, MethodDeclaration } from "./method.ts";
import { navarroDeclaration } from "./navarro/meta.ts";
import { swapDeclaration } from "./swap/meta.ts";
import { thresholdDeclaration } from "./threshold/meta.ts";

// biome-ignore lint/suspicious/noExplicitAny: each method has its own parameter type, checked by its schema.
type AnyMethod = Method<any>;

// biome-ignore lint/suspicious/noExplicitAny: see AnyMethod.
export interface MethodEntry<P = any, N extends string = string> extends MethodDeclaration<P, N> {
  /** The method itself, its implementation imported on first call. */
  load(): Promise<Method<P>>;
}

const entry = <P, N extends string>(
  d: MethodDeclaration<P, N>,
  load: () => Promise<Method<P>>,
): MethodEntry<P, N> => ({ ...d, load });

const entries = [
  entry(swapDeclaration, async () => (await import("./swap/index.ts")).swap),
  entry(graphDeclaration, async () => (await import("./graph/index.ts")).graph),
  entry(dpDeclaration, async () => (await import("./dp/index.ts")).dp),
  entry(thresholdDeclaration, async () => (await import("./threshold/index.ts")).threshold),
  entry(kmDeclaration, async () => (await import("./km/index.ts")).km),
  entry(identityDeclaration, async () => (await import("./identity/index.ts")).identity),
  entry(dropAllDeclaration, async () => (await import("./drop-all/index.ts")).dropAll),
  entry(mdavDeclaration, async () => (await import("./mdav/index.ts")).mdav),
  entry(mdavStringsDeclaration, async () => (await import("./mdav-strings/index.ts")).mdavStrings),
  entry(erolaDeclaration, async () => (await import("./erola/index.ts")).erola),
  entry(navarroDeclaration, async () => (await import("./navarro/index.ts")).navarro),
  entry(clientsideDeclaration, async () => (await import("./clientside/index.ts")).clientside),
] as const;

/** Every method, in registry order (the report's colours follow it). */
export const methods: readonly MethodEntry[] = entries;

type Entry = (typeof entries)[number];
/** The name of a registered method. */
export type MethodName = Entry["name"];
/** Each method's parameters as its schema parses them: every parameter present, defaults filled in. */
export type ParsedParams = { [E in Entry as E["name"]]: E extends MethodEntry<infer P> ? P : never };

/** The method named `name` (its declaration); a {@link UsageError} naming the known methods otherwise. */
export function methodEntry(name: string): MethodEntry {
  const m = methods.find((x) => x.name === name);
  if (!m) {
    const known = methods.map((x) => x.name).join(", ");
    throw new UsageError(`unknown method ${JSON.stringify(name)}; known methods: ${known}`);
  }
  return m;
}

/** The method named `name`, loading its implementation only (a {@link UsageError} for an unknown name). */
export async function loadMethod(name: string): Promise<AnyMethod> {
  return methodEntry(name).load();
}

/** The methods a stream runs (`serve`, the cluster): those that declare they read in time order (a stage). */
export const streamingMethods: readonly MethodEntry[] = methods.filter((m) => m.input.timeOrder);

/** The streaming method named `name`; a {@link UsageError} for an unknown or a batch-only method. */
export function streamingMethod(name: string): MethodEntry {
  const m = methodEntry(name);
  if (!m.input.timeOrder) {
    const known = streamingMethods.map((x) => x.name).join(", ");
    throw new UsageError(`${name} has no streaming stage; a stream runs ${known}`);
  }
  return m;
}

/** The methods `cluster run` runs: the streaming ones and those that run over shards of users. */
export const clusterMethods: readonly MethodEntry[] = methods.filter((m) => m.input.timeOrder || m.shards);

/** The cluster method named `name`; a {@link UsageError} for one the cluster cannot run. */
export function clusterMethod(name: string): MethodEntry {
  const m = methodEntry(name);
  if (!m.input.timeOrder && !m.shards) {
    const known = clusterMethods.map((x) => x.name).join(", ");
    throw new UsageError(
      `${name} has no streaming stage and does not run over shards of users; the cluster runs ${known}`,
    );
  }
  return m;
}

/** Every method, loaded (in registry order). */
export async function loadMethods(): Promise<AnyMethod[]> {
  return Promise.all(methods.map((m) => m.load()));
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
  const defaults: Record<string, unknown> = { ...(m.params.parse({}) as Record<string, unknown>) };
  return Object.fromEntries(
    Object.entries(params).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(defaults[k])),
  );
}
