import { scenarios } from '../lib/scenarios';

/**
 * The gateway's rate limiter (libs/gateway: RATE_LIMITS, MAX_COUNTED_IDENTITIES) counts 1,000
 * checks a minute per client address, and at most 200,000 addresses apart in one minute; past
 * those, new ones share a counter and are refused together. A bench that crosses either measures
 * quick 429s instead of checks.
 */
const PER_ADDRESS_A_MINUTE = 1_000;
const IDENTITIES_A_MINUTE = 200_000;
/** A minute of every scenario at a rate well above the fastest machine's so far (about 25,000 a second). */
const REQUESTS_A_MINUTE = 50_000 * 60;

describe('the bench scenarios’ client addresses', () => {
  const all = scenarios({ publishableKey: 'pk_test', subscriberToken: 'token', adminCookie: 'cookie' }).filter((scenario) => !scenario.baseline);

  it('stay below the rate limiter’s per-address limit and its count of identities in a minute of every scenario at 50,000 requests a second', () => {
    const perAddress = new Map<string, number>();
    for (const scenario of all) {
      for (let n = 0; n < REQUESTS_A_MINUTE; n += 7) {
        const address = scenario.request(n).headers?.['x-forwarded-for'];
        if (address) perAddress.set(address, (perAddress.get(address) ?? 0) + 7);
      }
    }
    expect(perAddress.size).toBeGreaterThan(10_000);
    expect(perAddress.size).toBeLessThan(IDENTITIES_A_MINUTE / 2);
    expect(Math.max(...perAddress.values())).toBeLessThan(PER_ADDRESS_A_MINUTE);
  });
});
