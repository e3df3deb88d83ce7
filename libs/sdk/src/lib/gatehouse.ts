import type {
  AccessCheckResult,
  BrandingConfiguration,
  CheckoutConfirmation,
  CheckoutRequest,
  OfferedPriceView,
  CheckoutSessionView,
  CustomerAuthResult,
  CustomerProfile,
  EmailRequestAccepted,
  OfferTerms,
  PlanChangePreview,
  PlanChangeResult,
  PlanChangeTiming,
  ShareLink,
  SubscriptionView,
  TrackEvent,
  TrackEventType,
  VisitorAttributes,
} from '@gatehouse/contracts';
import { takeCheckoutReturn, withCheckoutReturn } from './checkout-return';
import { GatehouseError, isUnavailable } from './errors';
import { takeEmailLink, type EmailLink } from './email-links';
import { EventQueue, type Timers } from './event-queue';
import { Api, type RequestOptions } from './http';
import { Sessions, type Locks, type Session } from './sessions';
import type { ServerRegions } from './paid-regions';
import { KeyedStorage } from './storage';
import { TOKEN_COOKIE, TokenCookie } from './token-cookie';

export type FailMode = 'open' | 'closed';

/** The storage key whose change tells the other tabs that the reader's access changed (a confirmed checkout). */
const ACCESS_CHANGED = 'access-changed';

export interface InitOptions {
  /** The publication's publishable key (`pk_…`). */
  publishableKey: string;
  /** Where the service runs, e.g. `https://gatehouse.example.com`; the page's origin when unset. */
  baseUrl?: string;
  /** Send a `page_view` when initialised. */
  autoPageview?: boolean;
  /** What `checkAccess` resolves with when the service cannot be reached or fails: granted (`open`) or denied (`closed`). */
  failMode?: FailMode;
  /** Check access to the page when initialised; the result arrives through `on('access', …)`. */
  autoCheckAccess?: boolean;
  /** Name of the first-party cookie that carries the reader's access token to the publisher's server (`gatehouse_token`); false: none. */
  tokenCookie?: string | false;
  /** How long an access check waits for the service before `failMode` decides (ms). */
  accessTimeoutMs?: number;
}

/** What `accessTimeoutMs` is when not given: the decision a page's gated content waits for at most. */
export const ACCESS_TIMEOUT_MS = 8_000;

/** The access check result of the API, or the fail mode's answer with reason `service_unavailable`. */
export type AccessResult = AccessCheckResult | (Omit<AccessCheckResult, 'reason'> & { reason: 'service_unavailable' });

export type TrackFields = Omit<TrackEvent, 'type' | 'url' | 'userId'> & { url?: string };

/** The checkout request of the API; the customer is the logged-in reader. */
export type CheckoutOptions = Omit<CheckoutRequest, 'publicationId' | 'customerId' | 'reader'>;

/** A plan change of the reader's own subscription; `when` defaults to `now` for an upgrade and `period_end` for a downgrade. */
export interface PlanChangeOptions {
  subscriptionId: string;
  priceId: string;
  when?: PlanChangeTiming;
}

interface Events {
  access: AccessResult;
  error: GatehouseError;
  /** A checkout confirmed on the page its success URL led back to. */
  checkout: CheckoutConfirmation;
}

/** A queued call: `[method, ...args]`, or a function called with the client once it is ready. */
export type Command = [string, ...unknown[]] | ((gatehouse: Gatehouse) => unknown);

/** What the SDK takes from the browser; tests bring their own. */
export interface Environment {
  fetch: typeof fetch;
  storage: Storage | null;
  locks: Locks | null;
  timers: Timers;
  now(): number;
  location: { href: string; search: string; origin: string; assign(url: string): void };
  /** Replaces the page's URL without a navigation (`history.replaceState`). */
  replaceUrl(url: string): void;
  referrer: string;
  randomId(): string;
  /** Subscribes to window events (`storage`, `pagehide`, `visibilitychange`). */
  listen(type: string, listener: (event: any) => void): void;
  /** True when the page is being hidden (`visibilitychange` to hidden). */
  hidden(): boolean;
  /** Writes one cookie of the page's host (`document.cookie = …`). */
  setCookie(cookie: string): void;
  /** The page's paid regions as its publisher's server sent them; null where there is no page. */
  serverRegions: ServerRegions | null;
  warn(message: string, error?: unknown): void;
}

const COMMANDS = new Set([
  'init',
  'checkAccess',
  'identify',
  'trackEvent',
  'trackPageview',
  'register',
  'login',
  'logout',
  'getSession',
  'onAuthChange',
  'checkout',
  'share',
  'openPortal',
  'getBranding',
  'getPrices',
  'sendEvent',
  'confirmCheckout',
  'on',
  'requestPasswordReset',
  'confirmPasswordReset',
  'requestLoginCode',
  'signInWithCode',
  'signInWithLink',
  'verifyEmail',
  'requestEmailVerification',
]);

/**
 * Where an emailed link should lead: a page on one of the publication's domains. When absent, this
 * page (its origin, port included, path and query), unless the service could not take it as a
 * link's page (plain http on a host that is not loopback, a user name or password in it, longer
 * than 2000 characters): then the link opens the publication's default page (docs/email.md).
 */
export interface EmailLinkOptions {
  returnUrl?: string;
}

/**
 * The browser SDK: access checks, track events and the reader's session against one publication.
 * `init` first; a call made earlier rejects with `not_initialized` (the script tag's queue
 * waits for `init` instead).
 */
export class Gatehouse {
  private api?: Api;
  private storage?: KeyedStorage;
  private sessions?: Sessions;
  private events?: EventQueue;
  private failMode: FailMode = 'open';
  private accessTimeoutMs = 0;
  /** The page's last check (its URL and attributes), repeated when another tab changes the reader or subscribes. */
  private lastCheck?: [string, VisitorAttributes];
  private checks = 0;
  private branding?: Promise<BrandingConfiguration>;
  private emailLink: EmailLink | null = null;
  private prices?: Promise<OfferedPriceView[]>;
  private readonly handlers: { [K in keyof Events]: Set<(payload: Events[K]) => void> } = { access: new Set(), error: new Set(), checkout: new Set() };
  private readonly pending: Command[] = [];
  /** The page's last access result, for UI that starts listening after the check (the web components). */
  lastAccess: AccessResult | null = null;
  /** The offer `checkout` redeems unless told otherwise: the page's `?offer=` code, or one a reader applied (docs/sdk.md). */
  offerCode?: string;

  constructor(private readonly env: Environment) {}

  init(options: InitOptions): void {
    if (this.api) throw new GatehouseError('conflict', 0, 'Gatehouse is already initialised.');
    if (!options || !/^pk_/.test(options.publishableKey ?? '')) {
      throw new GatehouseError('api_key_invalid', 0, 'init needs the publishable key (pk_…) of the publication.');
    }
    const env = this.env;
    const baseUrl = (options.baseUrl ?? env.location.origin).replace(/\/+$/, '');
    const api = new Api(baseUrl, options.publishableKey, env.fetch);
    const storage = new KeyedStorage(env.storage, options.publishableKey);
    this.failMode = options.failMode === 'closed' ? 'closed' : 'open';
    this.accessTimeoutMs = Math.max(0, options.accessTimeoutMs ?? 0) || ACCESS_TIMEOUT_MS;
    this.sessions = new Sessions({
      storage,
      refresh: (refreshToken) => api.request<CustomerAuthResult>('/auth/customers/refresh', { body: { refreshToken } }),
      locks: env.locks,
      lockName: storage.key('refresh'),
      now: env.now,
      sleep: (ms) => new Promise((done) => env.timers.setTimeout(done, ms)),
      cookie: options.tokenCookie === false ? undefined : new TokenCookie(env.setCookie, options.tokenCookie ?? TOKEN_COOKIE, env.location.href.startsWith('https:'), env.now),
    });
    this.events = new EventQueue({
      // As the page closes there is no time to refresh: the events go with the token at hand.
      send: (events, keepalive, exiting) =>
        exiting
          ? api.request('/events', { body: { events }, token: this.unexpiredToken(), keepalive })
          : this.withToken((token) => api.request('/events', { body: { events }, token, keepalive }), false),
      timers: env.timers,
      warn: env.warn,
    });
    this.api = api;
    this.storage = storage;
    const sessions = this.sessions;
    // An emailed link's token and a checkout's session id leave the address bar at once.
    let href = env.location.href;
    this.offerCode = /[?&]offer=([\w-]+)/.exec(href)?.[1];
    const back = takeCheckoutReturn(href);
    if (back) href = back.rest;
    const taken = takeEmailLink(href);
    if (taken) {
      this.emailLink = taken.link;
      href = taken.rest;
    }
    if (href !== env.location.href) env.replaceUrl(href);
    // Another tab signed in, signed out or subscribed: this page is checked again.
    let otherTab = false;
    sessions.onChange(() => {
      if (otherTab) void this.recheck();
    });
    env.listen('storage', (event: StorageEvent) => {
      otherTab = true;
      if (event.key === null || event.key === sessions.storageKey) sessions.sync();
      otherTab = false;
      if (event.key === storage.key(ACCESS_CHANGED)) this.recheck();
    });
    env.listen('pagehide', () => this.events?.flushOnExit());
    env.listen('visibilitychange', () => {
      if (env.hidden()) this.events?.flushOnExit();
    });
    // What the page queued first (an `identify`, an `on('access')`), then what init does by itself.
    for (const command of this.pending.splice(0)) this.push(command);
    if (options.autoPageview !== false) this.trackPageview();
    if (options.autoCheckAccess) this.checkAccess().catch((error) => this.fail(error));
    if (back && sessions.current()) void this.confirmReturn(back.sessionId, 0);
  }

  /**
   * Runs a queued call (`gatehouse.push(['checkAccess'])`, or a function given the client); calls
   * queued before `init` wait for it. Failures go to `on('error', …)`, never into the page.
   */
  push(command: Command): void {
    if (!this.api && !(Array.isArray(command) && command[0] === 'init')) {
      this.pending.push(command);
      return;
    }
    try {
      let result: unknown;
      if (typeof command === 'function') result = command(this);
      else if (Array.isArray(command) && COMMANDS.has(command[0])) result = (this as any)[command[0]](...command.slice(1));
      else throw new GatehouseError('validation_failed', 0, `Unknown Gatehouse command: ${String(Array.isArray(command) ? command[0] : command)}`);
      if (result instanceof Promise) result.catch((error) => this.fail(error));
    } catch (error) {
      this.fail(error);
    }
  }

  /**
   * May this visitor read `url`? The page's referrer and UTM parameters are sent with it; the
   * result also goes to `on('access', …)`. When the service cannot be reached or fails, resolves
   * as `failMode` says, with reason `service_unavailable`, and emits `error`.
   */
  async checkAccess(url: string = this.env.location.href, attributes: VisitorAttributes = {}): Promise<AccessResult> {
    const api = this.ready();
    const query = this.readerFacts(url, attributes);
    const check = ++this.checks;
    this.lastCheck = [url, attributes];
    let result: AccessResult;
    try {
      result = await new Promise<AccessResult>((resolve, reject) => {
        const timer = this.env.timers.setTimeout(() => reject(new GatehouseError('service_unavailable', 0, 'The service did not answer in time.')), this.accessTimeoutMs);
        this.withToken((token) => api.request<AccessCheckResult>('/access/check', { query, token }), false)
          .then(resolve, reject)
          .finally(() => this.env.timers.clearTimeout(timer));
      });
    } catch (error) {
      if (!isUnavailable(error)) throw error;
      this.fail(error);
      result = { granted: this.failMode === 'open', reason: 'service_unavailable', customerId: this.sessions?.current()?.customer.id ?? null };
    }
    const regions = this.env.serverRegions;
    // The server cut this page for a reader it did not know: fetch what is now theirs before saying so.
    if (result.granted && url === this.env.location.href && regions?.cut()) await regions.restore().catch((error) => this.env.warn('Gatehouse: the paid text could not be fetched', error));
    // An earlier check answering late never undoes a later one's decision.
    if (check === this.checks) {
      this.lastAccess = result;
      this.emit('access', result);
    }
    return result;
  }

  /**
   * The reader as access checks state them: the page, the visitor id, the referrer and UTM
   * parameters, cut to what the API accepts so that a long referrer or campaign name never fails a
   * request. An offer limited to a segment is decided on the same (docs/billing.md).
   */
  private readerFacts(url: string = this.env.location.href, attributes: VisitorAttributes = {}) {
    const page = new URLSearchParams(this.env.location.search);
    const given = { referrer: this.env.referrer, utmSource: page.get('utm_source'), utmMedium: page.get('utm_medium'), utmCampaign: page.get('utm_campaign'), ...attributes };
    return {
      url,
      userId: this.visitorId(),
      referrer: given.referrer ? given.referrer.slice(0, 2048) : undefined,
      device: given.device,
      country: given.country,
      utm_source: given.utmSource?.slice(0, 200),
      utm_medium: given.utmMedium?.slice(0, 200),
      utm_campaign: given.utmCampaign?.slice(0, 200),
    };
  }

  /** The site's own id for this visitor, sent with access checks and events instead of the random one. */
  identify(userId: string): void {
    this.ready();
    const id = String(userId);
    if (id.length < 1 || id.length > 128) throw new GatehouseError('validation_failed', 0, 'identify takes an id of 1 to 128 characters.');
    (this.storage as KeyedStorage).set('visitor', id);
  }

  /** Queues a track event (decisions E8); it is sent in a batch within a few seconds, or as the page closes. */
  trackEvent(type: TrackEventType, fields: TrackFields = {}): void {
    this.ready();
    (this.events as EventQueue).push(this.eventOf(type, fields));
  }

  /**
   * Sends one track event now, outside the batches, and resolves once the service recorded it
   * (a newsletter or data wall's pass with it); rejects with `validation_failed` and `errors`
   * naming the fields (`data.email`) when the service refuses it.
   */
  async sendEvent(type: TrackEventType, fields: TrackFields = {}): Promise<void> {
    const api = this.ready();
    const event = this.eventOf(type, fields);
    await this.withToken((token) => api.request('/events', { body: event, token }), false);
  }

  /**
   * Asks the service about the checkout the reader came back from; once it is paid the
   * subscription is recorded (however late the processor's webhook), this page and the other tabs
   * are checked again, and `on('checkout', …)` hears it. `init` calls it on the page the success URL
   * of `checkout` leads to.
   */
  async confirmCheckout(sessionId: string): Promise<CheckoutConfirmation> {
    const api = this.ready();
    const confirmation = await this.withToken((token) => api.request<CheckoutConfirmation>('/subscriptions/checkout/confirm', { body: { sessionId }, token }), true);
    if (confirmation.status === 'complete') {
      (this.storage as KeyedStorage).set(ACCESS_CHANGED, this.env.randomId());
      await this.recheck();
    }
    this.emit('checkout', confirmation);
    return confirmation;
  }

  /** Sends the queued events now (the web components do before re-checking a newsletter or data wall). */
  flush(): Promise<void> {
    return this.events ? this.events.flush() : Promise.resolve();
  }

  trackPageview(): void {
    this.trackEvent('page_view');
  }

  /** `locale` picks the language of account email; `returnUrl` is where the verification link leads (this page when absent, see `EmailLinkOptions`). */
  async register(details: { email: string; password: string; name: string; locale?: string } & EmailLinkOptions): Promise<Session> {
    const result = await this.call<CustomerAuthResult>('/auth/customers/register', { body: { ...details, returnUrl: details.returnUrl ?? this.emailLinkPage() } });
    return (this.sessions as Sessions).save(result);
  }

  async login(credentials: { email: string; password: string }): Promise<Session> {
    const result = await this.call<CustomerAuthResult>('/auth/customers/login', { body: credentials });
    return (this.sessions as Sessions).save(result);
  }

  /**
   * The account email link that opened this page (`{kind, token}`: `password_reset`, `login_code`
   * or `email_verification`), taken out of the URL by `init`; null when there is none. Nothing is
   * used up until the page confirms it with `confirmPasswordReset`, `signInWithLink` or
   * `verifyEmail` after the reader asked for it, so mail filters that open links burn nothing.
   */
  readEmailLink(): EmailLink | null {
    this.ready();
    return this.emailLink && { ...this.emailLink };
  }

  /** Emails a link to choose a new password, if the address is a reader's (the answer never says). */
  async requestPasswordReset(email: string, options: EmailLinkOptions = {}): Promise<void> {
    await this.call<EmailRequestAccepted>('/auth/customers/password-reset', { body: { email, returnUrl: options.returnUrl ?? this.emailLinkPage() } });
  }

  /** Sets a new password with the reset link's token and signs the reader in; every other session ends. */
  async confirmPasswordReset(token: string, password: string): Promise<Session> {
    return this.signIn('/auth/customers/password-reset/confirm', { token, password });
  }

  /** Emails a 6-digit sign-in code and a sign-in link, if the address is a reader's (the answer never says). */
  async requestLoginCode(email: string, options: EmailLinkOptions = {}): Promise<void> {
    await this.call<EmailRequestAccepted>('/auth/customers/login-code', { body: { email, returnUrl: options.returnUrl ?? this.emailLinkPage() } });
  }

  /** Signs in with the emailed code; `code_invalid` when wrong, expired or used up. */
  async signInWithCode(email: string, code: string): Promise<Session> {
    return this.signIn('/auth/customers/login-code/verify', { email, code: code.replace(/\s+/g, '') });
  }

  /** Signs in with the token of the sign-in email's link (see `readEmailLink`). */
  async signInWithLink(token: string): Promise<Session> {
    return this.signIn('/auth/customers/login-code/link', { token });
  }

  /**
   * Confirms the reader's address with the verification link's token. A logged-in reader's tokens
   * are refreshed, so that the access token says the address is verified.
   */
  async verifyEmail(token: string): Promise<CustomerProfile> {
    const profile = await this.call<CustomerProfile>('/auth/customers/verify-email', { body: { token } });
    this.forgetLink(token);
    const sessions = this.sessions as Sessions;
    const session = sessions.current();
    if (session) await sessions.refresh(session.accessToken).catch(() => undefined);
    return profile;
  }

  /** Emails the logged-in reader a new verification link. */
  async requestEmailVerification(options: EmailLinkOptions = {}): Promise<void> {
    const api = this.ready();
    const body = { returnUrl: options.returnUrl ?? this.emailLinkPage() };
    await this.withToken((token) => api.request<EmailRequestAccepted>('/auth/customers/verify-email/send', { body, token }), true);
  }

  /**
   * Logs the reader out here and in every tab; the service revokes the session too. `everywhere`:
   * every session of the reader ends, on other devices at their next refresh.
   */
  async logout(options: { everywhere?: boolean } = {}): Promise<void> {
    this.ready();
    const sessions = this.sessions as Sessions;
    const refreshToken = sessions.refreshToken();
    sessions.clear();
    if (refreshToken) await this.call('/auth/customers/logout', { body: { refreshToken, everywhere: options.everywhere } }).catch(() => undefined);
  }

  /** A request as the logged-in reader (the account methods use it); `customer_token_required` when nobody is, unless `required` is false (then anonymous). */
  authorized<T>(path: string, options: Omit<RequestOptions, 'token'> = {}, required = true): Promise<T> {
    const api = this.ready();
    return this.withToken((token) => api.request<T>(path, { ...options, token }), required);
  }

  /** The logged-in reader with a current access token (refreshed when about to expire), or null. */
  async getSession(): Promise<Session | null> {
    this.ready();
    await (this.sessions as Sessions).accessToken();
    return (this.sessions as Sessions).current();
  }

  /** Called when the reader logs in or out, in this tab or another; returns the unsubscribe function. */
  onAuthChange(callback: (session: Session | null) => void): () => void {
    this.ready();
    return (this.sessions as Sessions).onChange(callback);
  }

  /**
   * Starts a checkout for the logged-in reader and sends the browser to the processor's page. The
   * success URL gets `gatehouse_checkout={CHECKOUT_SESSION_ID}`, so the page it leads to confirms it.
   */
  async checkout(options: CheckoutOptions): Promise<void> {
    const api = this.ready();
    const checkout = { offerCode: this.offerCode, ...options, successUrl: withCheckoutReturn(options.successUrl) };
    // An offer may be limited to a segment: it is decided on the reader as the checks state them.
    const body = checkout.offerCode ? { ...checkout, reader: this.readerFacts() } : checkout;
    const { url } = await this.withToken((token) => api.request<CheckoutSessionView>('/subscriptions/checkout', { body, token }), true);
    this.env.location.assign(url);
  }

  /**
   * A share link for `url` (this page by default), for the logged-in subscriber to send: it opens
   * that page for whoever holds it, within the publication's limits (docs/sdk.md#sharing). Rejects
   * with `share_not_subscriber`, `sharing_disabled` or `share_allowance_exceeded`.
   */
  share(url: string = this.env.location.href): Promise<ShareLink> {
    const api = this.ready();
    return this.withToken((token) => api.request<ShareLink>('/access/share-links', { body: { url }, token }), true);
  }

  /** Sends the logged-in reader to the processor's billing portal. */
  async openPortal(options: { returnUrl: string }): Promise<void> {
    const api = this.ready();
    const { url } = await this.withToken((token) => api.request<{ url: string }>('/subscriptions/portal', { body: { returnUrl: options.returnUrl }, token }), true);
    this.env.location.assign(url);
  }

  /** What switching the reader's own subscription to `priceId` would do, in money and dates; changes nothing. */
  previewPlanChange(options: PlanChangeOptions): Promise<PlanChangePreview> {
    const api = this.ready();
    return this.withToken((token) => api.request<PlanChangePreview>('/subscriptions/plan-change/preview', { body: options, token }), true);
  }

  /** Switches the reader's own subscription to `priceId`: now and prorated (an upgrade, by default) or at the period end (a downgrade, by default). */
  changePlan(options: PlanChangeOptions): Promise<PlanChangeResult> {
    const api = this.ready();
    return this.withToken((token) => api.request<PlanChangeResult>('/subscriptions/plan-change', { body: options, token }), true);
  }

  /** Pauses collection of the reader's own subscription for 1 to 3 months. */
  pauseSubscription(options: { subscriptionId: string; months: number }): Promise<SubscriptionView> {
    const api = this.ready();
    return this.withToken((token) => api.request<SubscriptionView>('/subscriptions/pause', { body: options, token }), true);
  }

  /** Resumes the reader's own paused subscription now. */
  resumeSubscription(options: { subscriptionId: string }): Promise<SubscriptionView> {
    const api = this.ready();
    return this.withToken((token) => api.request<SubscriptionView>('/subscriptions/resume', { body: options, token }), true);
  }

  /** The publication's branding, fetched once per page. */
  getBranding(): Promise<BrandingConfiguration> {
    const api = this.ready();
    this.branding ??= api.request<BrandingConfiguration>('/branding').catch((error) => {
      this.branding = undefined;
      throw error;
    });
    return this.branding;
  }

  /**
   * An offer's terms by its code, for this reader on this page; an unknown code rejects with
   * `not_found`, an ended or used-up one with `offer_expired` or `offer_exhausted`, one limited to
   * a segment the reader is not in with `offer_not_applicable`.
   */
  getOffer(code: string): Promise<OfferTerms> {
    const api = this.ready();
    const query = { code, ...this.readerFacts() };
    return this.withToken((token) => api.request<OfferTerms>('/offers', { query, token }), false);
  }

  /** The prices on sale (active prices of active products, cheapest first), fetched once per page: what the paywalls offer. */
  getPrices(): Promise<OfferedPriceView[]> {
    const api = this.ready();
    this.prices ??= api.request<{ prices: OfferedPriceView[] }>('/prices').then(
      (answer) => answer.prices,
      (error) => {
        this.prices = undefined;
        throw error;
      },
    );
    return this.prices;
  }

  on<K extends keyof Events>(event: K, handler: (payload: Events[K]) => void): () => void {
    const handlers = this.handlers[event] as Set<(payload: Events[K]) => void>;
    if (!handlers) throw new GatehouseError('validation_failed', 0, `Unknown Gatehouse event: ${String(event)}`);
    handlers.add(handler);
    return () => void handlers.delete(handler);
  }

  private ready(): Api {
    if (!this.api) throw new GatehouseError('not_initialized', 0, 'Call init({publishableKey}) first.');
    return this.api;
  }

  private eventOf(type: TrackEventType, { url, ...rest }: TrackFields): TrackEvent {
    return { ...rest, type, url: url ?? this.env.location.href, userId: this.visitorId(), occurredAt: new Date(this.env.now()).toISOString() };
  }

  /** Checks the page again as it was last checked; nothing when it never was. */
  private async recheck(): Promise<void> {
    if (this.lastCheck) await this.checkAccess(...this.lastCheck).catch((error) => this.fail(error));
  }

  /** The confirmation on return from checkout, tried again a little later while the service or the processor cannot answer. */
  private async confirmReturn(sessionId: string, attempt: number): Promise<void> {
    try {
      await this.confirmCheckout(sessionId);
    } catch (error) {
      if (attempt < 2 && isUnavailable(error)) this.env.timers.setTimeout(() => void this.confirmReturn(sessionId, attempt + 1), 1000 << attempt);
      else this.fail(error);
    }
  }

  /** The site's id for the visitor (`identify`), else a random one kept in localStorage. */
  private visitorId(): string {
    const storage = this.storage as KeyedStorage;
    let id = storage.get('visitor');
    if (!id) {
      id = this.env.randomId();
      storage.set('visitor', id);
    }
    return id;
  }

  /** The stored access token unless it has expired: the events then go with the visitor id alone. */
  private unexpiredToken(): string | null {
    const session = (this.sessions as Sessions).current();
    return session && session.expiresAt > this.env.now() ? session.accessToken : null;
  }

  /** This page without its fragment: where emailed links lead back to by default. */
  /**
   * This page without its fragment, as an emailed link's page: only when the service takes it as
   * one (https, or http on a loopback host; no user name or password; at most 2000 characters).
   */
  private emailLinkPage(): string | undefined {
    const page = this.env.location.href.split('#')[0];
    let url: URL;
    try {
      url = new URL(page);
    } catch {
      return undefined;
    }
    const loopback = /^(localhost|.+\.localhost|127(\.\d{1,3}){3}|\[::1\])$/.test(url.hostname);
    const web = url.protocol === 'https:' || (url.protocol === 'http:' && loopback);
    return web && !url.username && !url.password && page.length <= 2000 ? page : undefined;
  }

  private async signIn(path: string, body: Record<string, string>): Promise<Session> {
    const result = await this.call<CustomerAuthResult>(path, { body });
    if (body.token) this.forgetLink(body.token);
    return (this.sessions as Sessions).save(result);
  }

  private forgetLink(token: string): void {
    if (this.emailLink?.token === token) this.emailLink = null;
  }

  private call<T>(path: string, options: { body: unknown }): Promise<T> {
    return this.ready().request<T>(path, options);
  }

  /**
   * A request with the reader's access token. A 401 for the token (`token_expired`,
   * `token_invalid`) refreshes once and retries once; a second such 401 logs the reader out.
   * Without a session: rejects with `customer_token_required` when one is `required`, else the
   * request goes out anonymously.
   */
  private async withToken<T>(send: (token: string | null) => Promise<T>, required: boolean): Promise<T> {
    const sessions = this.sessions as Sessions;
    const token = await sessions.accessToken();
    if (!token && required) throw new GatehouseError('customer_token_required', 401, 'The reader is not logged in.');
    try {
      return await send(token);
    } catch (error) {
      if (!token || !isTokenRefusal(error)) throw error;
      const session = await sessions.refresh(token);
      if (!session && required) throw error;
      try {
        return await send(session ? session.accessToken : null);
      } catch (again) {
        if (isTokenRefusal(again)) sessions.clear();
        throw again;
      }
    }
  }

  private fail(error: unknown): GatehouseError {
    const failure = error instanceof GatehouseError ? error : new GatehouseError('internal_error', 0, String(error));
    this.emit('error', failure);
    return failure;
  }

  private emit<K extends keyof Events>(event: K, payload: Events[K]): void {
    for (const handler of [...this.handlers[event]]) {
      try {
        (handler as (payload: Events[K]) => void)(payload);
      } catch (error) {
        this.env.warn('Gatehouse: an event handler threw', error);
      }
    }
  }
}

function isTokenRefusal(error: unknown): boolean {
  return error instanceof GatehouseError && error.status === 401 && (error.code === 'token_expired' || error.code === 'token_invalid');
}
