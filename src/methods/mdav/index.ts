/**
 * "mdav": semantic microaggregation of users (Batet, Erola, Sánchez, Castellà-Roca 2013, paper 004).
 *
 * Queries are mapped to ODP categories (§4.1), users are clustered by MDAV with the semantic distance Ds and the
 * medoid centroid (§4.2), and every user of a cluster is released, under her own id, with the cluster's
 * synthetic log: real queries picked at random among those of the categories nearest the cluster's centroid
 * category, in per-user quotas (§4.3). See docs/methods/mdav.md.
 */
import { constants } from "node:buffer";
import { totalmem } from "node:os";
import { Taxonomy } from "../../knowledge/taxonomy.ts";
import type { QueryLog } from "../../log/record.ts";
import { CategorySpace } from "../../semantic/category-space.ts";
import { type ConceptMapper, phraseMapper } from "../../semantic/concept-mapper.ts";
import { labelConceptMapper } from "../../semantic/label-mapper.ts";
import { mapLogs } from "../../semantic/profiles.ts";
import { userLogs } from "../../semantic/user-logs.ts";
import { type Progress, silentProgress } from "../../util/progress.ts";
import type { Rng } from "../../util/random.ts";
import type { Method, MethodContext, Release } from "../method.ts";
import { checkClusterK, checkHeap, heldRows } from "./limits.ts";
import { type MdavParams, mdavDeclaration } from "./meta.ts";
import { semanticPartition, type Variant } from "./partition.ts";
import { buildRelease } from "./release.ts";
import { pickQueries, representativeCategories } from "./representative.ts";

export type { MdavParams } from "./meta.ts";

/**
 * The most bytes the exact variant may give its n×n Float32 distance matrix: the largest typed array this Node
 * can make (4 GiB on 64-bit Node 20), and a quarter of the machine's memory. About 32,000 users here.
 */
export function exactMatrixLimit(): number {
  return Math.min(constants.MAX_LENGTH, totalmem() / 4);
}

/**
 * The variant to run for `users` users: the one asked for, except that the exact variant falls back to the
 * blocked one when its matrix cannot fit (200,000 users would need 160 GB: it died with "Invalid typed array
 * length"). `note` says so in words.
 */
export function effectiveVariant(
  asked: Variant,
  users: number,
  limit = exactMatrixLimit(),
): { variant: Variant; note?: string } {
  const bytes = users * users * 4;
  if (asked !== "exact" || bytes <= limit) return { variant: asked };
  const gb = (b: number) => `${(b / 2 ** 30).toFixed(1)} GiB`;
  return {
    variant: "blocked",
    note:
      `mdav: ${users.toLocaleString("en")} users: the exact variant needs ${gb(bytes)} for its distance matrix ` +
      `(at most ${gb(limit)} here), so the blocked variant runs instead (as with --variant blocked)`,
  };
}

/** The steps of {@link semanticMicroaggregation}, reported in this order to its `onPhase` hook (benchmarks). */
export type MdavPhase = "profiles" | "partition" | "representatives" | "release";

/**
 * Anonymize `input` with semantic MDAV, mapping queries with `mapper` (injectable for tests). `onPhase` is called
 * as each step ends (the benchmark's per-phase timings).
 */
export async function semanticMicroaggregation(
  input: QueryLog,
  params: MdavParams,
  mapper: ConceptMapper,
  rng: Rng,
  progress: Progress = silentProgress,
  onPhase?: (phase: MdavPhase) => void,
  warn?: (message: string) => void,
  exactLimit?: number,
): Promise<Release> {
  const logs = userLogs(input.records);
  const { profiles, pool, unmapped } = mapLogs(logs, mapper);
  onPhase?.("profiles");
  const { variant, note } = effectiveVariant(params.variant, profiles.length, exactLimit);
  if (note) warn?.(note);
  const clusters = await semanticPartition(mapper.space, profiles, {
    k: params.k,
    variant,
    blockSize: params.block,
    workers: params.workers,
    progress,
  });
  onPhase?.("partition");
  const synthetic = clusters.map((members, c) => {
    const cats = representativeCategories(
      mapper.space,
      Array.from(members, (u) => profiles[u]!),
    );
    return pickQueries(cats, pool, rng.derive(`cluster ${c}`));
  });
  onPhase?.("representatives");
  const release = buildRelease(
    input,
    logs,
    clusters,
    synthetic,
    {
      "queries not mapped to ODP": unmapped,
      ...(note ? { "exact variant too large: blocked variant used": 1 } : {}),
    },
    params.k,
  );
  onPhase?.("release");
  return release;
}

/**
 * The mapper for a knowledge base: its phrase lookup when it has one (the classifier's `lookup`), else the
 * stand-in matching phrases to ODP category labels.
 */
export function mapperFor(kb: {
  taxonomy: Taxonomy;
  lookup?: (phrase: string) => readonly number[];
}): ConceptMapper {
  const lookup = kb.lookup;
  if (typeof lookup === "function") {
    return phraseMapper({
      space: CategorySpace.fromTaxonomy(kb.taxonomy),
      lookup: (p) => lookup.call(kb, p),
    });
  }
  return labelConceptMapper(kb.taxonomy);
}

const mappers = new WeakMap<object, ConceptMapper>();
let bundledMapper: ConceptMapper | undefined;

/**
 * The mapper of a method context: the loaded knowledge base, or the bundled taxonomy's labels. One mapper (and
 * its memo of mapped queries) is kept per knowledge-base object.
 */
export async function contextMapper(ctx: MethodContext): Promise<ConceptMapper> {
  if (!ctx.knowledge) {
    bundledMapper ??= labelConceptMapper(Taxonomy.bundled());
    return bundledMapper;
  }
  const kb = (await ctx.knowledge.base()) as Parameters<typeof mapperFor>[0];
  let m = mappers.get(kb);
  if (!m) {
    m = mapperFor(kb);
    mappers.set(kb, m);
  }
  return m;
}

export const mdav: Method<MdavParams> = {
  ...mdavDeclaration,
  parse: (raw) => mdavDeclaration.params.parse(raw),
  async anonymizeByUser(log, params, ctx, out) {
    const { mdavByUser } = await import("./by-user.ts");
    return mdavByUser(log, params, await contextMapper(ctx), ctx.rng, out, ctx.progress, ctx.warn);
  },
  heldRows() {
    return heldRows(this.name);
  },
  async anonymize(input, params, ctx) {
    checkHeap(this.name, input.records.length, true);
    checkClusterK(this.name, params.k, input.records);
    return semanticMicroaggregation(
      input,
      params,
      await contextMapper(ctx),
      ctx.rng,
      ctx.progress,
      undefined,
      ctx.warn,
    );
  },
};
