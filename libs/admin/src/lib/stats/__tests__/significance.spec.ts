import { standardNormalCdf, twoProportionTest } from '../significance';

describe('two-proportion significance', () => {
  it('computes Φ to within 1e-6 of known values', () => {
    expect(standardNormalCdf(0)).toBeCloseTo(0.5, 6);
    expect(standardNormalCdf(1.959964)).toBeCloseTo(0.975, 6);
    expect(standardNormalCdf(-1.644854)).toBeCloseTo(0.05, 6);
    expect(standardNormalCdf(3)).toBeCloseTo(0.998650, 6);
  });

  it('matches a worked example: 200/1000 against 250/1000', () => {
    // pooled p = 0.225; se = sqrt(0.225 * 0.775 * 0.002) = 0.018675; z = 0.05 / 0.018675 = 2.6774
    const result = twoProportionTest({ successes: 200, trials: 1000 }, { successes: 250, trials: 1000 });
    expect(result?.zScore).toBeCloseTo(2.6774, 3);
    expect(result?.pValue).toBeCloseTo(0.00742, 4);
  });

  it('tells noise from a winner', () => {
    expect(twoProportionTest({ successes: 10, trials: 100 }, { successes: 12, trials: 100 })?.pValue).toBeGreaterThan(0.05);
    expect(twoProportionTest({ successes: 100, trials: 1000 }, { successes: 150, trials: 1000 })?.pValue).toBeLessThan(0.05);
  });

  it('is symmetric in sign and has no answer without trials', () => {
    const up = twoProportionTest({ successes: 5, trials: 50 }, { successes: 15, trials: 50 });
    const down = twoProportionTest({ successes: 15, trials: 50 }, { successes: 5, trials: 50 });
    expect(up?.zScore).toBeCloseTo(-(down?.zScore ?? 0), 10);
    expect(up?.pValue).toBeCloseTo(down?.pValue ?? 0, 10);
    expect(twoProportionTest({ successes: 0, trials: 0 }, { successes: 1, trials: 10 })).toBeNull();
    expect(twoProportionTest({ successes: 0, trials: 10 }, { successes: 0, trials: 10 })).toEqual({ zScore: 0, pValue: 1 });
  });
});
