/**
 * The one way knowledge reaches methods, attacks and commands: a {@link KnowledgeService} gives the knowledge
 * base and the project classifier over it, each loaded once, on first use. The CLI and the experiment runner
 * create one and inject it through `MethodContext.knowledge`; methods never load knowledge themselves (mdav and
 * its family map queries with `base()`, swap classifies an unclassified input with `classifier()`).
 *
 * It lives here, above src/knowledge and src/scrub, because the classifier it hands out is built from both. The
 * heavy modules (snapshot reader, classifier, scrubber) are imported on first use, so creating a service — or
 * running a method that needs none — costs nothing.
 */
import type { KnowledgeBase } from "../knowledge/knowledge-base.ts";
import { DEFAULT_SNAPSHOT, type Notice } from "../knowledge/snapshot.ts";
import type { AllowList } from "../scrub/allow-list.ts";
import type { Classifier } from "./classifier.ts";

export interface KnowledgeService {
  /** Where the knowledge base's snapshot is read from (for summaries and reports). */
  readonly snapshot: string;
  /** The knowledge base (ODP taxonomy, WordNet bridge, term specificity, spelling), loaded once. */
  base(): Promise<KnowledgeBase>;
  /** The project classifier over {@link base} (paper 000 Algorithm 1, identifier scrub included), created once. */
  classifier(): Promise<Classifier>;
  /** Phrases that are not identifiers (`--allow-list`): every scrubber that serves this run's methods keeps them. */
  readonly allow?: AllowList;
}

/**
 * A service over the snapshot at `snapshot` (default: `.cache/kb/`, built on first use when missing; the build's
 * two notices go to `notice`, stderr by default). `allow`: the phrases its classifier's scrubber leaves in the
 * queries (`--allow-list`).
 */
export function createKnowledgeService(
  snapshot = DEFAULT_SNAPSHOT,
  notice?: Notice,
  allow?: AllowList,
): KnowledgeService {
  const load = async () => {
    const { loadKnowledgeBase } = await import("../knowledge/knowledge-base.ts");
    return loadKnowledgeBase(snapshot, notice);
  };
  return service(snapshot, load, allow);
}

/** A service over a knowledge base already in hand (tests, scripts, benchmarks with a base of their own). */
export function knowledgeOf(kb: KnowledgeBase, label = "given knowledge base"): KnowledgeService {
  return service(label, async () => kb);
}

function service(snapshot: string, load: () => Promise<KnowledgeBase>, allow?: AllowList): KnowledgeService {
  let base: Promise<KnowledgeBase> | undefined;
  let classifier: Promise<Classifier> | undefined;
  const service: KnowledgeService = {
    snapshot,
    ...(allow !== undefined ? { allow } : {}),
    base: () => {
      if (base === undefined) {
        base = load();
        base.catch(() => {
          base = undefined;
        });
      }
      return base;
    },
    classifier: () => {
      classifier ??= service.base().then(async (kb) => {
        const { Classifier } = await import("./classifier.ts");
        return Classifier.create(allow !== undefined ? { kb, allow } : { kb });
      });
      return classifier;
    },
  };
  return service;
}
