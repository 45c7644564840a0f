/**
 * Checking a release, for library callers: {@link audit} (does it keep the method's promises — with code that
 * shares nothing with the methods), {@link attack} (what an adversary recovers) and {@link measure} (the
 * experiment's privacy and utility yardsticks).
 */
import type { AttackResult } from "../attacks/attack.ts";
import { attacks, getAttack } from "../attacks/registry.ts";
import { type AuditReport, audit as auditSubject, originalAsAudited } from "../audit/audit.ts";
import { loadClassifier } from "../classify/categorize.ts";
import type { KnowledgeService } from "../classify/service.ts";
import { measureRelease } from "../experiment/run-one.ts";
import type { QueryLog } from "../log/record.ts";
import { declaredInput } from "../methods/method.ts";
import { methodEntry } from "../methods/registry.ts";
import { yardsticks } from "../metrics/registry.ts";
import { DEFAULT_OPTIONS, type Value, type YardstickOptions } from "../metrics/yardstick.ts";
import { prepareLog } from "../pipeline/prepare.ts";
import { Rng } from "../util/random.ts";
import { knowledgeOr } from "./knowledge.ts";
import type { Anonymized } from "./methods.ts";
import { type ProgressCallback, progressOf } from "./progress.ts";

export interface AuditOptions {
  /** Violating records kept per check (all are counted; default 20). */
  readonly limit?: number;
  /**
   * For a swap release of an unclassified log: the classifier that categorises the original (default: the CLI's);
   * its allow list (`createKnowledgeService(path, notice, allow)`) is the one the release was made with.
   */
  readonly knowledge?: KnowledgeService;
}

/**
 * Audit a release against the log it was made from, as `querymask audit` does: the method's privacy model, no
 * identifier in released texts or click URLs, no column the method does not release, row conservation of its
 * counts. `report.ok` is false with the violating records in `report.results` when a promise is broken.
 */
export async function audit(
  original: QueryLog,
  release: Anonymized,
  opts: AuditOptions = {},
): Promise<AuditReport> {
  const declared = declaredInput(methodEntry(release.method));
  const allow = opts.knowledge?.allow;
  const base = (
    await prepareLog(original, originalAsAudited(declared, original, release.log), {
      crossUser: declared.crossUser,
      allow,
      knowledge: knowledgeOr(opts.knowledge),
    })
  ).log;
  return auditSubject(
    {
      method: release.method,
      declared,
      params: release.params as Readonly<Record<string, unknown>>,
      original: base,
      ...(base !== original ? { asRead: original } : {}),
      ...(release.log ? { released: release.log } : {}),
      ...(release.table ? { table: release.table } : {}),
      summary: release.counts,
      guarantee: release.guarantee,
      ...(allow !== undefined ? { allow } : {}),
    },
    opts.limit ?? 20,
  );
}

/** An attack as the API describes it. */
export interface AttackInfo {
  readonly name: string;
  readonly summary: string;
  readonly paper: string;
}

/** Every registered attack (deanon1–4, matcher, background). */
export function listAttacks(): AttackInfo[] {
  return attacks.map((a) => ({ name: a.name, summary: a.summary, paper: a.paper }));
}

export interface AttackOptions {
  /** What the attacker is assumed to know (k, δ, …); default: the parameters the release was made with. */
  readonly params?: Readonly<Record<string, unknown>>;
  /** Seed of the attack's random choices (default: the release's seed). */
  readonly seed?: number;
  readonly onProgress?: ProgressCallback;
}

/**
 * Run attack `name` on a release. Given an {@link Anonymized} release, success is scored against the true author
 * of each released record; given a plain released log (two files, as the CLI has them), against a multiset match
 * of the original.
 */
export async function attack(
  name: string,
  original: QueryLog,
  released: Anonymized | QueryLog,
  opts: AttackOptions = {},
): Promise<AttackResult> {
  const a = getAttack(name);
  const fromRelease = "method" in released;
  const log = fromRelease ? released.log : released;
  if (log === undefined)
    throw new TypeError(`attack ${a.name}: the release has no log (a count table cannot be attacked)`);
  const params = a.parse(opts.params ?? (fromRelease ? (released.params as Record<string, unknown>) : {}));
  const seed = opts.seed ?? (fromRelease ? released.seed : 1);
  return a.run({
    original,
    released: log,
    ...(fromRelease && released.origin ? { origin: released.origin } : {}),
    params,
    rng: Rng.fromSeed(seed),
    progress: progressOf(opts.onProgress),
  });
}

/** A yardstick as the API describes it. */
export interface YardstickInfo {
  readonly name: string;
  readonly kind: "privacy" | "utility";
  readonly title: string;
  readonly columns: readonly {
    readonly key: string;
    readonly label: string;
    readonly unit: "%" | "";
    readonly better: string;
  }[];
}

/** Every registered yardstick, privacy first. */
export function listYardsticks(options: Partial<YardstickOptions> = {}): YardstickInfo[] {
  const o = { ...DEFAULT_OPTIONS, ...options };
  return yardsticks.map((y) => ({ name: y.name, kind: y.kind, title: y.title, columns: y.columns(o) }));
}

export interface MeasureOptions {
  /** Yardstick names (default: all). */
  readonly yardsticks?: readonly string[];
  readonly options?: Partial<YardstickOptions>;
  /** Categorises released queries the original never had (default: the CLI's classifier when available). */
  readonly knowledge?: KnowledgeService;
}

/**
 * Measure a release with the experiment's yardsticks: `<yardstick>.<column>` → value, `null` where a yardstick
 * does not apply. The same release and seed give the experiment runner's figures.
 */
export async function measure(
  original: QueryLog,
  release: Anonymized,
  opts: MeasureOptions = {},
): Promise<Record<string, Value>> {
  const knowledge = knowledgeOr(opts.knowledge);
  const m = methodEntry(release.method);
  return measureRelease(
    // The classifier is loaded only when the release has query texts the original never had.
    { log: original, categorizer: async () => (await loadClassifier(knowledge)).categorize },
    release,
    {
      method: { name: m.name, paper: m.paper },
      params: release.params as Readonly<Record<string, unknown>>,
      seed: release.seed,
      yardsticks: opts.yardsticks ?? yardsticks.map((y) => y.name),
      options: { ...DEFAULT_OPTIONS, ...opts.options },
    },
  );
}
