/**
 * The profile exposure level (PEL) of paper 002 / Erola et al. 2011: for one user, PEL = I(X;Y) / H(X) × 100,
 * where X is the user's real category profile and Y the category profile the engine builds for the user's id.
 * 100 = the engine's profile tells everything about the real one; 0 = nothing.
 *
 * The sources define PEL by that ratio but do not say how X and Y are drawn jointly, so querymask uses this
 * coupling (docs/methods/clientside.md, "PEL"): draw one event e from those the engine files under the user's id.
 * Y is e's category. If the user wrote e, X is the same category (the engine holds the real thing); if someone
 * else wrote it, X is an independent draw from the user's real profile (a stranger's query says nothing about
 * her). With a = own events and f = foreign events under the id (n = a + f):
 *
 *   P(x, y) = (a/n) · pOwn(x) · [x = y]  +  (f/n) · pReal(x) · pForeign(y)
 *
 * An id holding only the user's own queries gives X = Y, so PEL = 100 (every query sent by its author, in
 * particular); an id holding none of them gives X independent of Y, so PEL = 0 (also when the engine holds
 * nothing under the id). H(X) is the entropy of X's marginal, so 0 ≤ PEL ≤ 100 always. A user whose queries all
 * fall in one category has no PEL (undefined, counted apart). Unclassified events ("" category) are left out of
 * the profiles.
 */

/** One query event as the engine files it. */
export interface FiledEvent {
  /** Who wrote it. */
  readonly author: string;
  /** The id the engine files it under (the submitter, or the author when a colluder reports it). */
  readonly filed: string;
  /** Its category at the profile depth; "" = unclassified. */
  readonly category: string;
}

type Counts = Map<string, number>;

function add(m: Map<string, Counts>, user: string, cat: string): void {
  let c = m.get(user);
  if (!c) {
    c = new Map();
    m.set(user, c);
  }
  c.set(cat, (c.get(cat) ?? 0) + 1);
}

const total = (c: Counts | undefined) => {
  let s = 0;
  for (const v of c?.values() ?? []) s += v;
  return s;
};

/** Shannon entropy in bits of a probability map. */
function entropy(p: ReadonlyMap<string, number>): number {
  let h = 0;
  for (const v of p.values()) if (v > 0) h -= v * Math.log2(v);
  return h;
}

function normalise(c: Counts | undefined, n: number): Map<string, number> {
  const p = new Map<string, number>();
  if (c && n > 0) for (const [k, v] of c) p.set(k, v / n);
  return p;
}

/**
 * PEL of one user from category counts: `real` (everything the user wrote), `own` (what the engine files under
 * her id that she wrote) and `foreign` (what it files under her id that others wrote). Undefined exactly when
 * the user's real profile is a single category (or empty).
 */
export function pelFromCounts(
  real: Counts,
  own: Counts | undefined,
  foreign: Counts | undefined,
): number | undefined {
  const nReal = total(real);
  const pReal = normalise(real, nReal);
  if (nReal === 0 || entropy(pReal) === 0) return undefined;
  const a = total(own);
  const f = total(foreign);
  const n = a + f;
  if (a === 0) return 0; // nothing of hers under her id (or nothing at all): X independent of Y
  if (f === 0) return 100; // everything under her id is hers: X = Y
  const pOwn = normalise(own, a);
  const pForeign = normalise(foreign, f);
  const wa = a / n;
  const wf = f / n;
  const px = new Map<string, number>();
  const py = new Map<string, number>();
  for (const [k, v] of pOwn) {
    px.set(k, (px.get(k) ?? 0) + wa * v);
    py.set(k, (py.get(k) ?? 0) + wa * v);
  }
  for (const [k, v] of pReal) px.set(k, (px.get(k) ?? 0) + wf * v);
  for (const [k, v] of pForeign) py.set(k, (py.get(k) ?? 0) + wf * v);
  const hx = entropy(px);
  if (hx === 0) return undefined;
  let mi = 0;
  const term = (pxy: number, x: string, y: string) => {
    if (pxy > 0) mi += pxy * Math.log2(pxy / (px.get(x)! * py.get(y)!));
  };
  // Joint mass: the diagonal own part plus the independent foreign part, summed per cell.
  for (const x of px.keys()) {
    for (const y of py.keys()) {
      const diag = x === y ? wa * (pOwn.get(x) ?? 0) : 0;
      const off = wf * (pReal.get(x) ?? 0) * (pForeign.get(y) ?? 0);
      term(diag + off, x, y);
    }
  }
  return Math.min(100, Math.max(0, (100 * mi) / hx));
}

/** PEL of every author (undefined where it has none), from the engine's view of each event. */
export function profileExposure(events: Iterable<FiledEvent>): Map<string, number | undefined> {
  const real = new Map<string, Counts>();
  const own = new Map<string, Counts>();
  const foreign = new Map<string, Counts>();
  const authors = new Set<string>();
  for (const e of events) {
    authors.add(e.author);
    if (e.category === "") continue;
    add(real, e.author, e.category);
    add(e.author === e.filed ? own : foreign, e.filed, e.category);
  }
  const out = new Map<string, number | undefined>();
  for (const u of authors) {
    const r = real.get(u);
    out.set(u, r ? pelFromCounts(r, own.get(u), foreign.get(u)) : undefined);
  }
  return out;
}

/** A category path cut to `depth` levels below the root: `Top/Sports/Soccer` at depth 1 → `Top/Sports`. */
export function categoryAtDepth(category: string | undefined, depth: number): string {
  if (!category) return "";
  const parts = category.split("/");
  const root = parts[0] === "Top" ? 1 : 0;
  return parts.slice(0, root + depth).join("/");
}

/** Linear-interpolation quantile of ascending `sorted` (q in [0, 1]); NaN when empty. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}
