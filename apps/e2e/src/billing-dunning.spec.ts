import type { AccessCheckResult, PaywallView } from '@gatehouse/contracts';
import { eventually } from '@gatehouse/testing';
import { randomUUID } from 'node:crypto';
import { SteerableClock, type ProcessorEvent } from './support/billing';
import { SmtpSink, type ReceivedMail } from './support/mail';
import { WholeSystem, type Reader } from './support/system-all';

const DAY_MS = 24 * 3_600_000;

/** The subjects of the built-in English copy of the payment email (libs/identity default-copy). */
const FIRST = 'Your All Services Daily payment did not go through';
const RETRY = 'Your All Services Daily payment failed again';
const FINAL = 'Last notice: your All Services Daily subscription is unpaid';
const CARD = 'Your card for All Services Daily expires soon';

/**
 * Failed-payment recovery (issue #27 item 4) across the services: the processor's signed invoice
 * events reach billing through the webhook, billing asks identity for the payment email, identity
 * sends it over SMTP (a real local SMTP server), and access follows the publication's grace period.
 */
describe('failed-payment recovery', () => {
  const clock = new SteerableClock();
  let sink: SmtpSink;
  let system: WholeSystem;
  let premium: PaywallView;
  let price: { id: string };

  beforeAll(async () => {
    sink = await SmtpSink.start();
    system = await WholeSystem.start({ clock, everyService: true, identityEnv: { SMTP_URL: sink.url } });
    premium = await system.paywall({ name: 'Premium', type: 'hard', match: { include: ['/premium/**'] } });
    price = await system.price((await system.product({ name: 'Everything' })).id, { currency: 'eur', unitAmount: 900, interval: 'month' });
  }, 90_000);

  afterAll(async () => {
    await system?.close();
    await sink?.close();
  });

  /** A registered reader whose address the test knows. */
  function reader(): Promise<Reader> {
    return system.reader();
  }

  const paymentMail = (email: string, subjects = [FIRST, RETRY, FINAL, CARD]): ReceivedMail[] => sink.to(email).filter((mail) => subjects.includes(mail.subject));

  /** Waits until billing processed the stored processor event (or its copy) of that id. */
  const processed = (eventId: string) =>
    eventually(async () => {
      const [row] = await system.querySchema<{ processed_at: Date | null }>('billing', 'SELECT processed_at FROM processor_events WHERE event_id = $1', [eventId]);
      return row?.processed_at ? true : undefined;
    });

  /** The processor's next attempt at the subscription's invoice, delivered; the event is returned for redelivery. */
  async function attempt(processorId: string, type: 'invoice.payment_failed' | 'invoice.payment_succeeded'): Promise<ProcessorEvent> {
    const event = await system.fake.invoiceEvent(processorId, type, { created: system.processorNow() + 1 });
    await system.deliver(event);
    await processed(event.id);
    return event;
  }

  /** The access check of a premium page as the reader's browser makes it, once access heard of the change (an event away). */
  async function expectDecision(r: Reader, expected: unknown): Promise<void> {
    const matches = async () => {
      try {
        expect(await system.decisionFor(r, '/premium/story')).toEqual(expected);
        return true;
      } catch {
        return undefined;
      }
    };
    await eventually(matches).catch(() => undefined);
    expect(await system.decisionFor(r, '/premium/story')).toEqual(expected);
  }

  const subscriber = (r: Reader): AccessCheckResult => ({ granted: true, reason: 'subscriber', customerId: r.id });
  const blocked = (r: Reader) => ({ granted: false, reason: 'blocked', customerId: r.id, paywallRule: expect.objectContaining({ paywallId: premium.id }) });

  it('sends the first-failure, last-retry and final emails once each, in order, each with a portal link, across redeliveries and a billing restart; a paid invoice makes it active', async () => {
    const ada = await reader();
    const { processorId } = await system.subscribe(ada, price.id);
    const processorCustomerId = (await system.fake.object('subscription', processorId))['customer'];

    const first = await attempt(processorId, 'invoice.payment_failed');
    expect(first.data.object['attempt_count']).toBe(1);
    await system.eventuallyStatus(ada, 'past_due');
    await eventually(() => (paymentMail(ada.email).length === 1 ? true : undefined));

    // The same event again, and the processor's copy of it under another id: stored once, or found already told.
    await system.deliver(first);
    const copy = { ...first, id: `evt_copy_${randomUUID().slice(0, 8)}` };
    await system.deliver(copy);
    await processed(copy.id);

    // Billing restarts between the failures: what it told the reader is on record, not in memory.
    await system.stopReplica(system.replicasOf('billing')[0]);
    await system.startReplica('billing');

    const second = await attempt(processorId, 'invoice.payment_failed');
    expect(second.data.object).toMatchObject({ id: first.data.object['id'], attempt_count: 2 });
    expect(second.data.object['next_payment_attempt']).toEqual(expect.any(Number));
    await system.deliver(copy);
    const third = await attempt(processorId, 'invoice.payment_failed');
    expect(third.data.object).toMatchObject({ id: first.data.object['id'], attempt_count: 3, next_payment_attempt: null });
    await eventually(() => (paymentMail(ada.email).length >= 3 ? true : undefined));
    await system.deliver(second);

    // Sent and given up messages leave identity's queue empty: nothing else is on its way.
    await eventually(async () => {
      const [row] = await system.querySchema<{ waiting: number }>('identity', `SELECT count(*)::int AS waiting FROM email_messages WHERE status IN ('pending', 'sending')`);
      return row.waiting === 0 ? true : undefined;
    });
    const mails = paymentMail(ada.email);
    expect(mails.map((mail) => mail.subject)).toEqual([FIRST, RETRY, FINAL]);
    for (const mail of mails) {
      const link = /: (http\S+\/portal\/(bps_\S+))/.exec(mail.text);
      expect(link?.[1].startsWith(`${system.fake.url}/portal/`)).toBe(true);
      expect(mail.html).toContain(`href="${link![1]}"`);
      // A session of this reader's own account at the processor (all.example is not proven, so no return page is named).
      expect(await system.fake.object('billing_portal.session', link![2])).toMatchObject({ customer: processorCustomerId, return_url: null });
    }
    // The local record staff read shows the messages without the portal link, which is a credential.
    const mailbox = await system.admin('/admin/mailbox?limit=20');
    const sent = mailbox.body.items.filter((item: { to: string; kind: string }) => item.to === ada.email && item.kind !== 'email_verification');
    expect(sent.map((item: { kind: string; status: string }) => [item.kind, item.status])).toEqual([
      ['payment_final', 'sent'],
      ['payment_retry', 'sent'],
      ['payment_failed', 'sent'],
    ]);

    await attempt(processorId, 'invoice.payment_succeeded');
    await system.eventuallyStatus(ada, 'active');
    await expectDecision(ada, subscriber(ada));
  }, 120_000);

  it("lets a past_due reader through within the publication's grace period and not past it", async () => {
    const bob = await reader();
    const { processorId } = await system.subscribe(bob, price.id);
    await attempt(processorId, 'invoice.payment_failed');
    await system.eventuallyStatus(bob, 'past_due');

    const settings = (body: unknown, session = system.session) => system.api('/admin/subscription-settings', { method: 'PUT', session, body });
    // Refused, changing nothing: out of range, not a number, a viewer.
    expect((await settings({ pastDueGraceDays: 61 })).body).toMatchObject({ status: 400, errors: [expect.objectContaining({ field: 'pastDueGraceDays' })] });
    expect((await settings({ pastDueGraceDays: '5' })).status).toBe(400);
    expect((await settings({ pastDueGraceDays: 5 }, (await system.staffSession('viewer')).session)).status).toBe(403);
    expect((await system.admin('/admin/subscription-settings')).body).toEqual({ pausedAccess: 'keep', pastDueGraceDays: null });

    try {
      // No grace: past it at once, though the service's default (3 days) would let the reader in.
      expect((await settings({ pastDueGraceDays: 0 })).body).toEqual({ pausedAccess: 'keep', pastDueGraceDays: 0 });
      await expectDecision(bob, blocked(bob));

      clock.advance(4 * DAY_MS);
      expect((await settings({ pastDueGraceDays: 5 })).status).toBe(200);
      await expectDecision(bob, subscriber(bob));
      // Another publication's setting is its own.
      const other = await system.otherPublicationSession();
      expect((await system.api('/admin/subscription-settings', { session: other.session })).body).toEqual({ pausedAccess: 'keep', pastDueGraceDays: null });
      expect((await settings({ pastDueGraceDays: 3 })).status).toBe(200);
      await expectDecision(bob, blocked(bob));
    } finally {
      clock.advance(-4 * DAY_MS);
      await settings({ pastDueGraceDays: null });
    }
    await expectDecision(bob, subscriber(bob));
  }, 60_000);

  it('reminds a subscriber once that their card expires', async () => {
    const cleo = await reader();
    const { processorId } = await system.subscribe(cleo, price.id);
    const processorCustomerId = (await system.fake.object('subscription', processorId))['customer'];
    const res = await fetch(`${system.fake.url}/_fake/customers/${processorCustomerId}/card-expiring`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    const expiring = (await res.json()) as ProcessorEvent;
    expect(expiring.type).toBe('customer.source.expiring');
    // The processor fails the portal session once: the event is retried, and the reminder still goes once, with its link.
    await system.fake.failNext({ method: 'POST', path: '/v1/billing_portal/sessions', status: 500 });
    await system.deliver(expiring);
    await system.deliver(expiring);
    const copy = { ...expiring, id: `evt_copy_${randomUUID().slice(0, 8)}` };
    await system.deliver(copy);
    await processed(copy.id);
    await eventually(() => (paymentMail(cleo.email).length === 1 ? true : undefined));
    await eventually(async () => {
      const [row] = await system.querySchema<{ waiting: number }>('identity', `SELECT count(*)::int AS waiting FROM email_messages WHERE status IN ('pending', 'sending')`);
      return row.waiting === 0 ? true : undefined;
    });
    const [mail] = paymentMail(cleo.email);
    expect(paymentMail(cleo.email)).toHaveLength(1);
    expect(mail.subject).toBe(CARD);
    expect(mail.text).toMatch(new RegExp(`Update my card: ${system.fake.url}/portal/bps_`));
    // One session the processor failed, one it made.
    expect((await system.fake.requestsTo('POST', '/v1/billing_portal/sessions')).filter((r) => r.body['customer'] === processorCustomerId)).toHaveLength(2);
  }, 60_000);
});
