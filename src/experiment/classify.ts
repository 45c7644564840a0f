/**
 * The classifier for the experiment: when the knowledge service's classifier is available, the runner
 * classifies an unclassified input as `querymask classify` does (src/classify/classify-log.ts), and released
 * queries the original never had can be categorised too. The classifier is loaded on demand, so experiments run
 * (with category yardsticks n/a) where it is not built.
 */
import type { KnowledgeService } from "../classify/service.ts";

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
          c = q === "" ? "" : classifier.classify(q).category;
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
