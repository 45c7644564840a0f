/**
 * The query classifier — paper 000 Algorithm 1, exactly: semantic units → identifier scrub → spelling
 * recommendation → specificity ("entropy": number of web references) → the least-referenced unit that the
 * knowledge base can place is the main unit → its ODP category path.
 *
 * Fallbacks, in order, when the least-referenced unit maps nowhere: the other units by increasing references,
 * then the whole query as one phrase (shortened from the left, paper 004 §4.1.2), then each remaining word
 * (placing.ts places the units, votes and falls back; this module runs the steps and the learned layer).
 * A query with nothing that maps is "unclassified" (category "", id -1): counted, never dropped.
 *
 * Results are cached (LRU) by query text: logs repeat queries heavily (next-page requests, click rows).
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { LRUCache } from "lru-cache";
import { Embeddings, embeddingsSource } from "../knowledge/embeddings.ts";
import { withPhrases } from "../knowledge/extra-phrases.ts";
import { type KnowledgeBase, loadKnowledgeBase } from "../knowledge/knowledge-base.ts";
import type { AllowList } from "../scrub/allow-list.ts";
import type { NameEvidence } from "../scrub/recognizer.ts";
import { createScrubber, type Scrubber, type ScrubberOptions } from "../scrub/scrubber.ts";
import type { PiiSpan, ScrubMode } from "../scrub/types.ts";
import { type Token, textsOf } from "../text/nlp.ts";
import { isStopword } from "../text/stopwords.ts";
import { emptyList, mapList } from "../util/elements.ts";
import type { Evidence, QueryLevel } from "./features.ts";
import { LayerScorer } from "./layer-scorer.ts";
import { ListedPhrases } from "./listed-phrases.ts";
import { argmax, LinearModel, type ModelFile, softmax } from "./model.ts";
import { type Placed, UnitPlacer } from "./placing.ts";
import { idOf, QueryRules } from "./query-rules.ts";
import { isPastYear, SHOPPING_WORDS, shoppingApplies } from "./rules.ts";
import { semanticUnits } from "./units.ts";
import { splitOf, type WordFacts, wordFacts } from "./word-facts.ts";

export interface Classification {
  /** Full ODP path of the category, e.g. `Top/Sports/Soccer`; "" = unclassified. */
  readonly category: string;
  /** Taxonomy id of the category; -1 if none. */
  readonly categoryId: number;
  /** The main semantic unit (after spelling recommendation); "" when unclassified. */
  readonly unit: string;
  /** The query text after identifier scrubbing — what is released. */
  readonly scrubbed: string;
  /** Identifiers found in the query. */
  readonly spans: readonly PiiSpan[];
  /** The scrubbed text with spelling recommendations applied, when any word was changed. */
  readonly corrected?: string;
}

export interface ClassifierOptions {
  kb?: KnowledgeBase;
  /** LRU cache entries (default 100,000; 0 disables the cache). */
  cacheSize?: number;
  /** Scrub mode for identifiers (default "drop"). */
  scrub?: ScrubMode;
  /** Phrases the scrubber leaves in the query (public figures, …), so the classifier reads them. */
  allow?: AllowList;
  /**
   * How the main unit is chosen among the units the knowledge base places: "paper" = Algorithm 1's
   * least-referenced unit; "vote" (default) = the units vote for a top-level branch, each with its
   * specificity, weighed by the branch's search prior; the winning branch's most specific unit is the main
   * unit (see docs/classifier.md).
   */
  mainUnit?: "paper" | "vote";
  /**
   * The learned decision layer: a model (`loadModel`), or null for Algorithm 1's answer alone. Default: the
   * bundled model when the file is there.
   */
  model?: LinearModel | null;
  /** Word vectors for a model with dense features (default: `Embeddings.load()` when the model needs them). */
  embeddings?: Embeddings;
}

/** A query's classification with the learned layer's view of it ({@link Classifier.assess}). */
export interface Assessment {
  readonly classification: Classification;
  /** The probability of each of the classifier's `branches`; undefined when the layer cannot score the query. */
  readonly probs?: Float64Array;
  /** The query rules decide the query (World, Adult, listed sites, …): no other evidence moves it. */
  readonly ruled: boolean;
}

/** Algorithm 1's work on one query. */
interface Analysis {
  readonly scrubbed: string;
  readonly spans: readonly PiiSpan[];
  readonly corrected: string | undefined;
  /** The rule-based answer. */
  readonly found: { id: number; unit: string } | undefined;
  readonly ruled: { id: number; unit: string } | undefined;
  readonly placed: readonly Placed[];
  readonly tokens: readonly Token[];
  readonly facts: readonly WordFacts[];
}

/** The bundled model of the learned decision layer (`querymask kb train` writes it). */
export const BUNDLED_MODEL = fileURLToPath(
  new URL("../../data/model/classifier-model.json", import.meta.url),
);

/**
 * The learned layer's model for a knowledge base: `path`'s, or undefined when the file is absent. Throws when
 * the file was trained on another knowledge-base snapshot.
 */
export function loadModel(kb: KnowledgeBase, path = BUNDLED_MODEL): LinearModel | undefined {
  if (!existsSync(path)) return undefined;
  const file = JSON.parse(readFileSync(path, "utf8")) as ModelFile;
  if (file.embeddings !== undefined && file.embeddings !== embeddingsSource())
    throw new Error(
      `${path}: the classifier model was trained with ${file.embeddings}, but ${embeddingsSource()} is installed; retrain it with \`querymask kb train\``,
    );
  return LinearModel.fromFile(file, kb.contentHash, path);
}

/** Key of the unclassified bucket in the counts of `classifyLog`. */
export const UNCLASSIFIED = "unclassified";

/** The evidence of an analysed query that the query-level features read (`Evidence` without the words' candidates). */
function queryLevelOf(a: Analysis): QueryLevel {
  return {
    placed: a.placed,
    ruled: a.ruled?.id,
    base: a.found?.id,
    words: textsOf(a.tokens),
    spans: a.spans,
  };
}

export class Classifier {
  private readonly cache: LRUCache<string, Classification> | undefined;
  private readonly scrubber: Scrubber;
  private readonly regional: number;
  private readonly rules: QueryRules;
  private readonly placer: UnitPlacer;
  /** The model's classes as top-level taxonomy ids. */
  private readonly modelTops: readonly number[] = [];
  /** The learned layer's scorer (with a model). */
  private readonly layer: LayerScorer | undefined;

  private constructor(
    readonly kb: KnowledgeBase,
    private readonly cacheSize: number,
    private readonly scrubOptions: ScrubberOptions,
    private readonly unitRule: "paper" | "vote",
    private readonly model: LinearModel | undefined,
    private readonly embeddings: Embeddings | undefined,
    private readonly listed: ListedPhrases | undefined,
  ) {
    const scrub = scrubOptions;
    this.cache = cacheSize > 0 ? new LRUCache({ max: cacheSize }) : undefined;
    this.scrubber = createScrubber(scrub);
    this.regional = kb.taxonomy.id("Top/Regional")!;
    this.placer = new UnitPlacer(kb);
    this.rules = new QueryRules(kb);
    this.layer = model === undefined ? undefined : new LayerScorer(model, kb.taxonomy, embeddings);
    if (model !== undefined)
      this.modelTops = model.classes.map((c) => {
        const id = kb.taxonomy.id(`Top/${c}`);
        if (id === undefined) throw new Error(`classifier model: unknown top-level category ${c}`);
        return id;
      });
  }

  /**
   * This classifier with a log's cross-user name evidence given to its scrubber (how many distinct users typed each
   * name: src/scrub/name-users.ts): the same knowledge and model, a cache of its own. For the batch paths, which
   * count it over the whole log first; never for a per-record-only one.
   */
  withNameUsers(nameUsers: NameEvidence | undefined): Classifier {
    if (nameUsers === undefined) return this;
    return new Classifier(
      this.kb,
      this.cacheSize,
      { ...this.scrubOptions, nameUsers },
      this.unitRule,
      this.model,
      this.embeddings,
      this.listed,
    );
  }

  static async create(opts: ClassifierOptions = {}): Promise<Classifier> {
    const snapshot = opts.kb ?? (await loadKnowledgeBase());
    const model = opts.model === undefined ? loadModel(snapshot) : (opts.model ?? undefined);
    // The allow list's people filed under a category are phrases of this classifier's knowledge (the model still
    // applies: the learned layer reads them as it reads the snapshot's people).
    const listed = opts.allow === undefined ? undefined : ListedPhrases.of(opts.allow, snapshot.taxonomy);
    const kb = listed === undefined ? snapshot : withPhrases(snapshot, listed.phrases);
    const embeddings =
      opts.embeddings ?? (model !== undefined && model.denseDims > 0 ? Embeddings.load() : undefined);
    if (model !== undefined && model.denseDims > 0 && embeddings?.dims !== model.denseDims)
      throw new Error(
        `classifier model: ${model.denseDims} dense dimensions, the word vectors have ${embeddings?.dims}`,
      );
    return new Classifier(
      kb,
      opts.cacheSize ?? 100_000,
      { mode: opts.scrub ?? "drop", allow: opts.allow },
      opts.mainUnit ?? "vote",
      model,
      embeddings,
      listed,
    );
  }

  /**
   * Classify one query (deterministic: the same text always gives the same answer). `cached: false` bypasses the
   * classifier's LRU, for callers that keep a memo of their own (src/classify/categorize.ts): two caches of the
   * same answers would hold memory twice and the inner one would only ever miss.
   */
  classify(query: string, cached = true): Classification {
    const cache = cached ? this.cache : undefined;
    const hit = cache?.get(query);
    if (hit !== undefined) return hit;
    const result = this.compute(query);
    cache?.set(query, result);
    return result;
  }

  /**
   * A word's spelling recommendation, or undefined to keep it. Known words are never changed. Memoized with the
   * word's facts (words repeat far more than queries do): a pure function of the word and the knowledge base,
   * so shared by every classifier of the same knowledge base. `facts`: the word's, when the caller has them.
   */
  recommend(word: string, facts: WordFacts = wordFacts(this.kb, word)): string | undefined {
    let r = facts.recommendation;
    if (r === undefined) {
      r = this.computeRecommendation(word, facts) ?? "";
      facts.recommendation = r;
    }
    return r === "" ? undefined : r;
  }

  /**
   * `recommend` for `analyze`, noting in `changed` whether a word was changed: made once rather than a closure
   * per query.
   */
  private readonly recommendNoting = (w: string, f: WordFacts): string | undefined => {
    const r = this.recommend(w, f);
    if (r !== undefined && r !== w) this.changed = true;
    return r;
  };
  /** Set by `recommendNoting` when a word of the query `analyze` reads was changed. */
  private changed = false;

  private computeRecommendation(word: string, facts: WordFacts): string | undefined {
    const sp = this.kb.spelling;
    // (a word of a name the user's allow list files is as they spelled it)
    if (isStopword(word) || this.listed?.words.has(word)) return undefined;
    const listed = sp.listed(word);
    if (listed !== undefined) return listed;
    if (word.length < 4 || !/^[a-z]+$/.test(word) || facts.known) return undefined;
    if (facts.count !== undefined || facts.ids !== undefined) return undefined;
    return splitOf(this.kb, word, facts)?.join(" ") ?? sp.nearest(word);
  }

  private compute(query: string): Classification {
    const a = this.analyze(query);
    return this.result(a, this.model !== undefined ? this.decide(a) : a.found);
  }

  /** The learned layer's branches (the model's classes: `Arts`, `Business`, …), empty without a model. */
  get branches(): readonly string[] {
    return this.model?.classes ?? [];
  }

  /**
   * One analysis of `query`, uncached: its classification (what `classify` gives) and the learned layer's
   * probability of each of its {@link branches} (the softmax of its scores; undefined without a model or when the
   * query has nothing the layer can score), and whether the query rules decide it (their answer stands whatever
   * the probabilities). For a second look at the branch in the light of a query's log (./log-context.ts).
   */
  assess(query: string): Assessment {
    const a = this.analyze(query);
    if (this.model === undefined) return { classification: this.result(a, a.found), ruled: false };
    const s = this.scoreQuery(a);
    const ruled = a.ruled !== undefined;
    // As `decide`: the rules' answer, else the best-scoring branch (read before `s`, a scratch array, is reused).
    const found = ruled ? a.found : s === undefined ? undefined : this.inBranch(a, argmax(s));
    return { classification: this.result(a, found), probs: s === undefined ? undefined : softmax(s), ruled };
  }

  /**
   * `query` classified in the learned layer's branch `branch` (an index of {@link branches}) instead of the one the
   * layer picks: the category within it as `classify` chooses one (see `decide`). The query rules' answer stands;
   * a query the layer cannot score (which `classify` leaves unclassified) is placed in the branch as well — for
   * the log context, whose branch such a query may take from its neighbours. Uncached.
   */
  classifyInBranch(query: string, branch: number): Classification {
    const a = this.analyze(query);
    if (this.model === undefined || a.ruled !== undefined)
      return this.result(a, this.model === undefined ? a.found : this.decide(a));
    return this.result(a, this.inBranch(a, branch));
  }

  /** The classification of an analysed query whose answer is `found`. */
  private result(a: Analysis, found: { id: number; unit: string } | undefined): Classification {
    // (built whole, in the order of the fields of Classification: no intermediate objects per query)
    const category = found === undefined ? "" : this.kb.taxonomy.path(found.id);
    const categoryId = found === undefined ? -1 : found.id;
    const unit = found === undefined ? "" : found.unit;
    const { scrubbed, spans, corrected } = a;
    return corrected !== undefined
      ? { category, categoryId, unit, scrubbed, spans, corrected }
      : { category, categoryId, unit, scrubbed, spans };
  }

  /**
   * Algorithm 1 up to its answer, with what the learned layer reads: the placed units, the query rules' answer
   * and the words.
   */
  private analyze(query: string): Analysis {
    const { text: scrubbed, spans } = this.scrubber.scrub(query);
    this.changed = false;
    const { units, tokens, facts } = semanticUnits(scrubbed, this.kb, this.recommendNoting);
    const corrected = this.changed ? tokens.map((t) => t.text).join(" ") : undefined;
    // A query that is a phrase the allow list files under a category (and function words) is filed there, as the
    // query rules' listed sites are.
    const ruled = this.rules.match(query, tokens, facts) ?? this.listed?.answer(tokens, facts);
    let found = ruled;
    const placed =
      this.unitRule === "vote" || this.model !== undefined ? this.placer.placeUnits(units) : undefined;
    if (found === undefined) {
      found =
        (placed !== undefined && this.unitRule === "vote"
          ? this.placer.voteUnit(placed)
          : this.placer.mainUnit(units)) ??
        this.placer.fallback(textsOf(tokens)) ??
        this.placer.identifierFallback(spans);
      // One place builds the adjusted answer: a path first taken after V8 optimized `analyze` (a past year
      // after a place is rare) costs a bail-out and a recompile of the whole method.
      let adjusted: string | undefined;
      if (found !== undefined && tokens.some((t) => SHOPPING_WORDS.has(t.text))) {
        if (shoppingApplies(this.kb.taxonomy.path(found.id))) adjusted = "Top/Shopping";
      } else if (
        found !== undefined &&
        this.kb.taxonomy.ancestorAt(found.id, 1) === this.regional &&
        tokens.some((t) => isPastYear(t.text))
      )
        adjusted = "Top/Society/History";
      if (found !== undefined && adjusted !== undefined)
        found = { id: idOf(this.kb.taxonomy, adjusted), unit: found.unit };
    }
    return { scrubbed, spans, corrected, found, ruled, placed: placed ?? emptyList(), tokens, facts };
  }

  /**
   * What the learned layer reads of a query (features.ts): for training (`querymask kb train`) and tests.
   * Uncached.
   */
  evidence(query: string): Evidence {
    return this.evidenceOf(this.analyze(query));
  }

  private evidenceOf(a: Analysis): Evidence {
    return { ...queryLevelOf(a), wordIds: mapList(a.facts, (f) => f.ids) };
  }

  /**
   * The learned layer's answer. The query rules' conventions (World, Adult, listed sites, …) stand; otherwise
   * the model picks the top-level branch, and the category within it is the rule-based answer when that is in
   * the branch, else the most specific placed unit's candidate in the branch, else a word's, else the branch
   * itself. A query that neither Algorithm 1 nor the word vectors know anything of stays unclassified.
   * (5-fold CV on the training queries: 60.40% with the rules first, 60.31% without; unknown queries left
   * unclassified cost 0.18 pt — 8 of 56 guessed right.)
   */
  private decide(a: Analysis): { id: number; unit: string } | undefined {
    if (a.ruled !== undefined) return a.found;
    const s = this.scoreQuery(a);
    return s === undefined ? undefined : this.inBranch(a, argmax(s));
  }

  /** The answer within the model's branch `c` (an index of its classes): see `decide`. */
  private inBranch(a: Analysis, c: number): { id: number; unit: string } {
    const tax = this.kb.taxonomy;
    const top = this.modelTops[c]!;
    if (a.found !== undefined && tax.ancestorAt(a.found.id, 1) === top) return a.found;
    let best: Placed | undefined;
    let bestId = -1;
    for (const p of a.placed) {
      if (best !== undefined && p.w <= best.w) continue;
      const id = p.ids.find((c) => tax.ancestorAt(c, 1) === top);
      if (id !== undefined) {
        best = p;
        bestId = id;
      }
    }
    if (best !== undefined) return { id: bestId, unit: best.u.words.join(" ") };
    for (let i = 0; i < a.facts.length; i++) {
      const id = a.facts[i]!.ids?.find((c) => tax.ancestorAt(c, 1) === top);
      if (id !== undefined) return { id, unit: a.tokens[i]!.text };
    }
    return { id: top, unit: "" };
  }

  /** The learned layer's scores of the analysed query (./layer-scorer.ts); undefined when it cannot score it. */
  private scoreQuery(a: Analysis): Float64Array | undefined {
    return this.layer!.score(queryLevelOf(a), a.facts, a.found !== undefined);
  }
}
