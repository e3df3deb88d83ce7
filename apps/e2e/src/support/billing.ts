import type { EventEnvelope } from '@gatehouse/contracts';
import { Clock } from '@gatehouse/platform';
import type { RunningService } from '@gatehouse/runtime';
import { eventually } from '@gatehouse/testing';
import { randomUUID } from 'node:crypto';
import { EventReader } from './events';
import { ENVIRONMENT_WEBHOOK_SECRET, SECRET_KEY, WEBHOOK_SECRET } from './fake-processor';
import type { Answer } from './http';
import { adminSession } from './staff';
import { TestSystem } from './test-system';

export * from './fake-processor';

/** The real time, moved forward when a test says so: what billing sees when a test needs days to pass. */
export class SteerableClock extends Clock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

export interface Customer {
  id: string;
  email: string;
  accessToken: string;
}

/**
 * Identity, admin, billing and the gateway over the real NATS and PostgreSQL, billing pointed
 * at a fake processor; a staff session, a key pair, and helpers for what billing tests repeat.
 */
export class BillingSystem extends TestSystem {
  private reader?: EventReader;

  /** `clock`: the time billing reads, the system's unless given. */
  static start(clock?: Clock): Promise<BillingSystem> {
    return this.boot({
      name: 'billing',
      services: ['identity', 'admin', 'billing'],
      publication: { name: 'Billing Gazette', domains: ['billing.example'] },
      env: { billing: { PROCESSOR_WEBHOOK_SECRET: ENVIRONMENT_WEBHOOK_SECRET } },
      clocks: { billing: clock },
      processor: true,
      keys: 'billing-site',
      busClient: true,
    });
  }

  /** The billing service. */
  get billing(): RunningService {
    return this.replicasOf('billing')[0];
  }

  /** Reads billing's own tables, to see what is (not) stored. */
  query<T extends Record<string, any>>(text: string, params: unknown[] = []): Promise<T[]> {
    return this.querySchema<T>('billing', text, params);
  }

  /** A second publication of the same admin, with its own key pair: for tenant boundaries. */
  async otherPublication(): Promise<{ publicationId: string; publishableKey: string; secretKey: string }> {
    const created = await this.admin('/admin/publications', { body: { name: `Other ${randomUUID().slice(0, 6)}`, domains: [`other-${randomUUID()}.example`] } });
    const { session } = await adminSession(this.gateway.url);
    await this.api('/admin/session/publication', { method: 'PUT', session, body: { publicationId: created.body.id } });
    const keys = await this.api('/admin/api-keys', { session, body: { name: 'other-site' } });
    return { publicationId: created.body.id, ...keys.body };
  }

  /** Processor settings with a supplied webhook secret: no endpoint is created, and events are signed with WEBHOOK_SECRET. */
  async connectProcessor(): Promise<void> {
    const saved = await this.admin('/admin/processor', { method: 'PUT', body: { secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET } });
    if (saved.status !== 200) throw new Error(`saving processor settings: ${saved.status} ${JSON.stringify(saved.body)}`);
  }

  async product(body: Record<string, unknown> = { name: `Plan ${randomUUID().slice(0, 8)}` }): Promise<any> {
    const res = await this.admin('/admin/products', { body });
    if (res.status !== 201) throw new Error(`creating a product: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async price(productId: string, body: Record<string, unknown> = { currency: 'eur', unitAmount: 900, interval: 'month' }): Promise<any> {
    const res = await this.admin(`/admin/products/${productId}/prices`, { body });
    if (res.status !== 201) throw new Error(`creating a price: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  /** The processor's id of a price, as billing recorded it. */
  async processorPriceId(priceId: string): Promise<string> {
    const [row] = await this.query<{ processor_price_id: string }>('SELECT processor_price_id FROM prices WHERE id = $1', [priceId]);
    return row.processor_price_id;
  }

  async customer(): Promise<Customer> {
    const email = `reader-${randomUUID()}@example.com`;
    const res = await this.api('/auth/customers/register', { key: this.publishableKey, body: { email, password: 'reader-password', name: 'Reader' } });
    if (res.status !== 201) throw new Error(`registering: ${res.status} ${JSON.stringify(res.body)}`);
    return { id: res.body.customer.id, email, accessToken: res.body.accessToken };
  }

  async checkout(customer: Customer, priceId: string, extra: Record<string, unknown> = {}): Promise<Answer> {
    return this.api('/subscriptions/checkout', {
      key: this.secretKey,
      body: { priceId, customerId: customer.id, successUrl: 'https://billing.example/ok', cancelUrl: 'https://billing.example/no', ...extra },
    });
  }

  /** Checks out, pays at the processor, and delivers what the processor then sends: the customer's first subscription. */
  async subscribe(customer: Customer, priceId: string, options: { status?: string; created?: number } = {}): Promise<{ subscription: any; processorSubscriptionId: string }> {
    const started = await this.checkout(customer, priceId);
    if (started.status !== 201) throw new Error(`checkout: ${started.status} ${JSON.stringify(started.body)}`);
    const paid = await this.fake.completeCheckout(started.body.sessionId, options);
    for (const event of paid.events) await this.deliverOk(event);
    const subscription = await eventually(async () => (await this.subscriptionsOf(customer.id))[0]);
    return { subscription, processorSubscriptionId: paid.subscription!['id'] };
  }

  /** Delivers an event to the inbound route, signed with the publication's webhook secret unless told otherwise. */
  deliver(event: object, options: { publication?: string | null; secret?: string; timestamp?: number; signature?: string | null } = {}): Promise<Answer> {
    const publication = options.publication === undefined ? this.publicationId : options.publication;
    const target = `${this.gateway.url}/api/v1/webhooks/processor${publication ? `?publication=${publication}` : ''}`;
    return this.fake.deliver(target, options.secret ?? WEBHOOK_SECRET, event, options);
  }

  async deliverOk(event: object): Promise<void> {
    const answer = await this.deliver(event);
    if (answer.status !== 200) throw new Error(`delivering: ${answer.status} ${JSON.stringify(answer.body)}`);
  }

  /** subscriptions/me with the secret key. */
  async subscriptionsOf(customerId: string): Promise<any[]> {
    const res = await this.api(`/subscriptions/me?customerId=${customerId}`, { key: this.secretKey });
    if (res.status !== 200) throw new Error(`subscriptions/me: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.subscriptions;
  }

  /** Waits until subscriptions/me shows the first subscription matching `expected`. */
  async eventuallySubscription(customerId: string, expected: Record<string, unknown>): Promise<any> {
    return eventually(async () => {
      const [subscription] = await this.subscriptionsOf(customerId);
      return subscription && Object.entries(expected).every(([key, value]) => subscription[key] === value) ? subscription : undefined;
    });
  }

  /** Starts collecting what billing publishes on the event stream, from the beginning, as another service would consume it. */
  async readOutboundEvents(): Promise<void> {
    this.reader = await EventReader.start(this.namespace, [
      'subscription.created',
      'subscription.updated',
      'subscription.cancelled',
      'subscription.trial_ended',
      'subscription.paused',
      'subscription.resumed',
      'invoice.paid',
      'invoice.payment_failed',
      'invoice.upcoming',
      'experiment.converted',
      'internal.entitlements.changed',
    ]);
  }

  outboundFor(name: string, match: (data: any) => boolean = () => true): EventEnvelope<any>[] {
    return this.reader?.all(name, match) ?? [];
  }

  override async close(): Promise<void> {
    await this.reader?.close();
    await super.close();
  }
}

export const unixNow = (): number => Math.floor(Date.now() / 1000);
