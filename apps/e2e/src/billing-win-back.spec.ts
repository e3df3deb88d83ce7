import { WinBackService } from '@gatehouse/billing';
import { eventually } from '@gatehouse/testing';
import { SteerableClock } from './support/billing';
import { SmtpSink } from './support/mail';
import { WholeSystem, type Reader } from './support/system-all';

const DAY_MS = 24 * 3_600_000;
/** The subject of the built-in English copy (libs/identity default-copy). */
const SUBJECT = 'Come back to All Services Daily';

/**
 * Win-back (issue #27 item 5) across the services: billing's sweep finds the cancellations whose
 * day has come, identity sends the branded email over SMTP (a real local SMTP server) through its
 * durable queue, once per cancellation across sweeps and a restart of billing; the offer it
 * carries, redeemed at a checkout, is counted as the email's conversion.
 */
describe('win-back', () => {
  const clock = new SteerableClock();
  let sink: SmtpSink;
  let system: WholeSystem;
  let price: { id: string };
  let offer: { id: string; code: string };
  const since = new Date(Date.now() - DAY_MS).toISOString();

  beforeAll(async () => {
    sink = await SmtpSink.start();
    system = await WholeSystem.start({ clock, everyService: true, identityEnv: { SMTP_URL: sink.url } });
    price = await system.price((await system.product({ name: 'Everything' })).id, { currency: 'eur', unitAmount: 900, interval: 'month' });
    offer = (await system.admin('/admin/offers', { body: { name: 'Come back', code: 'COMEBACK', kind: 'percent', percentOff: 30, duration: 'repeating', durationInMonths: 3 } })).body;
  }, 90_000);

  afterAll(async () => {
    await system?.close();
    await sink?.close();
  });

  const sweep = () => system.billing.app.get(WinBackService).sweep();
  const winBackMail = (email: string) => sink.to(email).filter((mail) => mail.subject === SUBJECT);

  /** A subscriber who cancels now (the secret key's immediate cancellation): their subscription has ended. */
  async function former(): Promise<Reader> {
    const reader = await system.reader();
    const { subscriptionId } = await system.subscribe(reader, price.id);
    const cancelled = await system.api('/subscriptions/cancel', { key: system.secretKey, body: { subscriptionId, atPeriodEnd: false } });
    expect(cancelled.body.status).toBe('cancelled');
    return reader;
  }

  it('is off by default: a cancellation long past sends nothing', async () => {
    expect((await system.admin('/admin/win-back')).body).toEqual({ enabled: false, days: 30, offerId: null });
    const gone = await former();
    clock.advance(40 * DAY_MS);
    expect(await sweep()).toBe(0);
    expect(winBackMail(gone.email)).toEqual([]);
  });

  it('refuses a bad setting and changes nothing; a viewer cannot change it', async () => {
    const put = (body: unknown, session?: string) => system.admin('/admin/win-back', { method: 'PUT', body, ...(session ? { session } : {}) });
    expect((await put({ enabled: true })).body).toMatchObject({ status: 400, code: 'validation_failed', errors: [expect.objectContaining({ field: 'offerId' })] });
    expect((await put({ days: 0, offerId: offer.id })).body).toMatchObject({ status: 400, code: 'validation_failed', errors: [expect.objectContaining({ field: 'days' })] });
    const other = await system.otherPublicationSession();
    const theirs = (await system.api('/admin/offers', { session: other.session, body: { name: 'Theirs', code: 'THEIRS30', kind: 'percent', percentOff: 30, duration: 'once' } })).body;
    expect((await put({ enabled: true, offerId: theirs.id })).body).toMatchObject({ status: 404, code: 'not_found' });
    const ended = (await system.admin('/admin/offers', { body: { name: 'Gone', code: 'GONE10', kind: 'percent', percentOff: 10, duration: 'once' } })).body;
    await system.admin(`/admin/offers/${ended.id}`, { method: 'PATCH', body: { active: false } });
    expect((await put({ enabled: true, offerId: ended.id })).body).toMatchObject({ status: 400, code: 'validation_failed', errors: [expect.objectContaining({ field: 'offerId' })] });
    expect((await put({ enabled: true, offerId: offer.id }, (await system.staffSession('viewer')).session)).status).toBe(403);
    expect((await system.admin('/admin/win-back')).body).toEqual({ enabled: false, days: 30, offerId: null });
    // Another publication's staff change only their own.
    expect((await system.api('/admin/win-back', { method: 'PUT', session: other.session, body: { enabled: true, offerId: theirs.id } })).status).toBe(200);
    expect((await system.admin('/admin/win-back')).body).toEqual({ enabled: false, days: 30, offerId: null });
  });

  it('once on, emails the offer the set days after a cancellation, once across sweeps and a restart of billing; a checkout with it is a conversion', async () => {
    const put = await system.admin('/admin/win-back', { method: 'PUT', body: { enabled: true, days: 10, offerId: offer.id } });
    expect(put).toMatchObject({ status: 200, body: { enabled: true, days: 10, offerId: offer.id } });
    const reader = await former();

    clock.advance(9 * DAY_MS);
    expect(await sweep()).toBe(0);
    clock.advance(DAY_MS + 60_000);
    // The cancellation from before win-back was on had its day before: it is not written to.
    expect(await sweep()).toBe(1);
    const mail = await eventually(() => winBackMail(reader.email)[0], 20_000);
    expect(mail.text).toContain('COMEBACK');
    expect(mail.html).toContain('COMEBACK');

    expect(await sweep()).toBe(0);
    await system.stopReplica(system.billing);
    await system.startReplica('billing');
    expect(await sweep()).toBe(0);
    await eventually(async () => {
      const [row] = await system.querySchema<{ waiting: number }>('identity', `SELECT count(*)::int AS waiting FROM email_messages WHERE status IN ('pending', 'sending')`);
      return row.waiting === 0 ? true : undefined;
    });
    expect(winBackMail(reader.email)).toHaveLength(1);
    const mailbox = await system.admin('/admin/mailbox?limit=50');
    expect(mailbox.body.items.filter((item: { to: string; kind: string }) => item.to === reader.email && item.kind === 'win_back')).toHaveLength(1);

    const back = await system.subscribe(reader, price.id, { offerCode: 'COMEBACK' });
    expect(back.subscription.offer).toEqual({ offerId: offer.id, code: 'COMEBACK' });
    const shown = await system.admin(`/admin/stats?from=${encodeURIComponent(since)}&to=${encodeURIComponent(new Date(clock.now().getTime() + DAY_MS).toISOString())}&interval=day`);
    expect(shown.body.cancellation.winBack).toEqual({ sent: 1, conversions: 1 });
  }, 120_000);

  it('sends nothing to a former subscriber erased before their day, asks only once, and does not count it as sent', async () => {
    const statsNow = async () =>
      (await system.admin(`/admin/stats?from=${encodeURIComponent(since)}&to=${encodeURIComponent(new Date(clock.now().getTime() + DAY_MS).toISOString())}&interval=day`)).body.cancellation.winBack;
    const before = await statsNow();
    const reader = await former();
    expect((await system.admin(`/customers/${reader.id}`, { method: 'DELETE' })).status).toBe(204);

    clock.advance(10 * DAY_MS + 60_000);
    expect(await sweep()).toBe(1);
    expect(await sweep()).toBe(0);
    await eventually(async () => {
      const [row] = await system.querySchema<{ waiting: number }>('identity', `SELECT count(*)::int AS waiting FROM email_messages WHERE status IN ('pending', 'sending')`);
      return row.waiting === 0 ? true : undefined;
    });
    expect(winBackMail(reader.email)).toHaveLength(0);
    expect(await statsNow()).toEqual(before);
  }, 60_000);
});
