import type { SegmentCondition } from '@gatehouse/contracts';
import { readerInSegment } from '../access-decision';
import { conditionHolds, conditionProblems, segmentMatches, type VisitorFacts } from '../segment-conditions';

const facts: VisitorFacts = {
  authenticated: true,
  subscriber: false,
  path: '/premium/story',
  referrer: 'https://www.Google.com/search?q=x',
  device: 'mobile',
  country: 'DE',
  utm_source: 'newsletter',
  visit_count: 5,
};
const holds = (attribute: SegmentCondition['attribute'], operator: SegmentCondition['operator'], value: SegmentCondition['value']) =>
  conditionHolds({ attribute, operator, value }, facts);

describe('segment conditions', () => {
  it('eq and neq compare values, strings without regard to case', () => {
    expect(holds('device', 'eq', 'mobile')).toBe(true);
    expect(holds('country', 'eq', 'de')).toBe(true);
    expect(holds('authenticated', 'eq', true)).toBe(true);
    expect(holds('subscriber', 'eq', true)).toBe(false);
    expect(holds('visit_count', 'eq', 5)).toBe(true);
    expect(holds('device', 'neq', 'mobile')).toBe(false);
    expect(holds('subscriber', 'neq', true)).toBe(true);
  });

  it('contains looks for a substring', () => {
    expect(holds('referrer', 'contains', 'google.com')).toBe(true);
    expect(holds('path', 'contains', '/premium/')).toBe(true);
    expect(holds('referrer', 'contains', 'bing')).toBe(false);
  });

  it('in looks for the value in a list', () => {
    expect(holds('country', 'in', ['FR', 'de'])).toBe(true);
    expect(holds('country', 'in', ['FR', 'IT'])).toBe(false);
    expect(holds('visit_count', 'in', [1, 5, 9])).toBe(true);
  });

  it('gt and lt compare numbers', () => {
    expect(holds('visit_count', 'gt', 4)).toBe(true);
    expect(holds('visit_count', 'gt', 5)).toBe(false);
    expect(holds('visit_count', 'lt', 6)).toBe(true);
    expect(holds('visit_count', 'lt', 5)).toBe(false);
  });

  it('an attribute the check does not know satisfies only neq', () => {
    for (const operator of ['eq', 'contains', 'in'] as const) expect(holds('utm_campaign', operator, operator === 'in' ? ['spring'] : 'spring')).toBe(false);
    expect(holds('utm_campaign', 'neq', 'spring')).toBe(true);
    expect(conditionHolds({ attribute: 'visit_count', operator: 'gt', value: 0 }, { ...facts, visit_count: undefined })).toBe(false);
  });

  it('match all needs every condition, any needs one', () => {
    const conditions: SegmentCondition[] = [
      { attribute: 'device', operator: 'eq', value: 'mobile' },
      { attribute: 'country', operator: 'eq', value: 'FR' },
    ];
    expect(segmentMatches({ match: 'all', conditions }, facts)).toBe(false);
    expect(segmentMatches({ match: 'any', conditions }, facts)).toBe(true);
    expect(segmentMatches({ match: 'all', conditions: conditions.slice(0, 1) }, facts)).toBe(true);
  });

  it('refuses operators an attribute does not take and values that could never match, naming the field', () => {
    const problems = conditionProblems([
      { attribute: 'device', operator: 'eq', value: 'mobile' },
      { attribute: 'authenticated', operator: 'gt', value: true },
      { attribute: 'device', operator: 'eq', value: 'television' },
      { attribute: 'country', operator: 'in', value: ['DE', 'Germany'] },
      { attribute: 'visit_count', operator: 'gt', value: 'ten' },
      { attribute: 'subscriber', operator: 'eq', value: 'yes' },
      { attribute: 'referrer', operator: 'in', value: [] },
      { attribute: 'referrer', operator: 'contains', value: { a: 1 } as never },
      { attribute: 'path', operator: 'gt', value: 3 },
    ]);
    expect(problems.map((p) => p.field)).toEqual([
      'conditions[1].operator',
      'conditions[2].value',
      'conditions[3].value',
      'conditions[4].value',
      'conditions[5].value',
      'conditions[6].value',
      'conditions[7].value',
      'conditions[8].operator',
    ]);
  });

  it('decides a reader away from a check (an offer) on the same facts: the visits only when a condition needs them, no path without a page', async () => {
    const sources = (visits: number | undefined) => ({
      now: new Date('2026-01-01T00:00:00Z'),
      pastDueGraceDays: 0,
      entitlements: async () => [],
      visits: async () => {
        if (visits === undefined) throw new Error('visits asked of a segment that does not look at them');
        return visits;
      },
    });
    const reader = { customerId: null, path: undefined, attributes: { country: 'DE' } };
    const regulars = { match: 'all' as const, conditions: [{ attribute: 'visit_count' as const, operator: 'gt' as const, value: 2 }] };
    await expect(readerInSegment(regulars, reader, sources(3))).resolves.toBe(true);
    await expect(readerInSegment(regulars, reader, sources(2))).resolves.toBe(false);
    const germany = { match: 'all' as const, conditions: [{ attribute: 'country' as const, operator: 'eq' as const, value: 'de' }] };
    await expect(readerInSegment(germany, reader, sources(undefined))).resolves.toBe(true);
    await expect(readerInSegment(germany, { ...reader, attributes: {} }, sources(undefined))).resolves.toBe(false);
    const offPremium = { match: 'all' as const, conditions: [{ attribute: 'path' as const, operator: 'neq' as const, value: '/premium' }] };
    await expect(readerInSegment(offPremium, reader, sources(undefined))).resolves.toBe(true);
    await expect(readerInSegment(offPremium, { ...reader, path: '/premium' }, sources(undefined))).resolves.toBe(false);
  });
});
