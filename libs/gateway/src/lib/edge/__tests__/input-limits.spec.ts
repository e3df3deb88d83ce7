import { loadConfig } from '@gatehouse/platform';
import { GatewayConfig, trustedProxies } from '../../gateway.config';
import { MAX_JSON_DEPTH, MAX_JSON_KEYS, checkJsonShape, isStorableText, refuseUnstorableText } from '../input-limits';

describe('JSON shape limits', () => {
  it(`accepts ${MAX_JSON_DEPTH} levels and refuses one more, brackets inside strings not counted`, () => {
    expect(() => checkJsonShape(`${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`)).not.toThrow();
    expect(() => checkJsonShape(`${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`)).toThrow(/nest at most/);
    expect(() => checkJsonShape(JSON.stringify({ a: '[[[[{{{{'.repeat(100) }))).not.toThrow();
    expect(() => checkJsonShape(JSON.stringify({ a: '\\"[[[[' }))).not.toThrow();
  });

  it(`refuses more than ${MAX_JSON_KEYS} keys, colons inside strings not counted`, () => {
    const body = (n: number) => JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'a:b'])));
    expect(() => checkJsonShape(body(MAX_JSON_KEYS))).not.toThrow();
    expect(() => checkJsonShape(body(MAX_JSON_KEYS + 1))).toThrow(/at most/);
  });
});

describe('storable text', () => {
  it('refuses NUL and unpaired surrogates, keeps paired ones', () => {
    expect(isStorableText('plain – “text” 😀')).toBe(true);
    for (const text of ['a\u0000b', 'x\ud800', '\udc00x', 'a\ud800b\udc00']) expect(isStorableText(text)).toBe(false);
  });

  it('names the field at fault, however deep, keys included', () => {
    expect(() => refuseUnstorableText({ a: [{ b: 'ok' }, { c: 'x\u0000' }] }, '')).toThrow(expect.objectContaining({ problem: expect.objectContaining({ errors: [{ field: 'a[1].c', message: expect.any(String) }] }) }));
    expect(() => refuseUnstorableText({ 'k\ud800': 1 }, '')).toThrow(expect.objectContaining({ problem: expect.objectContaining({ code: 'validation_failed' }) }));
    expect(() => refuseUnstorableText({ a: ['fine', 1, null, true] }, '')).not.toThrow();
  });
});

describe('TRUST_PROXY', () => {
  const proxies = (value: string) => trustedProxies(loadConfig(GatewayConfig, { TRUST_PROXY: value }));

  it('is a hop count, true meaning the one proxy in front, or a list of addresses and CIDR ranges', () => {
    expect(proxies('false')).toBe(false);
    expect(proxies('0')).toBe(false);
    expect(proxies('true')).toBe(1);
    expect(proxies('2')).toBe(2);
    expect(proxies('10.0.0.0/8, 192.168.1.1,fd00::/8')).toEqual(['10.0.0.0/8', '192.168.1.1', 'fd00::/8']);
    expect(trustedProxies(loadConfig(GatewayConfig, {}))).toBe(false);
  });

  it('refuses what is not an address or range', () => {
    expect(() => proxies('10.0.0.0/33')).toThrow(/TRUST_PROXY/);
    expect(() => proxies('10.0.0/8')).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig(GatewayConfig, { TRUST_PROXY: 'yes' })).toThrow(/TRUST_PROXY/);
  });
});
