import { overTheWire } from '../over-the-wire';

const asJson = (value: unknown) => (value === undefined ? value : JSON.parse(JSON.stringify(value)));

class Priced {
  amount = 600;
  hidden?: string = undefined;
  get label(): string {
    return `€${this.amount / 100}`;
  }
}

describe('overTheWire: what the in-process bus delivers is what JSON would', () => {
  const values: [string, unknown][] = [
    ['a check request', { publicationId: 'p', domains: ['news.example'], url: 'https://news.example/a', customerId: null, userId: 'v1', attributes: { device: 'mobile', country: undefined }, client: { userAgent: 'x', ip: '10.0.0.1' } }],
    ['dates become strings', { at: new Date('2026-11-27T06:00:00Z'), list: [new Date(0)] }],
    ['undefined, functions and symbols: dropped in objects, null in arrays', { a: undefined, f: () => 1, s: Symbol('x'), list: [undefined, () => 1, Symbol('y'), 1] }],
    ['non-finite numbers become null', { nan: NaN, inf: Infinity, list: [-Infinity, -0, 1.5] }],
    ['boxed primitives unwrap', { n: new Number(3), s: new String('t'), b: new Boolean(false) }],
    ['class instances become plain objects of their own members', { priced: new Priced() }],
    ['toJSON is applied with its key', { nested: { toJSON: (key: string) => `key:${key}` }, list: [{ toJSON: (key: string) => key }] }],
    ['maps and sets become empty objects', { map: new Map([['a', 1]]), set: new Set([1]) }],
    ['buffers as JSON writes them', { bytes: Buffer.from('hi') }],
    ['a __proto__ member stays a member', JSON.parse('{"__proto__":{"polluted":true},"ok":1}')],
    ['scalars and null', [null, 'text', 0, false, true]],
    ['a bare string', 'text'],
    ['a bare date', new Date(5)],
    ['nested arrays and objects', { a: [[1, [2, { b: [3] }]]], deep: { deeper: { deepest: [] } } }],
  ];

  it.each(values)('%s', (_name, value) => {
    const copied = overTheWire(value);
    expect(copied).toStrictEqual(asJson(value));
    expect(JSON.stringify(copied)).toBe(JSON.stringify(value));
    if (value !== null && typeof value === 'object') expect(copied).not.toBe(value);
  });

  it('shares no reference with the sender', () => {
    const sent = { nested: { list: [{ n: 1 }] } };
    const received = overTheWire(sent);
    received.nested.list[0].n = 2;
    expect(sent.nested.list[0].n).toBe(1);
  });

  it('leaves the prototype of what it makes alone', () => {
    const received = overTheWire(JSON.parse('{"__proto__":{"polluted":true}}')) as Record<string, unknown>;
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.getPrototypeOf(received)).toBe(Object.prototype);
    expect(received['__proto__']).toEqual({ polluted: true });
  });

  it('throws on what JSON cannot carry', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(() => overTheWire(cyclic)).toThrow();
    expect(() => overTheWire({ big: BigInt(1) })).toThrow(TypeError);
  });

  it('undefined stays undefined (a handler that answers nothing)', () => {
    expect(overTheWire(undefined)).toBeUndefined();
  });
});
