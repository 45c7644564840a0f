/**
 * Categories for an input that is not classified yet. The swap reads `record.category`; when the input log has
 * none, each query goes through the project classifier (src/classify) on the way, and the released text is the
 * classifier's scrubbed text. The classifier comes from the knowledge service, which loads it on demand, so the
 * swap works (on classified input) even where the classifier is not built.
 */
import { createKnowledgeService, type KnowledgeService } from "../../classify/service.ts";
import type { LogRecord } from "../../log/record.ts";
import { type ClickUsers, dropSingleUserClick, scrubClick } from "../../scrub/click-url.ts";
import type { PiiSpan } from "../../scrub/types.ts";
import { UsageError } from "../../util/errors.ts";

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
  classify(query: string): Classified;
}

/** True when every record already carries a category (a classified log). */
export function isClassified(records: readonly LogRecord[]): boolean {
  for (const r of records) if (r.category === undefined) return false;
  return true;
}

/**
 * The classifier of the knowledge service (the context's, else a service of its own, loaded on first use); a
 * clear usage error if it is not available. `clicks`: the whole log's click counts, when known (batch paths).
 */
export async function loadCategorize(knowledge?: KnowledgeService, clicks?: ClickUsers): Promise<Categorize> {
  let classifier: ClassifierLike;
  try {
    classifier = await (knowledge ?? createKnowledgeService()).classifier();
  } catch (err) {
    throw new UsageError(
      `swap: the input is not classified and the classifier could not be loaded (${(err as Error).message}); ` +
        "classify the log first or give one whose records carry categories",
    );
  }
  const memo = new Map<string, Classified>();
  return (r) => {
    let c = memo.get(r.query);
    if (c === undefined) {
      c = classifier.classify(r.query);
      if (memo.size > 200_000) memo.clear();
      memo.set(r.query, c);
    }
    r.category = c.category;
    if (c.unit !== undefined) r.unit = c.unit;
    if (c.scrubbed !== undefined) r.query = c.scrubbed;
    // The click rules of `querymask classify`: a host carrying a scrubbed identifier, or (with the whole log's
    // counts) a URL only one user ever clicked, is dropped.
    if (
      r.clickUrl &&
      ((c.spans?.length && scrubClick(r, c.spans) !== r) || (clicks && dropSingleUserClick(r, clicks) !== r))
    ) {
      delete r.clickUrl;
      delete r.itemRank;
    }
  };
}
