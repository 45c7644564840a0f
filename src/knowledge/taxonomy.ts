/**
 * The ODP (DMOZ) category taxonomy: `Top/L1/L2/L3` paths as integer ids with parent links, depth, and the AOL
 * query prior of each category. Loaded from the bundled skeleton (data/odp/background_information.tsv, MIT,
 * derived from DMOZ CC BY 3.0) and completed with the top-level categories it lacks.
 *
 * Ids are dense (0 = `Top`), so per-category data can live in typed arrays.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** ODP top-level categories missing from the skeleton, added so every query has a home. */
export const MISSING_TOP_LEVELS = ["Regional", "Kids_and_Teens", "Adult", "World"] as const;

export const BUNDLED_TAXONOMY = fileURLToPath(
  new URL("../../data/odp/background_information.tsv", import.meta.url),
);

export class Taxonomy {
  private readonly paths: string[] = [];
  private readonly parents: number[] = [];
  private readonly depths: number[] = [];
  private readonly priors: number[] = [];
  private readonly childIds: number[][] = [];
  private readonly byPath = new Map<string, number>();

  private constructor() {
    this.add("Top", -1, 0);
  }

  /** Parse `path TAB count` lines. Every ancestor of a listed path is created too. */
  static fromTsv(text: string, source = "<taxonomy>"): Taxonomy {
    const t = new Taxonomy();
    const lines = text.split("\n");
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!.trimEnd();
      if (line === "") continue;
      const [path, count] = line.split("\t");
      if (!path?.startsWith("Top") || (count !== undefined && !/^\d+$/.test(count))) {
        throw new Error(`${source}:${i + 1}: expected 'Top/... TAB count', got ${JSON.stringify(line)}`);
      }
      const id = t.ensure(path);
      t.priors[id] = (t.priors[id] ?? 0) + Number(count ?? 0);
    }
    for (const top of MISSING_TOP_LEVELS) t.ensure(`Top/${top}`);
    return t;
  }

  /** The bundled ODP skeleton plus the missing top levels. */
  static bundled(): Taxonomy {
    return Taxonomy.fromTsv(readFileSync(BUNDLED_TAXONOMY, "utf8"), BUNDLED_TAXONOMY);
  }

  get size(): number {
    return this.paths.length;
  }

  /** Id of a path such as `Top/Sports/Soccer` (a leading `Top/` is optional), or undefined. */
  id(path: string): number | undefined {
    return this.byPath.get(path.startsWith("Top") ? path : `Top/${path}`);
  }

  path(id: number): string {
    return this.paths[id]!;
  }

  /** Last path component, e.g. `Soccer`. */
  label(id: number): string {
    const p = this.paths[id]!;
    return p.slice(p.lastIndexOf("/") + 1);
  }

  /** Parent id; -1 for the root. */
  parent(id: number): number {
    return this.parents[id]!;
  }

  /** 0 for `Top`, 1 for a top-level category such as `Top/Arts`. */
  depth(id: number): number {
    return this.depths[id]!;
  }

  /** AOL queries assigned to this category in the skeleton (own count, not including descendants). */
  prior(id: number): number {
    return this.priors[id] ?? 0;
  }

  children(id: number): readonly number[] {
    return this.childIds[id]!;
  }

  /** Top-level categories (depth 1), in path order. */
  topLevels(): number[] {
    return [...this.children(0)].sort((a, b) => (this.path(a) < this.path(b) ? -1 : 1));
  }

  /** The ancestor of `id` at `depth` (itself if it is not deeper). */
  ancestorAt(id: number, depth: number): number {
    while (this.depths[id]! > depth) id = this.parents[id]!;
    return id;
  }

  /** Ids from the root down to `id`, inclusive. */
  lineage(id: number): number[] {
    const out: number[] = [];
    for (let c = id; c >= 0; c = this.parents[c]!) out.push(c);
    return out.reverse();
  }

  /** Lowest common ancestor. */
  lca(a: number, b: number): number {
    while (this.depths[a]! > this.depths[b]!) a = this.parents[a]!;
    while (this.depths[b]! > this.depths[a]!) b = this.parents[b]!;
    while (a !== b) {
      a = this.parents[a]!;
      b = this.parents[b]!;
    }
    return a;
  }

  /** All ids, root first, parents before children. */
  ids(): number[] {
    return this.paths.map((_, i) => i);
  }

  private ensure(path: string): number {
    const known = this.byPath.get(path);
    if (known !== undefined) return known;
    const cut = path.lastIndexOf("/");
    const parent = cut < 0 ? 0 : this.ensure(path.slice(0, cut));
    return this.add(path, parent, this.depths[parent]! + 1);
  }

  private add(path: string, parent: number, depth: number): number {
    const id = this.paths.length;
    this.paths.push(path);
    this.parents.push(parent);
    this.depths.push(depth);
    this.priors.push(0);
    this.childIds.push([]);
    if (parent >= 0) this.childIds[parent]!.push(id);
    this.byPath.set(path, id);
    return id;
  }
}
