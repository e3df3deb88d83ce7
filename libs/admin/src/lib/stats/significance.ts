/**
 * Two-proportion z-test (pooled), two-sided: is `successes / trials` of a variant different from
 * the baseline's? Null while either side has no trials, or when nothing varies.
 */
export function twoProportionTest(
  baseline: { successes: number; trials: number },
  variant: { successes: number; trials: number },
): { zScore: number; pValue: number } | null {
  if (baseline.trials === 0 || variant.trials === 0) return null;
  const p1 = baseline.successes / baseline.trials;
  const p2 = variant.successes / variant.trials;
  const pooled = (baseline.successes + variant.successes) / (baseline.trials + variant.trials);
  const standardError = Math.sqrt(pooled * (1 - pooled) * (1 / baseline.trials + 1 / variant.trials));
  if (standardError === 0) return { zScore: 0, pValue: 1 };
  const zScore = (p2 - p1) / standardError;
  return { zScore, pValue: Math.min(1, 2 * (1 - standardNormalCdf(Math.abs(zScore)))) };
}

/** Φ(x) through erf, Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7). */
export function standardNormalCdf(x: number): number {
  const t = 1 / (1 + 0.3275911 * (Math.abs(x) / Math.SQRT2));
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-(x * x) / 2);
  return x >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}
