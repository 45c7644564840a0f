/**
 * Where the dp method's randomness comes from, `--noise`:
 *
 * - "crypto" (default): the OS's cryptographic generator (`crypto.getRandomValues`, read 64 KiB at a time). Not
 *   reproducible — the point: only this source makes a release differentially private.
 * - "seeded": querymask's {@link Rng} from `--seed`, for experiments and tests that must be reproducible. The
 *   Rng's state is first re-mixed ({@link remixed}): xoroshiro128+ seeded from a small integer gives a first output
 *   near 1 (seed 1 → 0.99999998) and outputs that stay correlated with the seed for a few draws. **Anyone who
 *   knows or guesses the seed (32 bits) can recompute the noise and subtract it.**
 *
 * Every random value of a release is computed from the source's 32-bit words alone — no sampler keeps a state of
 * its own (a seeded generator inside a sampler would make the noise only as unpredictable as its seed). Values
 * that are released (noisy counts) come from the exact discrete samplers of `discrete.ts`. Values that are only
 * compared with a threshold (the selection strategies' noise) come from {@link gaussianNoise} and
 * {@link laplaceNoise}: inversion of a full-precision uniform ({@link Randomness.uniform}), so each tail event
 * {noise > x} has the probability of the ideal distribution to the accuracy of one special function
 * (docs/methods/dp.md, "Noise").
 */
import { getRandomValues } from "node:crypto";
import { fmix32 } from "../../util/hash.ts";
import { Rng } from "../../util/random.ts";
import { erfcinv } from "./gaussian.ts";

export type NoiseSource = "seeded" | "crypto";

/** A source of uniform random bits. */
export interface Randomness {
  /** 32 uniform bits, as an unsigned integer. */
  uint32(): number;
  /**
   * A uniform double in (0, 1) at full precision: P(U < x) = x for every double x in (0, 1], down to 2⁻¹⁰⁰⁰
   * (a binade chosen by fair bits, then 52 bits of mantissa), so even a tail probability of 1e-30 is drawn as
   * itself, not rounded to a multiple of 2⁻⁵³.
   */
  uniform(): number;
  /** True for the OS's cryptographic generator. */
  readonly private: boolean;
}

/** A child generator with a well-mixed state, derived deterministically from `rng`. */
function remixed(rng: Rng): Rng {
  const state = [0, 1, 2, 3].map(
    (i) => fmix32(rng.intBetween(-0x80000000, 0x7fffffff) ^ Math.imul(i + 1, 0x9e3779b9)) | 0,
  );
  if (state.every((x): boolean => x === 0)) state[0] = 1;
  const out = Rng.fromState(state);
  for (let i = 0; i < 32; i++) out.float();
  return out;
}

/** 2⁻⁵², exactly. */
const TWO_M52 = 2 ** -52;
/** Where the binade search stops: below 2⁻¹⁰⁰⁰ lies probability 2⁻¹⁰⁰⁰, far below any δ. */
const LOWEST_BINADE = 1000;

/** A full-precision uniform in (0, 1) from 32-bit words (see {@link Randomness.uniform}). */
export function fullUniform(uint32: () => number): number {
  // The binade [2^-(z+1), 2^-z) has probability 2^-(z+1): z is the number of zero bits before the first one.
  let z = 0;
  for (;;) {
    const w = uint32();
    if (w !== 0) {
      z += Math.clz32(w);
      break;
    }
    z += 32;
    if (z >= LOWEST_BINADE) {
      z = LOWEST_BINADE;
      break;
    }
  }
  const mantissa = (uint32() >>> 12) * 2 ** 32 + uint32(); // 20 + 32 bits
  return (1 + mantissa * TWO_M52) * 2 ** -(z + 1);
}

function fromWords(uint32: () => number, isPrivate: boolean): Randomness {
  return { private: isPrivate, uint32, uniform: () => fullUniform(uint32) };
}

/** The OS's cryptographic generator, buffered. */
export function cryptoRandomness(): Randomness {
  const buf = new Uint32Array(16384);
  let next = buf.length;
  return fromWords(() => {
    if (next === buf.length) {
      getRandomValues(buf);
      next = 0;
    }
    return buf[next++]!;
  }, true);
}

/** Reproducible bits from `rng` (re-mixed first): experiments only, NOT private. */
export function seededRandomness(rng: Rng): Randomness {
  const r = remixed(rng);
  return fromWords(() => r.intBetween(-0x80000000, 0x7fffffff) >>> 0, false);
}

export function randomness(source: NoiseSource, rng: Rng): Randomness {
  return source === "crypto" ? cryptoRandomness() : seededRandomness(rng);
}

/** A sampler of real-valued noise. */
export type NoiseSampler = () => number;

/** A fair sign from one word's top bit. */
const sign = (random: Randomness): number => (random.uint32() >= 0x80000000 ? -1 : 1);

/**
 * Lap(0, b): density exp(−|x|/b) / 2b, by inversion: |x| = −b·ln U with U full-precision uniform, so
 * P(|x| > t) = P(U < e^(−t/b)) = e^(−t/b) up to the rounding of one logarithm. Selection only: never released.
 */
export function laplaceNoise(random: Randomness, b: number): NoiseSampler {
  if (!(b > 0) || !Number.isFinite(b))
    throw new RangeError(`Laplace scale must be a positive number, got ${b}`);
  return () => sign(random) * -b * Math.log(random.uniform());
}

/**
 * N(0, σ²) by inversion: |x| = σ·√2·erfc⁻¹(U) with U full-precision uniform, so P(|x| > t) = P(U < erfc(t/σ√2))
 * = 2Φ(−t/σ) up to erfc⁻¹'s accuracy (relative ~1e-15 in its argument), deep into the tail (U reaches 2⁻¹⁰⁰⁰,
 * |x| ≈ 37σ). Every bit comes from `random`. Selection only: never released.
 */
export function gaussianNoise(random: Randomness, sigma: number): NoiseSampler {
  if (!(sigma > 0) || !Number.isFinite(sigma))
    throw new RangeError(`Gaussian scale must be a positive number, got ${sigma}`);
  const scale = sigma * Math.SQRT2;
  return () => sign(random) * scale * erfcinv(random.uniform());
}
