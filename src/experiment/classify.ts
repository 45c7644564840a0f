/**
 * Optional classification of the experiment's input: when the project classifier (src/classify) is
 * available, every record gets its ODP category, and released queries the original never had can be
 * classified too. The classifier is loaded on demand, so experiments run (with category yardsticks n/a) where
 * it is not built.
 */
import type { LogRecord } from "../log/record.ts";
import { type Progress, silentProgress } from "../util/progress.ts";

interface ClassifierLike {
  classify(query: string): { category: string; unit?: string };
}

/** Query text → ODP path ("" = unclassified), memoised. */
export type Categorizer = (query: string) => string;

/** The project classifier as a {@link Categorizer}, or a note saying why there is none. */
export async function loadClassifier(): Promise<{ categorize?: Categorizer; note?: string }> {
  // Named at run time (not followed by the compiler); .js once compiled to dist/.
  const spec = `../classify/classifier.${import.meta.url.endsWith(".ts") ? "ts" : "js"}`;
  let mod: { Classifier?: { create(opts?: unknown): ClassifierLike | Promise<ClassifierLike> } };
  try {
    mod = await import(spec);
  } catch (err) {
    return {
      note: `classifier not available (${(err as Error).message.split("\n")[0]}); category yardsticks are n/a`,
    };
  }
  if (!mod.Classifier)
    return { note: "src/classify/classifier.ts exports no Classifier; category yardsticks are n/a" };
  try {
    const classifier = await mod.Classifier.create();
    const memo = new Map<string, string>();
    return {
      categorize: (q) => {
        let c = memo.get(q);
        if (c === undefined) {
          c = q === "" ? "" : classifier.classify(q).category;
          memo.set(q, c);
        }
        return c;
      },
    };
  } catch (err) {
    return {
      note: `classifier failed to load (${(err as Error).message.split("\n")[0]}); category yardsticks are n/a`,
    };
  }
}

/** Copies of `records` with `category` set (records that already carry one keep it). */
export function classifyRecords(
  records: readonly LogRecord[],
  categorize: Categorizer,
  progress: Progress = silentProgress,
): LogRecord[] {
  progress.start("classify", records.length);
  const out = records.map((r, i) => {
    if ((i & 4095) === 4095) progress.tick(4096);
    return r.category !== undefined ? { ...r } : { ...r, category: categorize(r.query) };
  });
  progress.tick(records.length & 4095);
  progress.stop();
  return out;
}
