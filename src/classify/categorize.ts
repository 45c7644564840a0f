/**
 * "Classify copies of the records", once, for every method, attack, command and runtime that needs categories
 * (swap on an unclassified input, the attack command, the profiler, the service and cluster runtimes, the
 * experiment runner): both ways of asking the knowledge service's classifier, memoised.
 *
 * - {@link loadCategorize}: a record in place, as `querymask classify` writes it (category, unit, the scrubbed
 *   text, the click rules);
 * - {@link loadClassifier}: a query text to its ODP path, or a note saying why there is no classifier (the
 *   experiment runs with category yardsticks n/a where it is not built).
 */
import type { LogRecord } from "../log/record.ts";
import { type ClickUsers, clickDrop } from "../scrub/click-url.ts";
import type { NameEvidence } from "../scrub/recognizer.ts";
import type { PiiSpan } from "../scrub/types.ts";
import { UsageError } from "../util/errors.ts";
import { TwoGenerationCache } from "../util/two-generation-cache.ts";
import { createKnowledgeService, type KnowledgeService } from "./service.ts";

/**
 * Sets `category` (and the scrubbed `query`, `unit`) of a record in place, and removes its click when the host
 * carries an identifier removed from the query (src/scrub/click-url.ts).
 */
export type Categorize = (record: LogRecord) => void;

interface Classified {
  category: string;
  unit?: string;
  scrubbed?: string;
  spans?: readonly PiiSpan[];
}

interface ClassifierLike {
  classify(query: string, cached?: boolean): Classified;
  /** The classifier with the log's name evidence given to its scrubber (`Classifier.withNameUsers`). */
  withNameUsers?(nameUsers: NameEvidence | undefined): ClassifierLike;
}

/**
 * Distinct queries a categorizer remembers at most, in two generations of half (src/util/two-generation-cache.ts):
 * what is used survives, what is not is forgotten. It used to be a map emptied whole past this size, so a
 * long-lived stream (a cluster's classify worker) fell back to the classifier for every query at once
 * (research/bench/classify-memo.bench.ts: hit rates and cost of the policies).
 */
export const CATEGORIZE_MEMO = 200_000;

/** True when every record already carries a category (a classified log). */
export function isClassified(records: readonly LogRecord[]): boolean {
  for (const r of records) if (r.category === undefined) return false;
  return true;
}

/**
 * Classify records in place, as `querymask classify` does, with the classifier of the knowledge service (the
 * given one, else a service of its own, loaded on first use); a clear usage error if it is not available.
 * `clicks`: the whole log's click counts, when known (batch paths).
 */
export async function loadCategorize(knowledge?: KnowledgeService, clicks?: ClickUsers): Promise<Categorize> {
  let classifier: ClassifierLike;
  try {
    classifier = await (knowledge ?? createKnowledgeService()).classifier();
  } catch (err) {
    throw new UsageError(
      `the input is not classified and the classifier could not be loaded (${(err as Error).message}); ` +
        "classify the log first or give one whose records carry categories",
    );
  }
  // (the whole log's counts carry its name evidence too: the scrubber weighs how many users typed a name)
  if (clicks !== undefined) classifier = classifier.withNameUsers?.(clicks.names) ?? classifier;
  const memo = new TwoGenerationCache<string, Classified>(CATEGORIZE_MEMO / 2);
  return (r) => {
    let c = memo.get(r.query);
    if (c === undefined) {
      c = classifier.classify(r.query, false);
      memo.set(r.query, c);
    }
    r.category = c.category;
    if (c.unit !== undefined) r.unit = c.unit;
    if (c.scrubbed !== undefined) r.query = c.scrubbed;
    // The click rules of `querymask classify`: a host carrying a scrubbed identifier, or (with the whole log's
    // counts) a URL only one user ever clicked, is dropped.
    if (r.clickUrl && clickDrop(r.clickUrl, c.spans ?? [], clicks) !== undefined) {
      delete r.clickUrl;
      delete r.itemRank;
    }
  };
}

/** Query text → ODP path ("" = unclassified), memoised. */
export type Categorizer = (query: string) => string;

/** The knowledge service's classifier as a {@link Categorizer}, or a note saying why there is none. */
export async function loadClassifier(
  knowledge: KnowledgeService,
): Promise<{ categorize?: Categorizer; note?: string }> {
  try {
    const classifier = await knowledge.classifier();
    const memo = new Map<string, string>();
    return {
      categorize: (q) => {
        let c = memo.get(q);
        if (c === undefined) {
          c = q === "" ? "" : classifier.classify(q, false).category;
          memo.set(q, c);
        }
        return c;
      },
    };
  } catch (err) {
    return {
      note: `classifier not available (${(err as Error).message.split("\n")[0]}); category yardsticks are n/a`,
    };
  }
}
