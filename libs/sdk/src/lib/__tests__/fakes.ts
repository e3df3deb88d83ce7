import type { CustomerAuthResult } from '@gatehouse/contracts';
import { GatehouseError } from '../errors';
import { Gatehouse, type Environment } from '../gatehouse';
import type { Locks } from '../sessions';
import { KeyedStorage } from '../storage';

/** localStorage of one site: every "tab" of a test shares one. */
export class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>();
  get length(): number {
    return this.items.size;
  }
  clear(): void {
    this.items.clear();
  }
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  key(index: number): string | null {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
}

export const keyed = (storage: Storage, key = 'pk_test_site') => new KeyedStorage(storage, key);

/** Web Locks as the browser grants them: one holder of a name at a time, the others queued in order. */
export class FakeLocks implements Locks {
  private readonly tails = new Map<string, Promise<unknown>>();
  request<T>(name: string, callback: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(name) ?? Promise.resolve();
    const run = previous.then(callback, callback);
    this.tails.set(
      name,
      run.catch(() => undefined),
    );
    return run;
  }
}

export const tick = (ms = 0) => new Promise<void>((done) => setTimeout(done, ms));

/**
 * The refresh route as identity implements it (decisions D3): rotation, the family revoked when
 * a used token comes back after the grace window, and `token_invalid` within it.
 */
export class RefreshServer {
  readonly presented: string[] = [];
  private serial = 0;
  private readonly used = new Map<string, number>();
  private readonly live = new Set<string>();
  revoked = false;
  /** Answer time of each refresh, so that racing refreshes overlap. */
  latencyMs = 5;

  constructor(private readonly graceMs = 10_000) {}

  issue(lifetimeMs = 900_000): CustomerAuthResult {
    this.serial += 1;
    const refreshToken = `refresh-${this.serial}`;
    this.live.add(refreshToken);
    return { accessToken: `access-${this.serial}`, refreshToken, expiresAt: Date.now() + lifetimeMs, customer: { id: 'customer-1', email: 'r@example.com', name: 'Reader', emailVerified: false } };
  }

  /** The refresh as a fake fetch answers it: the next pair, or the refusal thrown. */
  issueSync(refreshToken: string): CustomerAuthResult {
    this.presented.push(refreshToken);
    this.live.delete(refreshToken);
    return this.issue();
  }

  refresh = async (refreshToken: string): Promise<CustomerAuthResult> => {
    this.presented.push(refreshToken);
    await tick(this.latencyMs);
    const usedAt = this.used.get(refreshToken);
    if (this.revoked) throw new GatehouseError('refresh_token_invalid', 401, 'revoked');
    if (usedAt !== undefined) {
      if (Date.now() - usedAt < this.graceMs) throw new GatehouseError('token_invalid', 401, 'already rotated');
      this.revoked = true;
      throw new GatehouseError('refresh_token_invalid', 401, 'reused');
    }
    if (!this.live.has(refreshToken)) throw new GatehouseError('refresh_token_invalid', 401, 'unknown');
    this.live.delete(refreshToken);
    this.used.set(refreshToken, Date.now());
    return this.issue();
  };
}

type Answer = { status: number; body?: unknown } | 'unreachable' | 'hang';
type Route = (request: { url: URL; body: any; headers: Record<string, string> }) => Answer | Promise<Answer>;

export const KEY = 'pk_test_site';
export const problem = (status: number, code: string) => ({ status, body: { type: 'x', title: code, status, detail: `${code} detail`, code } });

/**
 * A page on https://news.example (at `href`) with the API behind a fake fetch that records every
 * request; `replaced` records the URLs the page's address was replaced by, and `dispatch` fires a
 * window event (another tab's `storage` event) at what the SDK listens to.
 */
export function page(route: Route, storage: Storage = new MemoryStorage(), href = 'https://news.example/story?utm_source=mail&utm_campaign=spring') {
  const requests: Array<{ path: string; url: URL; body: any; headers: Record<string, string> }> = [];
  const assigned: string[] = [];
  const replaced: string[] = [];
  const cookies: string[] = [];
  const listeners: Array<[string, (event: any) => void]> = [];
  const url = new URL(href);
  const location = { href, search: url.search, origin: url.origin, assign: (to: string) => void assigned.push(to) };
  const env: Environment = {
    fetch: (async (input: string, init: RequestInit) => {
      const url = new URL(input);
      const request = { url, body: init.body ? JSON.parse(String(init.body)) : undefined, headers: init.headers as Record<string, string> };
      requests.push({ path: url.pathname, ...request });
      const answer = await route(request);
      if (answer === 'unreachable') throw new TypeError('Failed to fetch');
      if (answer === 'hang') return new Promise<never>(() => undefined);
      return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), { status: answer.status });
    }) as typeof fetch,
    storage,
    locks: null,
    timers: { setTimeout: (callback, ms) => setTimeout(callback, ms), clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>) },
    now: () => Date.now(),
    location,
    replaceUrl: (to) => {
      replaced.push(to);
      location.href = to;
    },
    referrer: 'https://search.example/',
    randomId: () => 'visitor-1',
    listen: (type, listener) => void listeners.push([type, listener]),
    hidden: () => false,
    setCookie: (cookie) => void cookies.push(cookie),
    serverRegions: null,
    warn: () => undefined,
  };
  const dispatch = (type: string, event: object) => listeners.filter(([t]) => t === type).forEach(([, listener]) => listener(event));
  return { gatehouse: new Gatehouse(env), requests, assigned, replaced, storage, cookies, dispatch };
}
