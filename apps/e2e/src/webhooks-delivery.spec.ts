import { Events } from '@gatehouse/contracts';
import { eventually } from '@gatehouse/testing';
import { randomUUID } from 'node:crypto';
import {
  everyOutboundEvent,
  exampleOf,
  verifiesServiceSignature,
  verifiesStandardSignature,
  WEBHOOKS_ENV,
  WebhookReceiver,
  WebhooksSystem,
  type AttemptBody,
  type ReceivedRequest,
} from './support/webhooks';

/** The spec's schedule (0 s, +10 s, +60 s) and timeout (10 s), compressed through their settings. */
const RETRY_OFFSETS_MS = [0, 400, 1200];
const TIMEOUT_MS = 300;

/**
 * Deliveries (spec 5.4, 6.2; decisions G3): events emitted through an outbox reach a real HTTP
 * receiver on 127.0.0.1, signed, retried on failure and logged.
 */
describe('outbound webhook deliveries', () => {
  let system: WebhooksSystem;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    system = await WebhooksSystem.start({
      ...WEBHOOKS_ENV,
      WEBHOOK_RETRY_DELAYS_SECONDS: RETRY_OFFSETS_MS.slice(1).map((ms) => ms / 1000).join(','),
      WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
    });
    receiver = await WebhookReceiver.start();
  }, 60_000);

  afterAll(async () => {
    await receiver?.close();
    await system?.close();
  });

  const arrivals = async (path: string, count: number): Promise<ReceivedRequest[]> =>
    eventually(() => (receiver.at(path).length >= count ? receiver.at(path) : undefined));

  /** The log once the delivery has ended: no attempt is pending any more. */
  const settledLog = (log: () => Promise<AttemptBody[]>, attempts: number) =>
    eventually(async () => {
      const entries = await log();
      return entries.length === attempts && entries.every((entry) => entry.status !== 'pending') ? entries : undefined;
    });

  it('delivers every event of spec 6.2, signed, to each registration that lists it and to no other', async () => {
    const ours = await system.publicationFor(receiver);
    const theirs = await system.publicationFor(receiver);
    const everything = await ours.register('/everything', everyOutboundEvent().map(({ event }) => event.name));
    const customers = await ours.register('/customers', ['customer.created']);
    await theirs.register('/theirs', ['customer.created']);

    const emitted = [];
    for (const { event, data } of everyOutboundEvent()) emitted.push(await system.producer.emit(event, data, ours.publicationId));
    const received = await arrivals('/everything', emitted.length);

    for (const envelope of emitted) {
      const request = received.find((r) => r.headers['x-service-event'] === envelope.name);
      expect(request).toBeDefined();
      const { headers, body } = request!;
      expect(JSON.parse(body)).toEqual({ event: envelope.name, data: envelope.data, timestamp: envelope.occurredAt });
      expect(Object.keys(JSON.parse(body))).toEqual(['event', 'data', 'timestamp']);
      expect(headers['content-type']).toBe('application/json');
      expect(headers['x-service-delivery']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(headers['webhook-id']).toBe(headers['x-service-delivery']);
      expect(Math.abs(Number(headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
      expect(verifiesServiceSignature(request!, everything.secret)).toBe(true);
      expect(verifiesStandardSignature(request!, everything.secret)).toBe(true);
      expect(verifiesServiceSignature(request!, customers.secret)).toBe(false);
    }
    expect(new Set(received.map((r) => r.headers['x-service-delivery'])).size).toBe(emitted.length);

    const [customerRequest] = await arrivals('/customers', 1);
    expect(JSON.parse(customerRequest.body).event).toBe('customer.created');
    expect(verifiesServiceSignature(customerRequest, customers.secret)).toBe(true);

    // Stream order: once a later event of their publication is delivered, ours would have reached them before it.
    const marker = await system.producer.emit(Events.CustomerCreated, { ...exampleOf(Events.CustomerCreated), customerId: randomUUID() }, theirs.publicationId);
    const [theirRequest] = await arrivals('/theirs', 1);
    expect(JSON.parse(theirRequest.body).data).toEqual(marker.data);
    expect(receiver.at('/theirs')).toHaveLength(1);
    expect(receiver.at('/customers')).toHaveLength(1);

    // The list shows a registration's last 20 attempts (docs/webhooks.md): one per event, each a first success.
    const shown = Math.min(emitted.length, 20);
    const log = await settledLog(() => ours.log(everything.id), shown);
    expect(log.every((entry) => entry.status === 'succeeded' && entry.attempt === 1 && entry.responseCode === 200 && entry.responseBody === 'ok')).toBe(true);
    const names = log.map((entry) => entry.event);
    expect(new Set(names).size).toBe(shown);
    const emittedNames: string[] = emitted.map((e) => e.name);
    expect(names.every((name) => emittedNames.includes(name))).toBe(true);
  });

  it('makes exactly three attempts at about 0 s, 10 s and 60 s against a receiver answering 500, and logs each', async () => {
    const publication = await system.publicationFor(receiver);
    receiver.answer('/broken', (_request, nth) => ({ status: 500, body: `boom ${nth}` }));
    const webhook = await publication.register('/broken', ['invoice.payment_failed']);
    await system.producer.emit(Events.InvoicePaymentFailed, exampleOf(Events.InvoicePaymentFailed), publication.publicationId);

    const log = await settledLog(() => publication.log(webhook.id), 3);
    const received = receiver.at('/broken');
    expect(received).toHaveLength(3);
    expectSchedule(received);
    expect(new Set(received.map((r) => r.headers['x-service-delivery']))).toEqual(new Set([log[0].id]));
    expect(new Set(received.map((r) => r.body)).size).toBe(1);
    expect(received.every((r) => verifiesServiceSignature(r, webhook.secret) && verifiesStandardSignature(r, webhook.secret))).toBe(true);

    expect(log).toEqual(
      [3, 2, 1].map((attempt) =>
        expect.objectContaining({ id: received[0].headers['x-service-delivery'], event: 'invoice.payment_failed', attempt, status: 'failed', responseCode: 500, responseBody: `boom ${attempt}`, error: null }),
      ),
    );
    expect(log.every((entry) => typeof entry.durationMs === 'number' && entry.attemptedAt !== null)).toBe(true);
  });

  it('counts an attempt without an answer within the timeout as failed, three times', async () => {
    const publication = await system.publicationFor(receiver);
    receiver.answer('/silent', () => 'no answer');
    const webhook = await publication.register('/silent', ['paywall.shown']);
    await system.producer.emit(Events.PaywallShown, exampleOf(Events.PaywallShown), publication.publicationId);

    const log = await settledLog(() => publication.log(webhook.id), 3);
    expect(receiver.at('/silent')).toHaveLength(3);
    expectSchedule(receiver.at('/silent'));
    for (const entry of log) {
      expect(entry).toMatchObject({ status: 'failed', responseCode: null, responseBody: null, error: `no answer within ${TIMEOUT_MS} ms` });
      expect(entry.durationMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
    }
  });

  it('ends the schedule at the first 2xx, and logs only the first 2 KiB of a body', async () => {
    const publication = await system.publicationFor(receiver);
    receiver.answer('/flaky', (_request, nth) => (nth === 1 ? { status: 503, body: 'try later' } : { status: 202, body: 'é'.repeat(1500) }));
    const webhook = await publication.register('/flaky', ['subscription.created']);
    await system.producer.emit(Events.SubscriptionCreated, exampleOf(Events.SubscriptionCreated), publication.publicationId);

    const log = await settledLog(() => publication.log(webhook.id), 2);
    expect(log.map(({ attempt, status, responseCode }) => ({ attempt, status, responseCode }))).toEqual([
      { attempt: 2, status: 'succeeded', responseCode: 202 },
      { attempt: 1, status: 'failed', responseCode: 503 },
    ]);
    // 1500 two-byte characters: the log keeps the first 2048 bytes, whole characters only.
    expect(log[0].responseBody).toBe('é'.repeat(1024));
    expect(receiver.at('/flaky')).toHaveLength(2);
  });

  it('stops every delivery to a deleted webhook, pending retries included', async () => {
    const publication = await system.publicationFor(receiver);
    receiver.answer('/deleted', () => ({ status: 500 }));
    receiver.answer('/later', () => ({ status: 500 }));
    const doomed = await publication.register('/deleted', ['customer.updated']);
    const customer = exampleOf(Events.CustomerUpdated);
    await system.producer.emit(Events.CustomerUpdated, customer, publication.publicationId);
    await arrivals('/deleted', 1);
    expect((await publication.api(`/admin/webhooks/${doomed.id}`, { method: 'DELETE' })).status).toBe(204);

    // A webhook failing the same way from a later event: once its schedule has run to the end, the deleted one's would have too.
    const later = await publication.register('/later', ['customer.updated']);
    await system.producer.emit(Events.CustomerUpdated, customer, publication.publicationId);
    await settledLog(() => publication.log(later.id), 3);
    expect(receiver.at('/later')).toHaveLength(3);
    expect(receiver.at('/deleted')).toHaveLength(1);
  });

  it('sends a signed webhook.test to one registration, with the secret from creation also after a PATCH, and redelivers', async () => {
    const publication = await system.publicationFor(receiver);
    const webhook = await publication.register('/test-before', ['experiment.assigned']);
    const other = await publication.register('/test-other', ['experiment.assigned']);

    const sent = await publication.api(`/admin/webhooks/${webhook.id}/test`, { method: 'POST' });
    expect(sent.status).toBe(202);
    expect(sent.body).toMatchObject({ event: 'webhook.test', attempt: 1, status: 'pending', responseCode: null });
    const [first] = await arrivals('/test-before', 1);
    expect(first.headers['x-service-event']).toBe('webhook.test');
    expect(first.headers['x-service-delivery']).toBe(sent.body.id);
    expect(JSON.parse(first.body)).toEqual({ event: 'webhook.test', data: { webhookId: webhook.id, message: expect.any(String) }, timestamp: expect.any(String) });
    expect(verifiesServiceSignature(first, webhook.secret) && verifiesStandardSignature(first, webhook.secret)).toBe(true);

    const patched = await publication.api(`/admin/webhooks/${webhook.id}`, { method: 'PATCH', body: { url: `${receiver.url}/test-after` } });
    expect(patched.status).toBe(200);
    await settledLog(() => publication.log(webhook.id), 1);
    const again = await publication.api(`/admin/webhooks/${webhook.id}/deliveries/${sent.body.id}/redeliver`, { method: 'POST' });
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ id: sent.body.id, event: 'webhook.test', attempt: 2, status: 'pending' });
    const [redelivered] = await arrivals('/test-after', 1);
    expect(redelivered.headers['x-service-delivery']).toBe(sent.body.id);
    expect(redelivered.body).toBe(first.body);
    expect(verifiesServiceSignature(redelivered, webhook.secret) && verifiesStandardSignature(redelivered, webhook.secret)).toBe(true);

    const log = await settledLog(() => publication.log(webhook.id), 2);
    expect(log.map(({ attempt, status }) => ({ attempt, status }))).toEqual([
      { attempt: 2, status: 'succeeded' },
      { attempt: 1, status: 'succeeded' },
    ]);
    expect(receiver.at('/test-other')).toHaveLength(0);
    expect(await publication.log(other.id)).toEqual([]);
    const unknown = await publication.api(`/admin/webhooks/${webhook.id}/deliveries/${randomUUID()}/redeliver`, { method: 'POST' });
    expect(unknown.body).toMatchObject({ status: 404, code: 'not_found' });
  });
});

/** Arrivals at about the schedule's offsets from the first, allowing for a loaded machine. */
function expectSchedule(received: ReceivedRequest[]): void {
  const offsets = received.map((request) => request.at - received[0].at);
  RETRY_OFFSETS_MS.forEach((expected, i) => {
    expect(offsets[i]).toBeGreaterThanOrEqual(expected - 100);
    expect(offsets[i]).toBeLessThan(expected + 1_500);
  });
}
