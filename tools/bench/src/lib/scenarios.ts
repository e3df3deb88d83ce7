import { SITE, type Fixtures } from './fixtures';

/** One kind of request: its n-th instance (client addresses in turn, so the rate limiter never refuses). */
export interface Scenario {
  name: string;
  /** Events per request, for the events/s figure. */
  eventsPerRequest?: number;
  /** Measured at a fixed offered rate too (`also`), or only there (`only`). */
  atFixedRate?: 'also' | 'only';
  /** Runs against bare Fastify, the baseline. */
  baseline?: boolean;
  request(n: number): { method: 'GET' | 'POST'; path: string; headers?: Record<string, string>; body?: string };
}

/** The check the spread run (`--spread`) loads. */
export const NO_RULE = 'check, no paywall covers the URL';

/**
 * Client addresses taken in turn from a pool: each is counted apart by the rate limiter (1,000
 * checks a minute each), while a minute of the fastest scenario stays far below both limits: a
 * few dozen requests per address, and 50,000 identities, a quarter of the 200,000 a gateway counts
 * apart in one window (past those, new identities share one counter, the limiter's defence against
 * sprayed addresses, and a bench would measure its 429s).
 */
const ADDRESS_POOL = 50_000;
/** How the requests' client addresses are chosen, as the result tables say it. */
export const CLIENT_ADDRESSES = `client addresses in turn from a pool of ${ADDRESS_POOL.toLocaleString('en-US')}`;
const clientAddress = (i: number, n = i % ADDRESS_POOL) => `10.${n >> 16}.${(n >> 8) & 255}.${n & 255}`;
/** The first address of one of the 10,000 organisations' ranges (20.0.0.0/16 to 59.15.0.0/16), 9,984 of them in turn. */
const networkAddress = (i: number, n = i % ADDRESS_POOL) => `${20 + ((n >> 8) % 39)}.${n & 255}.0.0`;
const check = (query: Record<string, string>) => `/api/v1/access/check?${new URLSearchParams(query)}`;

export function scenarios(fixtures: Fixtures): Scenario[] {
  const key = { 'x-api-key': fixtures.publishableKey };
  const get = (path: (n: number) => string, headers: Record<string, string> = {}) => (n: number) => ({
    method: 'GET' as const,
    path: path(n),
    headers: { ...key, ...headers, 'x-forwarded-for': clientAddress(n) },
  });
  const post = (body: string) => (n: number) => ({
    method: 'POST' as const,
    path: '/api/v1/events',
    headers: { ...key, 'content-type': 'application/json', 'x-forwarded-for': clientAddress(n) },
    body,
  });
  const pageView = { type: 'page_view', url: `${SITE}/free/story`, userId: 'bench-reader' };
  const noRule: Scenario = { name: NO_RULE, atFixedRate: 'also', request: get((n) => check({ url: `${SITE}/free/${n % 1000}`, userId: `r${n % 5000}` })) };
  const meteredNewUrl: Scenario = { name: 'check, metered, a new URL each time', request: get((n) => check({ url: `${SITE}/metered/${n}`, userId: `m${n % 500}` })) };
  const subscriber: Scenario = {
    name: 'check, hard paywall, subscriber JWT',
    request: get((n) => check({ url: `${SITE}/hard/${n % 1000}` }), { authorization: `Bearer ${fixtures.subscriberToken}` }),
  };
  // Of every ten checks, in turn: seven no-rule, two subscriber, one metered that counts a new page.
  const mixedTurns = [noRule, noRule, noRule, noRule, noRule, noRule, noRule, subscriber, subscriber, meteredNewUrl];
  return [
    { name: 'bare Fastify GET / {hello}', baseline: true, request: () => ({ method: 'GET', path: '/' }) },
    noRule,
    {
      name: 'check, metered, known visitor, URL counted',
      atFixedRate: 'also',
      request: get(() => check({ url: `${SITE}/metered/counted`, userId: 'bench-known' })),
    },
    meteredNewUrl,
    subscriber,
    {
      name: "check, hard paywall, anonymous on an organisation's network (10,000 ranges)",
      request: (n) => ({ method: 'GET', path: check({ url: `${SITE}/hard/${n % 1000}` }), headers: { ...key, 'x-forwarded-for': networkAddress(n) } }),
    },
    { name: 'check, experiment on the paywall', request: get((n) => check({ url: `${SITE}/experiment/${n % 1000}`, userId: `e${n % 5000}` })) },
    { name: 'check, segment on visit_count', request: get((n) => check({ url: `${SITE}/segment/${n % 1000}`, userId: `s${n % 200}` })) },
    {
      name: 'mixed checks: 70 % no rule, 20 % subscriber JWT, 10 % metered new URL',
      atFixedRate: 'only',
      request: (n) => mixedTurns[n % mixedTurns.length].request(n),
    },
    { name: 'POST /events, one page_view', request: post(JSON.stringify(pageView)) },
    { name: 'POST /events, batch of 50', eventsPerRequest: 50, request: post(JSON.stringify({ events: Array.from({ length: 50 }, () => pageView) })) },
    { name: 'GET /health', request: (n) => ({ method: 'GET', path: '/api/v1/health', headers: { 'x-forwarded-for': clientAddress(n) } }) },
  ];
}
