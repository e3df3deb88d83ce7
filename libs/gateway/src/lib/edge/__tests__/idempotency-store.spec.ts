import { canonicalJson, MemoryIdempotencyStore } from '../idempotency.service';

describe('the in-memory Idempotency-Key store (no REDIS_URL)', () => {
  it('evicts claims after about a minute and answers after 24 hours, without being asked for them again', async () => {
    let now = Date.parse('2026-03-02T09:00:00Z');
    const store = new MemoryIdempotencyStore(() => now);
    for (let i = 0; i < 1_000; i++) await store.finish(`answered-${i}`, { fingerprint: 'f', answer: 'sealed' });
    await store.claim('abandoned', 'f');
    expect(store.size).toBe(1_001);

    now += 71_000;
    await store.claim('fresh', 'f');
    expect(store.size).toBe(1_001);
    expect(await store.get('abandoned')).toBeUndefined();

    now += 24 * 3600_000;
    await store.claim('later', 'f');
    expect(store.size).toBe(1);
    expect(await store.get('answered-0')).toBeUndefined();
  });

  it('compares bodies as canonical JSON: the order of fields does not matter, values do', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: null } })).toBe(canonicalJson({ a: { c: null, d: [2, { e: 0, f: 1 }] }, b: 1 }));
    expect(canonicalJson({ a: [1, 2] })).not.toBe(canonicalJson({ a: [2, 1] }));
    expect(canonicalJson({ a: '1' })).not.toBe(canonicalJson({ a: 1 }));
  });
});
