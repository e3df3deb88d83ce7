import { Events } from '@gatehouse/contracts';
import { eventually } from '@gatehouse/testing';
import { randomUUID } from 'node:crypto';
import { exampleOf, WEBHOOKS_ENV, WebhookReceiver, WebhooksSystem, type AttemptBody } from './support/webhooks';

/** Retries 1 s and 2 s after the first attempt: room to stop the service between attempts. */
const ENV = { ...WEBHOOKS_ENV, WEBHOOK_RETRY_DELAYS_SECONDS: '1,2', WEBHOOK_TIMEOUT_MS: '300' };

/**
 * The retry schedule lives in PostgreSQL (decisions G3): it survives a restart of webhooks-out,
 * and replicas share it without ever making the same attempt twice.
 */
describe('outbound webhook deliveries across restarts and replicas', () => {
  let system: WebhooksSystem;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    system = await WebhooksSystem.start(ENV);
    receiver = await WebhookReceiver.start();
  }, 60_000);

  afterAll(async () => {
    await receiver?.close();
    await system?.close();
  });

  const logWhere = (log: () => Promise<AttemptBody[]>, done: (entries: AttemptBody[]) => boolean, timeoutMs?: number) =>
    eventually(async () => {
      const entries = await log();
      return done(entries) ? entries : undefined;
    }, timeoutMs);

  const attemptsOf = (entries: AttemptBody[]) => entries.map(({ attempt, status }) => `${attempt}:${status}`);

  it('makes the remaining attempts after webhooks-out is stopped between attempts and started again, none twice', async () => {
    const publication = await system.publicationFor(receiver);
    receiver.answer('/restart', () => ({ status: 500 }));
    const webhook = await publication.register('/restart', ['subscription.cancelled']);
    await system.producer.emit(Events.SubscriptionCancelled, exampleOf(Events.SubscriptionCancelled), publication.publicationId);
    await logWhere(() => publication.log(webhook.id), (entries) => attemptsOf(entries).join() === '2:pending,1:failed');

    await system.stopWebhooksOut(system.webhooksOut[0]);
    // Down past the second attempt's due time.
    await eventually(async () => {
      const [due] = await system.query("SELECT 1 FROM delivery_attempts WHERE webhook_id = $1 AND status = 'pending' AND due_at < now()", [webhook.id]);
      return due;
    });
    expect(receiver.at('/restart')).toHaveLength(1);
    await system.startWebhooksOut(ENV);

    const log = await logWhere(() => publication.log(webhook.id), (entries) => entries.length === 3 && entries.every((e) => e.status === 'failed'));
    expect(attemptsOf(log)).toEqual(['3:failed', '2:failed', '1:failed']);
    const received = receiver.at('/restart');
    expect(received).toHaveLength(3);
    expect(new Set(received.map((r) => r.headers['x-service-delivery']))).toEqual(new Set([log[0].id]));
  });

  it('settles an attempt left claimed by a replica that died as interrupted, without sending it again, and goes on', async () => {
    const publication = await system.publicationFor(receiver);
    receiver.answer('/crash', () => ({ status: 500 }));
    const webhook = await publication.register('/crash', ['data.submit']);
    await system.producer.emit(Events.DataSubmit, exampleOf(Events.DataSubmit), publication.publicationId);
    await logWhere(() => publication.log(webhook.id), (entries) => attemptsOf(entries).join() === '2:pending,1:failed');

    await system.stopWebhooksOut(system.webhooksOut[0]);
    // What a replica killed in the middle of the second attempt leaves behind, once its lease has run out.
    await system.query(
      "UPDATE delivery_attempts SET status = 'sending', attempted_at = now(), lease_until = now() - interval '1 second' WHERE webhook_id = $1 AND status = 'pending'",
      [webhook.id],
    );
    await system.startWebhooksOut(ENV);

    const log = await logWhere(() => publication.log(webhook.id), (entries) => entries.length === 3 && entries.every((e) => e.status === 'failed'));
    expect(log.map(({ attempt, responseCode, error }) => ({ attempt, responseCode, error }))).toEqual([
      { attempt: 3, responseCode: 500, error: null },
      { attempt: 2, responseCode: null, error: 'interrupted: the sending process stopped before the attempt completed' },
      { attempt: 1, responseCode: 500, error: null },
    ]);
    expect(receiver.at('/crash')).toHaveLength(2);
  });

  it('never sends the same attempt twice from two replicas', async () => {
    const second = await system.startWebhooksOut(ENV);
    const publication = await system.publicationFor(receiver);
    // Each delivery fails once, then succeeds: first attempts and retries are both shared out.
    const firstOfItsDelivery = (delivery: string) => receiver.received.filter((r) => r.headers['x-service-delivery'] === delivery).length === 1;
    receiver.answer('/replica-a', (request) => (firstOfItsDelivery(String(request.headers['x-service-delivery'])) ? { status: 500 } : { status: 200 }));
    receiver.answer('/replica-b', (request) => (firstOfItsDelivery(String(request.headers['x-service-delivery'])) ? { status: 500 } : { status: 200 }));
    const webhooks = [await publication.register('/replica-a', ['paywall.converted']), await publication.register('/replica-b', ['paywall.converted'])];

    const events = 10;
    for (let i = 0; i < events; i++) {
      await system.producer.emit(Events.PaywallConverted, { ...exampleOf(Events.PaywallConverted), visitorId: `visitor-${i}` }, publication.publicationId);
    }

    for (const webhook of webhooks) {
      const log = await logWhere(
        () => publication.log(webhook.id),
        (entries) => entries.length === 2 * events && entries.every((e) => e.status !== 'pending'),
        20_000,
      );
      const attemptsByDelivery = new Map<string, string[]>();
      for (const entry of log) attemptsByDelivery.set(entry.id, [...(attemptsByDelivery.get(entry.id) ?? []), `${entry.attempt}:${entry.status}`]);
      expect(attemptsByDelivery.size).toBe(events);
      for (const attempts of attemptsByDelivery.values()) expect(attempts.sort()).toEqual(['1:failed', '2:succeeded']);
    }
    for (const path of ['/replica-a', '/replica-b']) {
      const received = receiver.at(path);
      expect(received).toHaveLength(2 * events);
      const perDelivery = new Map<string, number>();
      for (const r of received) perDelivery.set(String(r.headers['x-service-delivery']), (perDelivery.get(String(r.headers['x-service-delivery'])) ?? 0) + 1);
      expect([...perDelivery.values()]).toEqual(Array(events).fill(2));
    }
    await system.stopWebhooksOut(second);
  });

  it('refuses at delivery a target whose name now resolves to a private address, and records why (DNS rebinding)', async () => {
    const publication = await system.publicationFor(receiver);
    // Registered while private targets were allowed: to webhooks-out now, a name that was public then and points inside now.
    const url = `https://localhost:${new URL(receiver.url).port}/rebound`;
    const webhook = await system.register(url, ['experiment.converted'], publication.session);
    await system.stopWebhooksOut(system.webhooksOut[0]);
    const strict = await system.startWebhooksOut({ ...ENV, ALLOW_INSECURE_WEBHOOK_URLS: 'false' });

    await system.producer.emit(Events.ExperimentConverted, { ...exampleOf(Events.ExperimentConverted), customerId: randomUUID() }, publication.publicationId);
    const log = await logWhere(() => publication.log(webhook.id), (entries) => entries.length === 3 && entries.every((e) => e.status === 'failed'));
    for (const entry of log) {
      expect(entry).toMatchObject({ responseCode: null, error: 'target refused: the host name resolves to a private, loopback or link-local address' });
    }
    expect(receiver.at('/rebound')).toHaveLength(0);
    await system.stopWebhooksOut(strict);
    await system.startWebhooksOut(ENV);
  });
});
