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
 * Two kinds of noise are drawn from a source. Values that are released (noisy counts) come from the exact
 * discrete samplers of `discrete.ts`, which read only uniform integers. Values that are only compared with a
 * threshold and never released (the selection strategies' noise) come from stdlib's continuous Laplace and
 * normal samplers fed by {@link Randomness.uniform}; see docs/methods/dp.md ("Noise") for why that is safe.
 */
import { getRandomValues } from "node:crypto";
import { createRequire } from "node:module";
import { fmix32 } from "../../util/hash.ts";
import { Rng } from "../../util/random.ts";

// stdlib's samplers are required on first use (hundreds of CommonJS files; see gaussian.ts).
const require = createRequire(import.meta.url);

export type NoiseSource = "seeded" | "crypto";

/** A source of uniform random bits. */
export interface Randomness {
  /** 32 uniform bits, as an unsigned integer. */
  uint32(): number;
  /** A uniform double in (0, 1) with 53 random bits (never 0). */
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

function fromWords(uint32: () => number, isPrivate: boolean): Randomness {
  return {
    private: isPrivate,
    uint32,
    uniform() {
      for (;;) {
        const u = ((uint32() >>> 5) * 67108864 + (uint32() >>> 6)) / 9007199254740992;
        if (u !== 0) return u;
      }
    },
  };
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

/** Lap(0, b): density exp(−|x|/b) / 2b (stdlib's inverse-CDF sampler). Selection only: never released. */
export function laplaceNoise(random: Randomness, b: number): NoiseSampler {
  if (!(b > 0) || !Number.isFinite(b))
    throw new RangeError(`Laplace scale must be a positive number, got ${b}`);
  const laplace = require("@stdlib/random-base-laplace") as typeof import("@stdlib/random-base-laplace");
  return laplace.factory(0, b, { prng: () => random.uniform() });
}

/** N(0, σ²) (stdlib's improved ziggurat). Selection only: never released. */
export function gaussianNoise(random: Randomness, sigma: number): NoiseSampler {
  if (!(sigma > 0) || !Number.isFinite(sigma))
    throw new RangeError(`Gaussian scale must be a positive number, got ${sigma}`);
  const normal = require("@stdlib/random-base-normal") as typeof import("@stdlib/random-base-normal");
  return normal.factory(0, sigma, { prng: () => random.uniform() });
}
