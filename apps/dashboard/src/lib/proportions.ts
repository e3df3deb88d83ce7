/** The Wilson score interval of `successes / trials` at 95 % confidence, as fractions; null without trials. */
export function wilsonInterval(successes: number, trials: number): [number, number] | null {
  if (trials === 0) return null;
  const z = 1.959964;
  const p = successes / trials;
  const denominator = 1 + (z * z) / trials;
  const centre = (p + (z * z) / (2 * trials)) / denominator;
  const margin = (z * Math.sqrt((p * (1 - p)) / trials + (z * z) / (4 * trials * trials))) / denominator;
  return [Math.max(0, centre - margin), Math.min(1, centre + margin)];
}

export const percent = (fraction: number, digits = 1) => `${(fraction * 100).toFixed(digits)} %`;
