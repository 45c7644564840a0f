/**
 * Categories for an input that is not classified yet. The swap reads `record.category`; when the input log has
 * none, each query goes through the project classifier (src/classify) on the way, and the released text is the
 * classifier's scrubbed text. The classifier module is loaded on demand so the swap works (on classified input)
 * even where the classifier is not built.
 */
import type { LogRecord } from "../../log/record.ts";
import { UsageError } from "../../util/errors.ts";

/** Sets `category` (and the scrubbed `query`, `unit`) of a record in place. */
export type Categorize = (record: LogRecord) => void;

interface ClassifierLike {
  classify(query: string): { category: string; unit?: string; scrubbed?: string };
}

/** True when every record already carries a category (a classified log). */
export function isClassified(records: readonly LogRecord[]): boolean {
  for (const r of records) if (r.category === undefined) return false;
  return true;
}

/** Load the project classifier; a clear usage error if it is not available. */
export async function loadCategorize(): Promise<Categorize> {
  // Named at run time (not followed by the compiler); .js once compiled to dist/.
  const spec = `../../classify/classifier.${import.meta.url.endsWith(".ts") ? "ts" : "js"}`;
  let mod: { Classifier?: { create(opts?: unknown): ClassifierLike | Promise<ClassifierLike> } };
  try {
    mod = await import(spec);
  } catch (err) {
    throw new UsageError(
      `swap: the input is not classified and the classifier could not be loaded (${(err as Error).message}); ` +
        "classify the log first or give one whose records carry categories",
    );
  }
  if (!mod.Classifier) throw new UsageError("swap: src/classify/classifier.ts exports no Classifier");
  const classifier = await mod.Classifier.create();
  const memo = new Map<string, { category: string; unit?: string; scrubbed?: string }>();
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
  };
}
