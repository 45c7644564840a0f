/**
 * Samplers for the generator's distributions, all driven by an {@link Rng} so a seed fixes every draw. They
 * are on the hot path (several draws per generated row), so each is O(1) or a short scan, and nothing
 * allocates per draw.
 */
import type { Rng } from "../util/random.ts";

/** Walker's alias table: O(1) draws from a fixed discrete distribution with many outcomes (categories). */
export class AliasTable {
  private readonly prob: Float64Array;
  private readonly alias: Int32Array;

  /** `weights` need not sum to 1; at least one must be positive. */
  constructor(weights: ArrayLike<number>) {
    const n = weights.length;
    let sum = 0;
    for (let i = 0; i < n; i++) sum += weights[i]!;
    if (!(sum > 0)) throw new Error("AliasTable: no positive weight");
    this.prob = new Float64Array(n);
    this.alias = new Int32Array(n);
    const scaled = new Float64Array(n);
    const small: number[] = [];
    const large: number[] = [];
    for (let i = 0; i < n; i++) {
      scaled[i] = (weights[i]! * n) / sum;
      (scaled[i]! < 1 ? small : large).push(i);
    }
    while (small.length > 0 && large.length > 0) {
      const s = small.pop()!;
      const l = large.pop()!;
      this.prob[s] = scaled[s]!;
      this.alias[s] = l;
      scaled[l] = scaled[l]! + scaled[s]! - 1;
      (scaled[l]! < 1 ? small : large).push(l);
    }
    for (const i of large) this.prob[i] = 1;
    for (const i of small) this.prob[i] = 1;
  }

  /** One draw: an index in [0, weights.length). Uses a single uniform. */
  sample(rng: Rng): number {
    const u = rng.float() * this.prob.length;
    const i = Math.floor(u);
    return u - i < this.prob[i]! ? i : this.alias[i]!;
  }
}

/** A short discrete distribution (≤ a few dozen outcomes), drawn by a scan of its cumulative weights. */
export class Discrete {
  private readonly cum: Float64Array;

  constructor(weights: readonly number[]) {
    this.cum = new Float64Array(weights.length);
    let s = 0;
    for (let i = 0; i < weights.length; i++) {
      s += weights[i]!;
      this.cum[i] = s;
    }
    if (!(s > 0)) throw new Error("Discrete: no positive weight");
    for (let i = 0; i < this.cum.length; i++) this.cum[i] = this.cum[i]! / s;
  }

  /** Index of the outcome whose cumulative weight first exceeds `u` ∈ [0, 1). */
  at(u: number): number {
    const c = this.cum;
    const last = c.length - 1;
    for (let i = 0; i < last; i++) if (u < c[i]!) return i;
    return last;
  }

  sample(rng: Rng): number {
    return this.at(rng.float());
  }
}

const helper1 = (x: number) =>
  Math.abs(x) > 1e-8 ? Math.log1p(x) / x : 1 - x * (0.5 - x * (1 / 3 - 0.25 * x));
const helper2 = (x: number) =>
  Math.abs(x) > 1e-8 ? Math.expm1(x) / x : 1 + x * 0.5 * (1 + (x / 3) * (1 + 0.25 * x));

/**
 * Zipf(s) over ranks 1..n by rejection-inversion (Hörmann & Derflinger 1996, as in Apache Commons RNG): O(1)
 * expected time and no table, so a category can have a vocabulary of millions of virtual queries.
 */
export class Zipf {
  private readonly hX1: number;
  private readonly hN: number;
  private readonly sCut: number;

  constructor(
    readonly n: number,
    private readonly s: number,
  ) {
    this.hX1 = this.hIntegral(1.5) - 1;
    this.hN = this.hIntegral(n + 0.5);
    this.sCut = 2 - this.hIntegralInverse(this.hIntegral(2.5) - this.h(2));
  }

  /** A rank in [1, n]; rank 1 is the most popular. */
  sample(rng: Rng): number {
    for (;;) {
      const u = this.hN + rng.float() * (this.hX1 - this.hN);
      const x = this.hIntegralInverse(u);
      let k = Math.floor(x + 0.5);
      if (k < 1) k = 1;
      else if (k > this.n) k = this.n;
      if (k - x <= this.sCut || u >= this.hIntegral(k + 0.5) - this.h(k)) return k;
    }
  }

  private hIntegral(x: number): number {
    const lx = Math.log(x);
    return helper2((1 - this.s) * lx) * lx;
  }

  private h(x: number): number {
    return Math.exp(-this.s * Math.log(x));
  }

  private hIntegralInverse(x: number): number {
    let t = x * (1 - this.s);
    if (t < -1) t = -1;
    return Math.exp(helper1(t) * x);
  }
}

/** Normal and log-normal draws by Box–Muller, keeping the second variate of each pair. */
export class Gaussian {
  private spare = 0;
  private hasSpare = false;

  constructor(private rng: Rng) {}

  /** Continue from another generator, forgetting the kept variate (one Gaussian serves user after user). */
  reset(rng: Rng): void {
    this.rng = rng;
    this.hasSpare = false;
  }

  normal(): number {
    if (this.hasSpare) {
      this.hasSpare = false;
      return this.spare;
    }
    const u = 1 - this.rng.float();
    const v = this.rng.float();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spare = r * Math.sin(2 * Math.PI * v);
    this.hasSpare = true;
    return r * Math.cos(2 * Math.PI * v);
  }

  logNormal(logMean: number, logSd: number): number {
    return Math.exp(logMean + logSd * this.normal());
  }
}

/** Geometric on {1, 2, …} with the given mean (≥ 1): number of trials up to the first success. */
export function geometric(rng: Rng, mean: number): number {
  if (mean <= 1) return 1;
  const p = 1 / mean;
  return 1 + Math.floor(Math.log(1 - rng.float()) / Math.log(1 - p));
}
