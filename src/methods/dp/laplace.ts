/**
 * Laplace noise for the DP release, drawn by `@stdlib/random-base-laplace` (stdlib's tested sampler: inverse CDF,
 * μ − b·sgn(u)·ln(1 − 2|u|) with u uniform in [−½, ½)), fed by one of two uniform sources:
 *
 * - "seeded": querymask's {@link Rng}, so the same `--seed` gives the same noise (experiments, tests). The Rng's
 *   state is first re-mixed ({@link remixed}): xoroshiro128+ seeded from a small integer gives a first output
 *   near 1 (seed 1 → 0.99999998) and outputs that stay correlated with the seed for a few draws. **Anyone who
 *   knows or guesses the seed (32 bits) can recompute the noise and subtract it**: a seeded release is for
 *   experiments only.
 * - "crypto": `crypto.getRandomValues`, not reproducible; the one to use for a real release.
 *
 * A uniform draw of exactly 0 is redrawn: it would make ln(0) = −∞. Floating-point caveat: an inverse-CDF sampler
 * over doubles does not produce every real, and the gaps in its outputs can in principle leak the un-noised value
 * (Mironov, CCS 2012); a snapping or discrete-Laplace mechanism would close this. See docs/dp.md.
 */
import { getRandomValues } from "node:crypto";
import { createRequire } from "node:module";
import { fmix32 } from "../../util/hash.ts";
import { Rng } from "../../util/random.ts";

/** A sampler of Lap(0, b) noise: density exp(−|x|/b) / 2b. */
export type NoiseSampler = () => number;

export type NoiseSource = "seeded" | "crypto";

/** A child generator with a well-mixed state, derived deterministically from `rng`. */
export function remixed(rng: Rng): Rng {
  const state = [0, 1, 2, 3].map(
    (i) => fmix32(rng.intBetween(-0x80000000, 0x7fffffff) ^ Math.imul(i + 1, 0x9e3779b9)) | 0,
  );
  if (state.every((x): boolean => x === 0)) state[0] = 1;
  const out = Rng.fromState(state);
  for (let i = 0; i < 32; i++) out.float();
  return out;
}

/** Uniform doubles in (0, 1) from the OS's cryptographic generator, 53 random bits each. */
function cryptoUniform(): () => number {
  const buf = new Uint32Array(2);
  return () => {
    for (;;) {
      getRandomValues(buf);
      const u = ((buf[0]! >>> 5) * 67108864 + (buf[1]! >>> 6)) / 9007199254740992;
      if (u !== 0) return u;
    }
  };
}

/** Lap(0, b) noise from `source` ("seeded" draws from `rng`). */
export function laplaceNoise(rng: Rng, b: number, source: NoiseSource = "seeded"): NoiseSampler {
  if (!(b > 0) || !Number.isFinite(b))
    throw new RangeError(`Laplace scale must be a positive number, got ${b}`);
  let uniform: () => number;
  if (source === "crypto") {
    uniform = cryptoUniform();
  } else {
    const r = remixed(rng);
    uniform = () => {
      let u = r.float();
      while (u === 0) u = r.float();
      return u;
    };
  }
  // Required on use, not imported: stdlib's module tree costs ~60 ms to load, paid by every CLI command that
  // lists the methods.
  const laplace = createRequire(import.meta.url)(
    "@stdlib/random-base-laplace",
  ) as typeof import("@stdlib/random-base-laplace");
  return laplace.factory(0, b, { prng: uniform });
}
