import { testNatsUrl } from '@gatehouse/testing';
import { deleteEventStream } from '@gatehouse/bus';
import { BillingSystem } from './support/billing';

/**
 * Spec 6.1: inbound events are queued on JetStream and retried when the queue is available, and
 * handled synchronously, in the request, when it is not. "Not available" is made real here by
 * deleting the namespace's stream while NATS itself keeps answering requests: publishing to
 * JetStream then fails, as it does when JetStream is disabled or has lost its stream.
 */
describe('billing: the queue of inbound processor events', () => {
  let system: BillingSystem;
  let priceId: string;

  beforeAll(async () => {
    system = await BillingSystem.start();
    await system.connectProcessor();
    priceId = (await system.price((await system.product()).id)).id;
  }, 60_000);

  afterAll(() => system?.close());

  /** A paid checkout whose completion billing can handle only by reading the subscription from the processor. */
  async function paidCheckout() {
    const customer = await system.reader();
    const started = await system.checkout(customer, priceId);
    const { events, subscription } = await system.fake.completeCheckout(started.body.sessionId);
    return { customer, completed: events.find((e) => e.type === 'checkout.session.completed')!, processorSubscriptionId: subscription!['id'] as string };
  }

  it('with JetStream available, answers at once and retries a handler that failed', async () => {
    const { customer, completed, processorSubscriptionId } = await paidCheckout();
    await system.fake.failNext({ method: 'GET', path: `/v1/subscriptions/${processorSubscriptionId}`, status: 500, times: 1 });

    // Handled in the request, the failure would have answered 502: queued, the sender only learns it was received.
    expect(await system.deliver(completed)).toMatchObject({ status: 200, body: { received: true } });
    await system.eventuallySubscription(customer.id, { status: 'active' });
    expect(await system.fake.requestsTo('GET', `/v1/subscriptions/${processorSubscriptionId}`)).toHaveLength(2);
  });

  it('with JetStream unavailable, handles the event in the request', async () => {
    await deleteEventStream([testNatsUrl()], system.namespace);
    const { customer, completed } = await paidCheckout();

    expect(await system.deliver(completed)).toMatchObject({ status: 200, body: { received: true } });
    // No waiting: it was processed before the answer.
    const [subscription] = await system.subscriptionsOf(customer.id);
    expect(subscription).toMatchObject({ customerId: customer.id, status: 'active' });
    const [record] = await system.query('SELECT processed_at, outcome FROM processor_events WHERE event_id = $1', [completed.id]);
    expect(record).toMatchObject({ outcome: 'applied' });
    expect(record.processed_at).not.toBeNull();

    // Redelivered while still unavailable: recorded once, nothing happens again.
    expect(await system.deliver(completed)).toMatchObject({ status: 200 });
    expect(await system.subscriptionsOf(customer.id)).toHaveLength(1);
    expect(await system.query('SELECT 1 FROM processor_events WHERE event_id = $1', [completed.id])).toHaveLength(1);
  });
});
