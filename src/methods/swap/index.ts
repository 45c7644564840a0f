/**
 * "swap": the category-bucket swap anonymizer of Pàmies-Estrems, Castellà-Roca and Viejo (paper 000,
 * Algorithm 2), with the authors' later refinements (never a query under its own author, deeper category
 * buckets). Batch use ({@link swap.anonymize}) and streaming use ({@link swap.createStage}) run the same
 * {@link SwapCore}; see docs/methods/swap.md for the design decisions (events as units, released time, end policy).
 */

import type { Categorize } from "../../classify/categorize.ts";
import type { LogRecord } from "../../log/record.ts";
import type { Rng } from "../../util/random.ts";
import { type Guarantee, type Method, NO_GUARANTEE, type Release } from "../method.ts";
import { type SwapParams, swapDeclaration } from "./meta.ts";
import { SwapRowStage } from "./rows.ts";
import { SwapStage, type SwapStageSnapshot } from "./stage.ts";

/** The depth rule, for the attacks that replay it (attacks/deanonymizer.ts): swap's public surface. */
export { ancestorKeys, type Bucket, BucketTree } from "./buckets.ts";

/**
 * Anonymize a whole log held in memory: the record stage run over the log in time order — a stable sort by time,
 * exactly the order the CLI's stream gets from `sortByTime` (src/stream/time-order.ts) — as a search engine's
 * stream would deliver it, whatever the file order (AOL files are sorted by user). `origin[i]` is the input index
 * of released record i. Records without a category are classified on the way by `categorize`.
 */
export function swapRecords(
  input: readonly LogRecord[],
  params: SwapParams,
  rng: Rng,
  progress?: { tick(n?: number): void },
  categorize?: Categorize,
): {
  records: LogRecord[];
  origin: Int32Array;
  counts: Record<string, number>;
  /** Each bucket's key and final k. */
  buckets: [string, number][];
} {
  const order = new Uint32Array(input.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  order.sort((a, b) => input[a]!.time - input[b]!.time || a - b);
  const originList: number[] = [];
  const stage = new SwapStage(params, rng, categorize, undefined, (e) => {
    for (let r = 0; r < e.rows.length; r++) originList.push(order[e.tag + r]!);
  });
  const records: LogRecord[] = [];
  const step = 65_536;
  for (let s = 0; s < order.length; s += step) {
    const batch: LogRecord[] = [];
    for (let i = s; i < Math.min(order.length, s + step); i++) batch.push(input[order[i]!]!);
    for (const r of stage.push(batch)) records.push(r);
    progress?.tick(batch.length);
  }
  for (const r of stage.flush()) records.push(r);
  return { records, origin: Int32Array.from(originList), counts: stage.counts(), buckets: stage.bucketKs() };
}

/**
 * What a swap release keeps: every event released from a bucket of ≥ k events under a user who is not its
 * author. Only when nothing is released from a smaller bucket — not with a bounded delay, which forces events
 * out early, nor with `end: "release"`, which pairs the events left at the end of the stream (docs/methods/swap.md) —
 * and never to its own author.
 */
function claims(params: SwapParams): Guarantee {
  return params.ownAuthor || params.maxDelay > 0 || params.end !== "suppress"
    ? NO_GUARANTEE
    : { model: "k-bucket", k: params.k };
}

export const swap: Method<SwapParams> = {
  ...swapDeclaration,
  parse: (raw) => swapDeclaration.params.parse(raw),

  async anonymize(input, params, ctx): Promise<Release> {
    const records = input.records;
    // Loaded here only: the CLI's raw-row path starts without the classifier's modules.
    const { isClassified, loadCategorize } = await import("../../classify/categorize.ts");
    let categorize: Categorize | undefined;
    if (!isClassified(records)) {
      const { ClickUsers } = await import("../../scrub/click-url.ts");
      categorize = await loadCategorize(ctx.knowledge, new ClickUsers().add(records));
    }
    ctx.progress.start("swap", records.length);
    const out = swapRecords(records, params, ctx.rng.derive("swap"), ctx.progress, categorize);
    ctx.progress.stop();
    return {
      log: { records: out.records, format: input.format, classified: input.classified },
      origin: out.origin,
      counts: out.counts,
      guarantee: claims(params),
    };
  },

  stageGuarantee: claims,

  async createStage(params, ctx, opts = {}) {
    const categorize = opts.classified
      ? undefined
      : await (await import("../../classify/categorize.ts")).loadCategorize(ctx.knowledge, opts.clickUsers);
    return new SwapStage(
      params,
      ctx.rng.derive("swap"),
      categorize,
      opts.snapshot as SwapStageSnapshot | undefined,
    );
  },

  // An unclassified log is classified on the way, which rewrites records: the record stage does that.
  createRowStage: (params, ctx, out, opts) =>
    opts.classified
      ? new SwapRowStage(params, ctx.rng.derive("swap"), out, opts.snapshot as SwapStageSnapshot | undefined)
      : undefined,
};
