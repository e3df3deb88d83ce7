import { Events, type CustomerEventData, type EventType, type InvoiceEventData, type OrganisationEventData, type OrganisationMemberEventData, type SubscriptionEventData } from '@gatehouse/contracts';
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TestSystem, WEBHOOKS_ENV } from './test-system';

export { EventProducer } from './events';
export { WEBHOOKS_ENV, type AttemptBody, type CreatedWebhookBody } from './test-system';

/**
 * The system a publisher's webhooks go through: admin (sessions), webhooks-out and the gateway as
 * separate applications over the real NATS and PostgreSQL, the bootstrap admin logged in, and an
 * outbox of its own (`producer`) from which tests emit the events of spec 6.2; `query` reads
 * webhooks-out's schema.
 */
export type WebhooksSystem = TestSystem;
export const WebhooksSystem = {
  /** `webhooksEnv`: the configuration of webhooks-out (WEBHOOKS_ENV unless given). */
  start(webhooksEnv: Record<string, string> = WEBHOOKS_ENV): Promise<WebhooksSystem> {
    return TestSystem.boot({
      name: 'wh',
      services: ['admin', 'webhooks-out'],
      publication: { name: 'Webhook Weekly', domains: ['weekly.example'] },
      env: { 'webhooks-out': webhooksEnv },
      ownSchema: 'webhooks_out',
      producer: true,
    });
  },
};

/** What the receiver answers: a status and body, or no answer at all until the connection is closed. */
export type Reply = { status: number; body?: string } | 'no answer';

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body, as signed. */
  body: string;
  /** Milliseconds since the epoch at arrival. */
  at: number;
}

/** A publisher's endpoint: a real HTTP server on 127.0.0.1 that records every request. */
export class WebhookReceiver {
  readonly received: ReceivedRequest[] = [];
  private readonly replies = new Map<string, (request: ReceivedRequest, nth: number) => Reply>();
  private readonly hanging = new Set<ServerResponse>();

  private readonly server: Server;
  /** e.g. http://127.0.0.1:41234 */
  url = '';

  private constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => this.handle({ path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() }, res));
    });
  }

  static async start(): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}`;
    return receiver;
  }

  /** How a path answers its nth request (1-based); 200 `ok` unless told. */
  answer(path: string, reply: (request: ReceivedRequest, nth: number) => Reply): void {
    this.replies.set(path, reply);
  }

  at(path: string): ReceivedRequest[] {
    return this.received.filter((request) => request.path === path);
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private handle(request: ReceivedRequest, res: ServerResponse): void {
    this.received.push(request);
    const reply = this.replies.get(request.path)?.(request, this.at(request.path).length) ?? { status: 200, body: 'ok' };
    if (reply === 'no answer') {
      this.hanging.add(res);
      return;
    }
    res.writeHead(reply.status, { 'Content-Type': 'text/plain' }).end(reply.body ?? '');
  }
}

/* How a receiver verifies a delivery, as docs/webhooks.md shows it. */

export function verifiesServiceSignature(request: ReceivedRequest, secret: string): boolean {
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(request.body).digest('hex')}`);
  const given = Buffer.from(String(request.headers['x-service-signature']));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function verifiesStandardSignature(request: ReceivedRequest, secret: string): boolean {
  const { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signatures } = request.headers;
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${request.body}`).digest('base64');
  return String(signatures)
    .split(' ')
    .some((signature) => signature === `v1,${expected}`);
}

/** One example of every event of spec 6.2, with data of its declared type. */
export function everyOutboundEvent(): Array<{ event: EventType<any>; data: unknown }> {
  const examples = exampleData();
  // Every event of the contracts, so an event added there without an example here fails the test.
  return Object.values(Events).map((event) => ({ event, data: examples.get(event) }));
}

/** Example data of one event. */
export function exampleOf<T>(event: EventType<T>): T {
  return exampleData().get(event) as T;
}

/** Each example is type-checked against its event's data type, so a change in the contracts shows here. */
function exampleData(): Map<EventType<any>, unknown> {
  const example = <T>(event: EventType<T>, data: NoInfer<T>): [EventType<any>, unknown] => [event, data];
  const subscription: SubscriptionEventData = {
    subscriptionId: randomUUID(),
    customerId: randomUUID(),
    priceId: randomUUID(),
    status: 'active',
    currentPeriodStart: '2031-01-01T00:00:00.000Z',
    currentPeriodEnd: '2031-02-01T00:00:00.000Z',
    source: 'manual',
    cancelAtPeriodEnd: false,
    trialStart: null,
    trialEnd: null,
    cancellationReason: null,
    pausedUntil: null,
    scheduledChange: null,
  };
  const invoice: InvoiceEventData = {
    invoiceId: 'in_1',
    subscriptionId: subscription.subscriptionId,
    customerId: subscription.customerId,
    amountDue: 900,
    amountPaid: 900,
    currency: 'eur',
  };
  const visitor = { visitorId: 'visitor-1', customerId: null, url: 'https://weekly.example/premium/1', paywallId: randomUUID(), occurredAt: '2031-01-01T00:00:00.000Z' };
  const customer: CustomerEventData = { customerId: randomUUID(), email: 'reader@example.com', name: 'Reader', emailVerified: false, createdAt: '2031-01-01T00:00:00.000Z' };
  const experiment = { experimentId: randomUUID(), variantId: randomUUID(), paywallId: randomUUID(), visitorId: 'visitor-1', customerId: null };
  const organisation: OrganisationEventData = {
    organisationId: randomUUID(),
    name: 'Acme University',
    productId: randomUUID(),
    seats: 25,
    seatsUsed: 3,
    startsAt: '2031-01-01T00:00:00.000Z',
    endsAt: null,
    domains: ['acme.example'],
    ipRanges: ['198.51.100.0/24'],
  };
  const member: OrganisationMemberEventData = {
    organisationId: organisation.organisationId,
    organisationName: organisation.name,
    customerId: customer.customerId,
    email: 'member@acme.example',
    via: 'invitation',
    seats: 25,
    seatsUsed: 3,
  };
  return new Map([
    example(Events.NewsletterSubscribe, { ...visitor, email: 'reader@example.com', data: {} }),
    example(Events.DataSubmit, { ...visitor, fields: ['company'] }),
    example(Events.SubscriptionCreated, subscription),
    example(Events.SubscriptionUpdated, { ...subscription, cancelAtPeriodEnd: true }),
    example(Events.SubscriptionPaused, { ...subscription, pausedUntil: '2031-03-01T00:00:00.000Z' }),
    example(Events.SubscriptionResumed, subscription),
    example(Events.SubscriptionCancelled, { ...subscription, status: 'cancelled' }),
    example(Events.SubscriptionTrialEnded, { ...subscription, trialStart: '2030-12-18T00:00:00.000Z', trialEnd: '2031-01-01T00:00:00.000Z' }),
    example(Events.InvoicePaid, invoice),
    example(Events.InvoicePaymentFailed, { ...invoice, amountPaid: 0 }),
    example(Events.InvoiceUpcoming, { ...invoice, invoiceId: null, amountPaid: 0, nextPaymentAttempt: '2031-02-01T00:00:00.000Z' }),
    example(Events.CustomerCreated, customer),
    example(Events.CustomerUpdated, { ...customer, name: 'Reader Renamed' }),
    example(Events.CustomerVerified, { ...customer, emailVerified: true }),
    example(Events.CustomerDeleted, customer),
    example(Events.PaywallShown, { ...visitor, experimentId: null, variantId: null }),
    example(Events.PaywallDismissed, { ...visitor, experimentId: null, variantId: null }),
    example(Events.PaywallConverted, { ...visitor, experimentId: experiment.experimentId, variantId: experiment.variantId }),
    example(Events.ExperimentAssigned, experiment),
    example(Events.ExperimentConverted, experiment),
    example(Events.ShareCreated, { shareLinkId: randomUUID(), customerId: customer.customerId, url: 'https://weekly.example/premium/1?gh_share=…', maxOpens: 5, expiresAt: '2031-01-08T00:00:00.000Z' }),
    example(Events.ShareOpened, {
      shareLinkId: randomUUID(),
      customerId: customer.customerId,
      url: 'https://weekly.example/premium/1?gh_share=…',
      visitorId: 'visitor-2',
      readerCustomerId: null,
      opens: 1,
      maxOpens: 5,
      occurredAt: '2031-01-02T00:00:00.000Z',
    }),
    example(Events.GiftPurchased, { giftId: randomUUID(), priceId: subscription.priceId, productId: randomUUID(), months: 3, amount: 2700, currency: 'eur', buyerCustomerId: null, sendAt: '2031-01-05T00:00:00.000Z' }),
    example(Events.GiftRedeemed, { giftId: randomUUID(), customerId: customer.customerId, subscriptionId: subscription.subscriptionId, priceId: subscription.priceId, months: 3, endsAt: '2031-04-05T00:00:00.000Z' }),
    example(Events.PassPurchased, { purchaseId: randomUUID(), customerId: customer.customerId, priceId: randomUUID(), kind: 'pass', url: null, startsAt: '2031-01-05T00:00:00.000Z', endsAt: '2031-01-06T00:00:00.000Z' }),
    example(Events.ArticlePurchased, {
      purchaseId: randomUUID(),
      customerId: customer.customerId,
      priceId: randomUUID(),
      kind: 'single_article',
      url: 'https://weekly.example/premium/1',
      startsAt: '2031-01-05T00:00:00.000Z',
      endsAt: null,
    }),
    example(Events.OrganisationCreated, organisation),
    example(Events.OrganisationUpdated, { ...organisation, seats: 30 }),
    example(Events.OrganisationDeleted, organisation),
    example(Events.OrganisationMemberInvited, { organisationId: organisation.organisationId, organisationName: organisation.name, invitationId: randomUUID(), email: 'member@acme.example', expiresAt: '2031-01-12T00:00:00.000Z' }),
    example(Events.OrganisationMemberJoined, member),
    example(Events.OrganisationMemberRemoved, { ...member, seatsUsed: 2, reason: 'removed' }),
  ]);
}

