/**
 * Seeded, reproducible randomness. Every random choice in querymask goes through an {@link Rng} made from the
 * run's `--seed`, so the same seed gives the same output. The generator is xoroshiro128+ from `pure-rand`;
 * its state can be snapshotted and restored (streaming stages need this for crash recovery).
 */
import { uniformFloat64 } from "pure-rand/distribution/uniformFloat64";
import { uniformInt } from "pure-rand/distribution/uniformInt";
import { xoroshiro128plusFromState } from "pure-rand/generator/xoroshiro128plus";
import type { RandomGenerator } from "pure-rand/types/RandomGenerator";
import { fmix32, hashString } from "./hash.ts";

export class Rng {
  private constructor(private readonly gen: RandomGenerator) {}

  /**
   * A generator for `seed` (any safe integer). The seed is spread over the 128-bit state with SplitMix32, so
   * nearby seeds (1, 2, 3…) give unrelated streams from the first draw on: seeding xoroshiro128+ with the raw
   * seed makes its first outputs track the seed.
   */
  static fromSeed(seed: number): Rng {
    let x = (seed | 0) ^ Math.floor(seed / 2 ** 32);
    const state: number[] = [];
    for (let i = 0; i < 4; i++) {
      x = (x + 0x9e3779b9) | 0;
      let z = x;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      state.push((z ^ (z >>> 16)) | 0);
    }
    if (!state.some((w) => w !== 0)) state[0] = 1; // the all-zero state is a fixed point
    return new Rng(xoroshiro128plusFromState(state));
  }

  /** Restore a generator from {@link Rng.state}. */
  static fromState(state: readonly number[]): Rng {
    return new Rng(xoroshiro128plusFromState(state));
  }

  /** Serializable state: `Rng.fromState(r.state())` continues exactly where `r` is. */
  state(): number[] {
    return [...this.gen.getState()];
  }

  /**
   * A child stream named by `label`, a function of this generator's current state and the label only: it draws
   * nothing from this stream, so deriving (or not deriving) one child never changes another child or the parent.
   * This is how independent consumers share a run's seed — one stream per yardstick, per attack setting, per
   * worker — so that adding a consumer, or changing their order, leaves every other consumer's draws unchanged.
   */
  derive(label: string): Rng {
    const s = this.gen.getState();
    const h = hashString(label);
    const state: number[] = [];
    for (let i = 0; i < 4; i++) {
      const here = (s[i] ?? 0) >>> 0;
      const next = (s[(i + 1) & 3] ?? 0) >>> 0;
      state.push(
        fmix32((here ^ fmix32((h + Math.imul(i + 1, 0x9e3779b9)) >>> 0) ^ fmix32(next + h)) >>> 0) | 0,
      );
    }
    if (!state.some((w) => w !== 0)) state[0] = 1;
    return new Rng(xoroshiro128plusFromState(state));
  }

  /**
   * A sub-stream seeded by one draw of this stream (so it consumes the parent: the n-th fork depends on every
   * draw before it). Only the log generator (src/synth) still uses it, for its users generated in sequence, so
   * that a generated log for a given `--seed` stays byte-identical; everything else uses {@link Rng.derive}.
   */
  fork(label: number): Rng {
    return Rng.fromSeed((this.gen.next() ^ Math.imul(label + 1, 0x9e3779b1)) | 0);
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    if (n <= 1) return 0;
    return uniformInt(this.gen, 0, n - 1);
  }

  /** Uniform integer in [from, to]. */
  intBetween(from: number, to: number): number {
    return uniformInt(this.gen, from, to);
  }

  /** Uniform float in [0, 1). */
  float(): number {
    return uniformFloat64(this.gen);
  }

  /** A uniformly chosen element; throws on an empty array. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("Rng.pick: empty array");
    return items[this.int(items.length)] as T;
  }

  /** Fisher–Yates shuffle in place; returns the array. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const t = items[i] as T;
      items[i] = items[j] as T;
      items[j] = t;
    }
    return items;
  }
}

/**
 * The first index whose cumulative weight reaches `x` (`cum` non-decreasing; `x` in [0, last weight)): a
 * weighted draw when `x` is uniform over the total.
 */
export function searchCumulative(cum: ArrayLike<number>, x: number): number {
  let lo = 0;
  let hi = cum.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cum[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
