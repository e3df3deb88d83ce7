import type { AccessCheckResult, PaywallDraft, PaywallView } from '@gatehouse/contracts';
import { SystemClock, type Clock } from '@gatehouse/platform';
import { eventually } from '@gatehouse/testing';
import { randomUUID } from 'node:crypto';
import { WEBHOOK_SECRET, type ProcessorEvent } from './fake-processor';
import type { Call } from './http';
import { TestSystem } from './test-system';

export const SITE = 'https://all.example';
const systemClock = new SystemClock();

export interface Reader {
  id: string;
  accessToken: string;
}

export interface SystemOptions {
  /** The time access and billing read; the system's unless given. */
  clock?: Clock;
  /** More configuration of the access service, e.g. PAST_DUE_GRACE_DAYS. */
  accessEnv?: Record<string, string>;
  /** Also start webhooks-out and branding, so every route of the API has its service. */
  everyService?: boolean;
  /** More configuration of identity, e.g. SMTP_URL. */
  identityEnv?: Record<string, string>;
  /** More configuration of the gateway, e.g. TRUST_PROXY. */
  gatewayEnv?: Record<string, string>;
  /** The time identity signs tokens with: set back, its access tokens expire sooner in real time. */
  identityClock?: Clock;
  /** Domains of the publication besides all.example (a browser test's page host). */
  domains?: string[];
  /** How many access replicas share the work (1 unless given). */
  accessReplicas?: number;
}

/**
 * Identity, admin, access and billing, each its own Nest application over the machine's NATS and
 * PostgreSQL, the gateway in front, billing pointed at the fake processor (its own process), and
 * the processor connected with a supplied webhook secret: what a publication running every
 * feature looks like, for tests of features that meet across services.
 */
export class WholeSystem extends TestSystem {
  static start({ clock, accessEnv = {}, everyService = false, identityEnv = {}, gatewayEnv = {}, identityClock, domains = [], accessReplicas = 1 }: SystemOptions = {}): Promise<WholeSystem> {
    return this.boot({
      name: 'all',
      services: ['identity', 'admin', 'access', 'billing', ...(everyService ? (['webhooks-out', 'branding'] as const) : [])],
      publication: { name: 'All Services Daily', domains: ['all.example', ...domains] },
      // A check waits on billing at most this long: the longest allowed, so a busy machine does not turn a subscriber away.
      env: { access: { ENTITLEMENTS_TIMEOUT_MS: '5000', ...accessEnv }, identity: identityEnv, gateway: gatewayEnv },
      clocks: { identity: identityClock, access: clock, billing: clock },
      accessReplicas,
      processor: true,
      keys: 'site',
      connectProcessor: true,
    });
  }

  /** The time access and billing read. */
  private get clock(): Clock {
    return this.options.clocks?.billing ?? systemClock;
  }

  /** `GET /access/check` of a path on SITE with the publishable key: the decision, failing on any status but 200. */
  async decision(path: string, query: Record<string, string> = {}, options: Call = {}): Promise<AccessCheckResult> {
    const params = new URLSearchParams({ url: `${SITE}${path}`, ...query });
    return (await this.answered(200, `/access/check?${params}`, { key: this.publishableKey, ...options })).body;
  }

  /** What a reader's browser sees: `decision` with the reader's JWT. */
  decisionFor(reader: Reader, path: string): Promise<AccessCheckResult> {
    return this.decision(path, {}, { token: reader.accessToken });
  }

  /** `POST /events` with the publishable key: one event or a batch, answered 202. */
  async track(body: unknown): Promise<void> {
    await this.answered(202, '/events', { key: this.publishableKey, body });
  }

  async paywall(draft: PaywallDraft): Promise<PaywallView> {
    return (await this.answered(201, '/admin/paywalls', { session: this.session, body: draft })).body;
  }

  async product(name: string, entitlements: string[] = []): Promise<{ id: string }> {
    return (await this.answered(201, '/admin/products', { session: this.session, body: { name, entitlements } })).body;
  }

  async price(productId: string, body: { currency: string; unitAmount: number; interval: 'month' | 'year' | 'lifetime'; trialDays?: number }): Promise<{ id: string }> {
    return (await this.answered(201, `/admin/products/${productId}/prices`, { session: this.session, body })).body;
  }

  async reader(): Promise<Reader> {
    const body = { email: `reader-${randomUUID()}@example.com`, password: 'reader-password', name: 'Reader' };
    const registered = await this.answered(201, '/auth/customers/register', { key: this.publishableKey, body });
    return { id: registered.body.customer.id, accessToken: registered.body.accessToken };
  }

  /** A subscription granted by hand in the dashboard: active for good. */
  async grant(reader: Reader, priceId: string): Promise<{ subscriptionId: string }> {
    return (await this.answered(201, '/admin/subscriptions', { session: this.session, body: { customerId: reader.id, priceId } })).body;
  }

  /**
   * A checkout the reader pays at the processor, and what the processor then sends, signed: the
   * reader's newest subscription once billing stored it, and its id at the processor.
   */
  async subscribe(reader: Reader, priceId: string, experiment: { experimentId: string; variantId: string } | object = {}): Promise<{ subscriptionId: string; status: string; processorId: string }> {
    const before = (await this.subscriptionsOf(reader)).length;
    const started = await this.answered(201, '/subscriptions/checkout', {
      key: this.secretKey,
      body: { priceId, customerId: reader.id, successUrl: `${SITE}/thanks`, cancelUrl: `${SITE}/pricing`, ...experiment },
    });
    const paid = await this.fake.completeCheckout(started.body.sessionId, { created: this.processorNow() });
    for (const event of paid.events) await this.deliver(event);
    const subscription = await eventually(async () => {
      const subscriptions = await this.subscriptionsOf(reader);
      return subscriptions.length > before ? subscriptions[0] : undefined;
    });
    return { ...subscription, processorId: paid.subscription!['id'] };
  }

  /** Delivers a processor event to the webhook route, signed at the time billing reads. */
  async deliver(event: ProcessorEvent): Promise<void> {
    const target = `${this.gateway.url}/api/v1/webhooks/processor?publication=${this.publicationId}`;
    const answer = await this.fake.deliver(target, WEBHOOK_SECRET, event, { timestamp: this.processorNow() });
    if (answer.status !== 200) throw new Error(`delivering ${event.type}: ${answer.status} ${JSON.stringify(answer.body)}`);
  }

  /** The processor's own time for its events: the time billing reads, in its whole seconds. */
  processorNow(): number {
    return Math.floor(this.clock.now().getTime() / 1000);
  }

  /** subscriptions/me with the secret key, newest first. */
  async subscriptionsOf(reader: Reader): Promise<Array<{ subscriptionId: string; status: string }>> {
    return (await this.answered(200, `/subscriptions/me?customerId=${reader.id}`, { key: this.secretKey })).body.subscriptions;
  }

  /** Waits until the reader's newest subscription has that status. */
  eventuallyStatus(reader: Reader, status: string): Promise<unknown> {
    return eventually(async () => ((await this.subscriptionsOf(reader))[0]?.status === status ? true : undefined));
  }
}
