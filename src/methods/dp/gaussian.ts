/**
 * The Gaussian tools the thresholds need: the standard normal CDF Φ and its upper quantile, accurate in the far
 * tail (stdlib's erfc and erfcinv), and the analytic Gaussian mechanism of B. Balle, Y.-X. Wang, "Improving the
 * Gaussian Mechanism for Differential Privacy: Analytical Calibration and Optimal Denoising", ICML 2018.
 */
import { createRequire } from "node:module";

// stdlib's packages are ~200 CommonJS files: required on first use, so commands that list the dp method among
// the others (`querymask anonymize --method swap …`) do not pay for loading them.
const require = createRequire(import.meta.url);
let erfcFn: typeof import("@stdlib/math-base-special-erfc") | undefined;
let erfcinvFn: typeof import("@stdlib/math-base-special-erfcinv") | undefined;

/** Φ(x), the standard normal CDF. */
export function normalCdf(x: number): number {
  erfcFn ??= require("@stdlib/math-base-special-erfc") as typeof import("@stdlib/math-base-special-erfc");
  return 0.5 * erfcFn(-x / Math.SQRT2);
}

/** erfc⁻¹(x) for 0 < x < 2 (stdlib's rational approximations). */
export function erfcinv(x: number): number {
  erfcinvFn ??=
    require("@stdlib/math-base-special-erfcinv") as typeof import("@stdlib/math-base-special-erfcinv");
  return erfcinvFn(x);
}

/** Φ⁻¹(1 − q) for 0 < q < 1, accurate for tiny q (no 1 − q rounding). */
export function upperNormalQuantile(q: number): number {
  return Math.SQRT2 * erfcinv(2 * q);
}

/**
 * The δ of the Gaussian mechanism N(0, σ²) at ε for ℓ2 sensitivity Δ (Balle & Wang, Theorem 8, exact):
 * δ(σ) = Φ(Δ/(2σ) − εσ/Δ) − e^ε·Φ(−Δ/(2σ) − εσ/Δ).
 */
export function gaussianDelta(epsilon: number, sigma: number, sensitivity: number): number {
  const a = sensitivity / (2 * sigma);
  const b = (epsilon * sigma) / sensitivity;
  const tail = normalCdf(-a - b);
  const second = tail > 0 ? Math.exp(epsilon + Math.log(tail)) : 0;
  return Math.max(0, normalCdf(a - b) - second);
}

/**
 * The smallest σ (to a relative 1e-12, rounded up) for which N(0, σ²) noise on a query of ℓ2 sensitivity Δ is
 * (ε, δ)-DP, by bisection on the exact condition {@link gaussianDelta} ≤ δ (δ(σ) decreases in σ).
 */
export function analyticGaussianSigma(epsilon: number, delta: number, sensitivity = 1): number {
  if (!(epsilon > 0 && delta > 0 && delta < 1 && sensitivity > 0)) {
    throw new RangeError(
      `analytic Gaussian: need ε > 0, 0 < δ < 1, Δ > 0 (got ${epsilon}, ${delta}, ${sensitivity})`,
    );
  }
  let hi = sensitivity;
  while (gaussianDelta(epsilon, hi, sensitivity) > delta) hi *= 2;
  let lo = hi / 2;
  while (gaussianDelta(epsilon, lo, sensitivity) <= delta && lo > 1e-300) lo /= 2;
  while (hi - lo > 1e-12 * hi) {
    const mid = (lo + hi) / 2;
    if (gaussianDelta(epsilon, mid, sensitivity) <= delta) hi = mid;
    else lo = mid;
  }
  return hi;
}
