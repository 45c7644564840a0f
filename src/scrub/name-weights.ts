/**
 * The weights of the person-name recognizer's evidence (./recognizers/person-name.ts): how much a context word, a
 * first name or a surname that is also an English word, and the cross-user evidence move a candidate, and the
 * threshold it must reach. Bundled in data/scrub/person-name.json, chosen by cross-validation on the labelled name
 * set (`npm run eval:scrub -- --fit`, scripts/eval-scrub.ts); an evaluation may try others
 * (`createScrubber({ nameWeights })`).
 */
import { readFileSync } from "node:fs";
import { UsageError } from "../util/errors.ts";

export interface NameWeights {
  /** A candidate is a private person's name when its evidence reaches this. */
  readonly threshold: number;
  /** Added when the query holds a private cue (attorney, dr, born, married …) … */
  readonly privateCue: number;
  /** … or a personal context, which makes even a famous name an identifier (obituary, genealogy, phone …). */
  readonly personalContext: number;
  /** Taken off for a public cue (lyrics, nude, senator, discography …) … */
  readonly publicCue: number;
  /** … and for one a query about a private person uses too (photos, video, basketball …). */
  readonly weakPublicCue: number;
  /** What a first name that is also a common word counts before a surname that is none ("mark terwilliger"). */
  readonly wordFirstName: number;
  /** What a census surname that is also a word counts after a first name that is none ("shirley brook"). */
  readonly wordSurname: number;
  /** What a first name the census lacks (humannames) counts ("addison", "jaxon"). */
  readonly otherFirstName: number;
  /** What a word in no list (not a census surname, not English) counts as a surname ("terwilliger" were it in no list). */
  readonly unknownSurname: number;
  /**
   * A lone surname before a personal context ("… genealogy") that is also a first name or an English word counts
   * when its census rank is below this ("lewis ancestry", "brown family").
   */
  readonly familyRank: number;
  /**
   * How much a middle name counts in a three-word name whose middle word is any census first name, also a word
   * ("dwight ray terwilliger"; 0: such a middle word is not taken).
   */
  readonly middleName: number;
  /** The evidence at least of a query that is a census first name and a census surname alone (0: none). */
  readonly bareName: number;
  /** Cross-user evidence: a name at least this many distinct users typed … */
  readonly manyUsers: number;
  /**
   * … counts this much less, unless the query holds a private cue. At most 1 − threshold, so that a name of full
   * evidence is removed however many typed it (never alone).
   */
  readonly manyUsersShift: number;
}

const KEYS: readonly (keyof NameWeights)[] = [
  "threshold",
  "privateCue",
  "personalContext",
  "publicCue",
  "weakPublicCue",
  "wordFirstName",
  "wordSurname",
  "otherFirstName",
  "unknownSurname",
  "familyRank",
  "middleName",
  "bareName",
  "manyUsers",
  "manyUsersShift",
];

/** `raw` checked to be a complete set of finite weights; `source` names it in the error. */
export function checkWeights(raw: unknown, source: string): NameWeights {
  if (typeof raw !== "object" || raw === null) throw new Error(`${source}: weights must be an object`);
  const r = raw as Record<string, unknown>;
  for (const k of KEYS) {
    if (typeof r[k] !== "number" || !Number.isFinite(r[k]))
      throw new Error(`${source}: weight ${k} must be a number`);
  }
  for (const k of Object.keys(r)) {
    if (!KEYS.includes(k as keyof NameWeights)) throw new Error(`${source}: unknown weight ${k}`);
  }
  const w = Object.fromEntries(KEYS.map((k) => [k, r[k]])) as unknown as NameWeights;
  // never alone: the user count must not bring a name of full evidence (1) below the threshold
  if (w.manyUsersShift > 1 - w.threshold)
    throw new Error(
      `${source}: manyUsersShift ${w.manyUsersShift} would let the user count alone keep a full name`,
    );
  return w;
}

const FILE = new URL("../../data/scrub/person-name.json", import.meta.url);

/**
 * Another weights file in the bundled file's format, for evaluations only: cross-validation runs the CLI a user runs
 * with each fold's weights, learned without that fold (scripts/eval-scrub.ts --cli).
 */
export const NAME_WEIGHTS_ENV = "QUERYMASK_NAME_WEIGHTS";

function readWeights(): NameWeights {
  const other = process.env[NAME_WEIGHTS_ENV];
  const file = other !== undefined && other !== "" ? other : FILE;
  const source = file === FILE ? "data/scrub/person-name.json" : `${other} (${NAME_WEIGHTS_ENV})`;
  try {
    return checkWeights(
      (JSON.parse(readFileSync(file, "utf8")) as { weights?: unknown } | null)?.weights,
      source,
    );
  } catch (e) {
    const reason = (e as Error).message;
    // (a bad file named by the variable is bad usage: exit 2 with the reason, no stack)
    throw new UsageError(reason.startsWith(source) ? reason : `${source}: ${reason}`);
  }
}

export const DEFAULT_NAME_WEIGHTS: NameWeights = readWeights();

/** The bundled weights with `over` in place of some. */
export function nameWeights(over: Partial<NameWeights> = {}): NameWeights {
  return checkWeights({ ...DEFAULT_NAME_WEIGHTS, ...over }, "name weights");
}

export const NAME_WEIGHT_KEYS = KEYS;
