import type Stripe from 'stripe';
import { masked } from '../processor/processor-settings.service';
import { snapshotOf } from '../subscriptions/processor-snapshot';

const subscription = (changes: Partial<Stripe.Subscription>): Stripe.Subscription =>
  ({
    id: 'sub_1',
    customer: 'cus_1',
    status: 'active',
    cancel_at_period_end: false,
    cancel_at: null,
    start_date: 1_900_000_000,
    trial_start: null,
    trial_end: null,
    metadata: { customerId: 'c-1' },
    items: { data: [{ price: { id: 'price_1' }, current_period_start: 1_900_000_000, current_period_end: 1_902_592_000 }] },
    ...changes,
  }) as unknown as Stripe.Subscription;

describe('reading a processor subscription', () => {
  it('takes the billing period from its items, and maps its status', () => {
    expect(snapshotOf(subscription({ status: 'unpaid' }))).toMatchObject({
      processorSubscriptionId: 'sub_1',
      processorCustomerId: 'cus_1',
      processorPriceId: 'price_1',
      quantity: 1,
      status: 'past_due',
      currentPeriodStart: new Date(1_900_000_000_000),
      currentPeriodEnd: new Date(1_902_592_000_000),
      metadata: { customerId: 'c-1' },
    });
  });

  it('counts a cancellation scheduled with cancel_at at the period end as cancelAtPeriodEnd', () => {
    expect(snapshotOf(subscription({ cancel_at: 1_902_592_000 })).cancelAtPeriodEnd).toBe(true);
    expect(snapshotOf(subscription({ cancel_at: 1_901_000_000 })).cancelAtPeriodEnd).toBe(false);
    expect(snapshotOf(subscription({ cancel_at_period_end: true })).cancelAtPeriodEnd).toBe(true);
  });

  it("reads the reader's reason from cancellation_details.feedback, and nothing it does not know", () => {
    const details = (feedback: string | null) => ({ cancellation_details: { feedback, comment: null, reason: 'cancellation_requested' } }) as Partial<Stripe.Subscription>;
    expect(snapshotOf(subscription(details('too_expensive'))).cancellationReason).toBe('too_expensive');
    expect(snapshotOf(subscription(details(null))).cancellationReason).toBeNull();
    expect(snapshotOf(subscription(details('a new value'))).cancellationReason).toBeNull();
    expect(snapshotOf(subscription({})).cancellationReason).toBeNull();
  });
});

describe('masked secrets', () => {
  it('shows the kind of secret and its last four characters only', () => {
    expect(masked('sk_test_51HxYzABCDEF1234')).toBe('sk_...1234');
    expect(masked('whsec_abcdefghijklmnop')).toBe('whsec_...mnop');
  });
});
