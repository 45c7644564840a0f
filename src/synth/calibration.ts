/**
 * The parameters that make synthetic logs look like AOL 2006: aggregate statistics only, never rows or query
 * strings. `scripts/calibrate-synth.ts` measures them on the shared 1000-user AOL subset (shapes: gaps, lengths,
 * clicks per clicked query, reformulations, repeats, hours) and takes population totals from the AOL collection
 * README (no-click share, next-page share, queries per user, unique queries). The result is committed as
 * `calibration.json` beside this file and is the generator's default.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { UsageError } from "../util/errors.ts";

export const DEFAULT_CALIBRATION_PATH = fileURLToPath(new URL("./calibration.json", import.meta.url));

/** A log-normal distribution given by the mean and standard deviation of ln(x). */
export interface LogNormal {
  logMean: number;
  logSd: number;
}

export interface Calibration {
  version: 1;
  /** Where each figure came from (free text, for people reading the JSON). */
  provenance: Record<string, string>;
  /** Query events per user (new queries + next-page requests, with or without clicks). */
  activity: LogNormal & {
    /** Hard cap per user: keeps one user's history bounded in memory. */
    max: number;
    /** Descriptive: quantiles of clicked query events per user in the subset (the population's heaviest users). */
    subsetQuantiles: Record<string, number>;
  };
  /** Query events in a session (30-minute inactivity cut), geometric with this mean. */
  session: {
    cutSeconds: number;
    meanEvents: number;
    /** Gap between consecutive queries of one session, seconds (truncated to [1, cutSeconds)). */
    interQuery: LogNormal;
    /** Gap before a next-page request, seconds. */
    nextPageGap: LogNormal;
  };
  /** What a query event is, given the previous one in its session. Probabilities; "new" gets the rest. */
  transitions: {
    /** Of events after the first in a session: next page of the previous query. */
    nextPage: number;
    /** Of events after the first in a session: reformulate the previous query. */
    reformulate: number;
    /** Of events after the first in a session: repeat a query the user issued before. */
    repeatWithin: number;
    /** Of first events of a session: repeat a query the user issued before. */
    repeatAtStart: number;
    /** Of events that are not a repeat: stay on the previous query's category. */
    sameTopic: number;
    /** How reformulations change the previous query. */
    reformulation: { add: number; drop: number; replace: number };
  };
  clicks: {
    /** Share of query events with no click. */
    noClick: number;
    /** P(k clicks | ≥1 click) for k = 1..n (the last bucket is "n or more", drawn as n). */
    perClickedEvent: number[];
    /** P(ItemRank = r) for r = 1..10 on a results page. */
    rank: number[];
    /** Share of clicks whose domain contains a word of the query. */
    queryWordInDomain: number;
    /** Top-level domain mix of clicked URLs. */
    tld: Record<string, number>;
  };
  queries: {
    /** P(words = k) for k = 1..n (last bucket "n or more"). */
    lengthWords: number[];
    /** Zipf exponent of query popularity (rank-frequency slope). */
    zipfExponent: number;
    /** Size of the whole virtual query vocabulary (shared out over categories by prior). */
    vocabulary: number;
    /** Descriptive: distinct / total query events in the source. */
    distinctRatio: number;
  };
  time: {
    /** Weight of each hour of the day, 0..23 (sums to 1). */
    hourOfDay: number[];
  };
  topics: {
    /** Share of queries per ODP top-level category (from the taxonomy priors). */
    topLevelMix: Record<string, number>;
    /** Probability that a fresh topic is drawn from the global mix instead of the user's own interests. */
    offProfile: number;
  };
  pii: {
    /** Share of query events that carry a fake personal identifier. */
    share: number;
    /** Mix of identifier kinds. */
    kinds: Record<PiiKind, number>;
    /** Of identifier queries: the identifier is the user's own (the same person recurs in their history). */
    own: number;
  };
}

export type PiiKind = "person_name" | "street_address" | "phone" | "email" | "id_number";
export const PII_KINDS: readonly PiiKind[] = ["person_name", "street_address", "phone", "email", "id_number"];

let cached: Calibration | undefined;

/** The committed calibration (read once). */
export function defaultCalibration(): Calibration {
  cached ??= loadCalibration(DEFAULT_CALIBRATION_PATH);
  return cached;
}

/** Read and check a calibration file. */
export function loadCalibration(path: string): Calibration {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new UsageError(`${path}: cannot read calibration: ${(e as Error).message}`);
  }
  return checkCalibration(parsed, path);
}

function isProb(x: unknown): x is number {
  return typeof x === "number" && x >= 0 && x <= 1;
}

/** Validate the fields the generator relies on; errors name the field. */
export function checkCalibration(c: unknown, where = "calibration"): Calibration {
  const bad = (field: string): never => {
    throw new UsageError(`${where}: missing or invalid ${field}`);
  };
  const o = c as Calibration;
  if (typeof o !== "object" || o === null || o.version !== 1) bad("version (expected 1)");
  const pos = (x: unknown) => typeof x === "number" && Number.isFinite(x) && x > 0;
  const dist = (xs: unknown, field: string) => {
    if (!Array.isArray(xs) || xs.length === 0 || !xs.every(isProb)) bad(field);
  };
  if (!o.activity || !Number.isFinite(o.activity.logMean) || !pos(o.activity.logSd) || !pos(o.activity.max))
    bad("activity");
  if (!o.session || !pos(o.session.meanEvents) || !pos(o.session.cutSeconds)) bad("session");
  for (const k of ["interQuery", "nextPageGap"] as const) {
    if (!Number.isFinite(o.session[k]?.logMean) || !pos(o.session[k]?.logSd)) bad(`session.${k}`);
  }
  const t = o.transitions;
  if (!t || ![t.nextPage, t.reformulate, t.repeatWithin, t.repeatAtStart, t.sameTopic].every(isProb)) {
    bad("transitions");
  }
  if (t.nextPage + t.reformulate + t.repeatWithin > 1) bad("transitions (within-session shares sum above 1)");
  if (
    !t.reformulation ||
    ![t.reformulation.add, t.reformulation.drop, t.reformulation.replace].every(isProb)
  ) {
    bad("transitions.reformulation");
  }
  if (!o.clicks || !isProb(o.clicks.noClick) || !isProb(o.clicks.queryWordInDomain)) bad("clicks");
  dist(o.clicks.perClickedEvent, "clicks.perClickedEvent");
  dist(o.clicks.rank, "clicks.rank");
  if (!o.queries || !pos(o.queries.zipfExponent) || !pos(o.queries.vocabulary)) bad("queries");
  dist(o.queries.lengthWords, "queries.lengthWords");
  if (o.time?.hourOfDay?.length !== 24) bad("time.hourOfDay (24 weights)");
  dist(o.time.hourOfDay, "time.hourOfDay");
  if (!o.topics?.topLevelMix || !isProb(o.topics.offProfile)) bad("topics");
  if (!o.pii || !isProb(o.pii.share) || !isProb(o.pii.own) || !o.pii.kinds) bad("pii");
  for (const k of PII_KINDS) if (!isProb(o.pii.kinds[k])) bad(`pii.kinds.${k}`);
  return o;
}
