import type { CustomerAuthResult, CustomerView } from '@gatehouse/contracts';
import { GatehouseError } from './errors';
import type { KeyedStorage } from './storage';
import type { TokenCookie } from './token-cookie';

/** What the page sees of a logged-in reader. */
export interface Session {
  customer: CustomerView;
  accessToken: string;
  /** Access-token expiry, Unix epoch milliseconds. */
  expiresAt: number;
}

interface StoredSession extends CustomerAuthResult {
  /** When this tab's clock says to refresh ahead of expiry. */
  refreshAt: number;
}

/** The slice of the Web Locks API used here (`navigator.locks`). */
export interface Locks {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

export interface SessionsOptions {
  storage: KeyedStorage;
  /** `POST /auth/customers/refresh`; rejects with a `GatehouseError`. */
  refresh(refreshToken: string): Promise<CustomerAuthResult>;
  /** `navigator.locks` where the browser has it (secure contexts); null elsewhere. */
  locks: Locks | null;
  lockName: string;
  now(): number;
  sleep(ms: number): Promise<void>;
  /** The first-party cookie that tells the publisher's server who the reader is; kept in step with every change of the tokens. */
  cookie?: TokenCookie;
}

const SESSION_KEY = 'session';
const REFRESH_AHEAD_MS = 60_000;
/** How long a tab that lost a refresh race waits for the winner's tokens to appear in storage. */
const WINNER_WAIT_MS = 5_000;
const WINNER_POLL_MS = 100;

/**
 * The reader's tokens, kept in localStorage (spec 5.2) so that every tab of the site shares them.
 *
 * A refresh happens at most once at a time: calls of one tab share one refresh, and tabs take
 * turns under a Web Lock, each first re-reading storage, so a tab does not present a refresh token
 * that another tab has already used (which, late, the service takes for token theft and revokes
 * the whole session). Two tabs can still present the same token: where Web Locks are missing, and
 * because a browser hands one tab's localStorage write to the other tabs asynchronously, so the
 * tab next in line may read the old tokens for a moment. The service then answers that tab
 * `token_invalid` within its grace window (decisions D3), and it waits for the winner's tokens to
 * show up in storage instead of logging out.
 */
export class Sessions {
  private inflight: Promise<StoredSession | null> | null = null;
  private readonly listeners = new Set<(session: Session | null) => void>();
  private knownCustomer: string | null;

  constructor(private readonly options: SessionsOptions) {
    this.knownCustomer = this.read()?.customer.id ?? null;
    options.cookie?.keep(this.current());
  }

  /** The localStorage key other tabs write; a `storage` event on it calls `sync`. */
  get storageKey(): string {
    return this.options.storage.key(SESSION_KEY);
  }

  current(): Session | null {
    const stored = this.read();
    return stored && { customer: stored.customer, accessToken: stored.accessToken, expiresAt: stored.expiresAt };
  }

  save(result: CustomerAuthResult): Session {
    const lifetime = Math.max(0, result.expiresAt - this.options.now());
    const stored: StoredSession = { ...result, refreshAt: result.expiresAt - Math.min(REFRESH_AHEAD_MS, lifetime / 4) };
    this.options.storage.set(SESSION_KEY, JSON.stringify(stored));
    this.options.cookie?.keep(stored);
    this.changed();
    return this.current() as Session;
  }

  clear(): void {
    this.options.storage.remove(SESSION_KEY);
    this.options.cookie?.keep(null);
    this.changed();
  }

  /** Storage changed in another tab: tell this tab's listeners when the reader changed. */
  sync(): void {
    this.changed();
  }

  /** Called with the new session (or null) whenever the logged-in reader changes, in this tab or another. */
  onChange(listener: (session: Session | null) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** The refresh token, for logout. */
  refreshToken(): string | null {
    return this.read()?.refreshToken ?? null;
  }

  /** An access token to send, refreshed first when it is about to expire; null when logged out. */
  async accessToken(): Promise<string | null> {
    const stored = this.read();
    if (!stored) return null;
    if (this.options.now() < stored.refreshAt) return stored.accessToken;
    try {
      return (await this.refresh())?.accessToken ?? null;
    } catch {
      // The service is unreachable: the request itself will say so.
      return stored.accessToken;
    }
  }

  /**
   * Refreshes the tokens; `rejected` is the access token the API just refused (without it, a
   * refresh ahead of expiry). Resolves with the session to use, or null when the reader is now
   * logged out. Rejects, keeping the session, when the service cannot be reached.
   */
  refresh(rejected?: string): Promise<Session | null> {
    this.inflight ??= this.exclusively(() => this.refreshOnce(rejected)).finally(() => {
      this.inflight = null;
    });
    return this.inflight.then(() => this.current());
  }

  private async refreshOnce(rejected: string | undefined): Promise<StoredSession | null> {
    const found = this.read();
    if (!found) return null;
    const needed = rejected === undefined ? this.options.now() >= found.refreshAt : found.accessToken === rejected;
    // Another tab refreshed while this one waited for the lock.
    if (!needed) return found;
    let result: CustomerAuthResult;
    try {
      result = await this.options.refresh(found.refreshToken);
    } catch (error) {
      if (!(error instanceof GatehouseError) || error.status !== 401) throw error;
      const winner = error.code === 'token_invalid' ? await this.replacementOf(found.refreshToken) : null;
      if (winner) return winner;
      this.clear();
      return null;
    }
    // A logout in another tab while the refresh was under way stands.
    if (this.read()?.refreshToken !== found.refreshToken) return this.read();
    this.save(result);
    return this.read();
  }

  /** Waits for another tab's tokens to replace `refreshToken` in storage; null if none come. */
  private async replacementOf(refreshToken: string): Promise<StoredSession | null> {
    for (let waited = 0; waited < WINNER_WAIT_MS; waited += WINNER_POLL_MS) {
      await this.options.sleep(WINNER_POLL_MS);
      const stored = this.read();
      if (!stored) return null;
      if (stored.refreshToken !== refreshToken) return stored;
    }
    return null;
  }

  private exclusively<T>(work: () => Promise<T>): Promise<T> {
    return this.options.locks ? this.options.locks.request(this.options.lockName, work) : work();
  }

  private read(): StoredSession | null {
    const raw = this.options.storage.get(SESSION_KEY);
    if (!raw) return null;
    try {
      const stored = JSON.parse(raw) as StoredSession;
      return typeof stored.accessToken === 'string' && typeof stored.refreshToken === 'string' && stored.customer ? stored : null;
    } catch {
      return null;
    }
  }

  private changed(): void {
    const session = this.current();
    const customer = session?.customer.id ?? null;
    if (customer === this.knownCustomer) return;
    this.knownCustomer = customer;
    for (const listener of [...this.listeners]) listener(session);
  }
}
