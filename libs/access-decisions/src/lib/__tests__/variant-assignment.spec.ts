import type { PaywallRule } from '@gatehouse/contracts';
import { applyVariant, assignVariant } from '../variant-assignment';

const variants = [
  { id: 'a', weight: 50 },
  { id: 'b', weight: 30 },
  { id: 'c', weight: 20 },
];

describe('variant assignment', () => {
  it('gives 10,000 visitors their variants within 2 points of the weights', () => {
    const counts: Record<string, number> = { a: 0, b: 0, c: 0 };
    for (let i = 0; i < 10_000; i++) counts[assignVariant('experiment-1', `visitor-${i}`, variants)!.id] += 1;
    expect(Math.abs(counts['a'] / 100 - 50)).toBeLessThan(2);
    expect(Math.abs(counts['b'] / 100 - 30)).toBeLessThan(2);
    expect(Math.abs(counts['c'] / 100 - 20)).toBeLessThan(2);
  });

  it('gives a visitor the same variant every time, and independently per experiment', () => {
    const first = Array.from({ length: 200 }, (_, i) => assignVariant('experiment-1', `v${i}`, variants)!.id);
    const again = Array.from({ length: 200 }, (_, i) => assignVariant('experiment-1', `v${i}`, variants)!.id);
    const other = Array.from({ length: 200 }, (_, i) => assignVariant('experiment-2', `v${i}`, variants)!.id);
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
  });

  it('never assigns a variant of weight 0, and none when all weigh 0', () => {
    const weighted = [
      { id: 'off', weight: 0 },
      { id: 'on', weight: 1 },
    ];
    for (let i = 0; i < 500; i++) expect(assignVariant('e', `v${i}`, weighted)!.id).toBe('on');
    expect(assignVariant('e', 'v', [{ id: 'x', weight: 0 }])).toBeNull();
  });

  it('applies overrides: config and copy merged, presentation replaced, an unfit config left out', () => {
    const rule: PaywallRule = {
      paywallId: 'p',
      name: 'Meter',
      type: 'metered',
      config: { limit: 3, period: 'month' },
      presentation: 'modal',
      copy: { heading: 'Subscribe', ctaText: 'Go' },
      oneTimePriceIds: [],
    };
    expect(applyVariant(rule, { config: { limit: 5 }, presentation: 'inline', copy: { heading: 'Join us' } })).toEqual({
      ...rule,
      config: { limit: 5, period: 'month' },
      presentation: 'inline',
      copy: { heading: 'Join us', ctaText: 'Go' },
    });
    expect(applyVariant(rule, {})).toEqual(rule);
    expect(applyVariant(rule, { config: { limit: -1 } }).config).toEqual(rule.config);
  });
});
