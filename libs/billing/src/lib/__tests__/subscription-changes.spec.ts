import { monthlyEquivalent } from '../subscriptions/plan-change.service';
import { monthsLater } from '../subscriptions/subscription-pause.service';
import { serviceStatusOf } from '../subscriptions/status-mapping';
import { announcementsFor, type SubscriptionState } from '../subscriptions/subscription-changes';

const base: SubscriptionState = {
  status: 'active',
  priceId: 'price-1',
  currentPeriodStart: new Date('2031-01-01T00:00:00Z'),
  currentPeriodEnd: new Date('2031-02-01T00:00:00Z'),
  cancelAtPeriodEnd: false,
  trialStart: null,
  trialEnd: null,
  pausedUntil: null,
  scheduledPriceId: null,
};
const state = (changes: Partial<SubscriptionState>): SubscriptionState => ({ ...base, ...changes });

describe('status mapping (spec 3.1)', () => {
  it.each([
    ['active', 'active'],
    ['trialing', 'trialing'],
    ['past_due', 'past_due'],
    ['canceled', 'cancelled'],
    ['unpaid', 'past_due'],
    ['paused', 'past_due'],
    ['incomplete_expired', 'cancelled'],
    ['incomplete', null],
    ['something_new', null],
  ])('%s → %s', (processor, service) => {
    expect(serviceStatusOf(processor)).toBe(service);
  });
});

describe('outbound subscription events (spec 6.2)', () => {
  it('announces created once, when a subscription first becomes active or trialing', () => {
    expect(announcementsFor(null, state({}), false)).toEqual(['created']);
    expect(announcementsFor(null, state({ status: 'trialing' }), false)).toEqual(['created']);
    expect(announcementsFor(null, state({ status: 'past_due' }), false)).toEqual([]);
    expect(announcementsFor(state({ status: 'past_due' }), state({}), false)).toEqual(['created']);
  });

  it('announces nothing for a subscription never announced that ends, nor for no change', () => {
    expect(announcementsFor(null, state({ status: 'cancelled' }), false)).toEqual([]);
    expect(announcementsFor(state({}), state({}), true)).toEqual([]);
  });

  it('announces updated for a change of status, price, period, cancelAtPeriodEnd or trial', () => {
    expect(announcementsFor(state({}), state({ status: 'past_due' }), true)).toEqual(['updated']);
    expect(announcementsFor(state({}), state({ priceId: 'price-2' }), true)).toEqual(['updated']);
    expect(announcementsFor(state({}), state({ currentPeriodEnd: new Date('2031-03-01T00:00:00Z') }), true)).toEqual(['updated']);
    expect(announcementsFor(state({ status: 'trialing' }), state({ status: 'trialing', trialEnd: new Date() }), true)).toEqual(['updated']);
  });

  it('announces cancelled when cancelled now, or when a cancellation is scheduled, but not again when it takes effect', () => {
    expect(announcementsFor(state({}), state({ status: 'cancelled' }), true)).toEqual(['updated', 'cancelled']);
    expect(announcementsFor(state({}), state({ cancelAtPeriodEnd: true }), true)).toEqual(['updated', 'cancelled']);
    expect(announcementsFor(state({ cancelAtPeriodEnd: true }), state({ cancelAtPeriodEnd: true, status: 'cancelled' }), true)).toEqual(['updated']);
  });

  it('announces trial_ended when a subscription leaves trialing, whatever it becomes', () => {
    expect(announcementsFor(state({ status: 'trialing' }), state({}), true)).toEqual(['updated', 'trial_ended']);
    expect(announcementsFor(state({ status: 'trialing' }), state({ status: 'cancelled' }), true)).toEqual(['updated', 'cancelled', 'trial_ended']);
  });

  it('announces paused and resumed alone when only the pause changed, beside updated otherwise', () => {
    const until = new Date('2031-03-01T00:00:00Z');
    expect(announcementsFor(state({}), state({ pausedUntil: until }), true)).toEqual(['paused']);
    expect(announcementsFor(state({ pausedUntil: until }), state({}), true)).toEqual(['resumed']);
    expect(announcementsFor(state({ pausedUntil: until }), state({ pausedUntil: new Date('2031-04-01T00:00:00Z') }), true)).toEqual(['updated']);
    expect(announcementsFor(state({ pausedUntil: until }), state({ currentPeriodEnd: until }), true)).toEqual(['updated', 'resumed']);
    expect(announcementsFor(state({}), state({ scheduledPriceId: 'price-2' }), true)).toEqual(['updated']);
  });
});

describe('pause periods and plan directions', () => {
  it('resumes on the same day months later, or on the last day of a shorter month (UTC)', () => {
    expect(monthsLater(new Date('2031-01-15T10:20:30Z'), 1).toISOString()).toBe('2031-02-15T10:20:30.000Z');
    expect(monthsLater(new Date('2031-01-31T10:00:00Z'), 1).toISOString()).toBe('2031-02-28T10:00:00.000Z');
    expect(monthsLater(new Date('2032-11-30T00:00:00Z'), 3).toISOString()).toBe('2033-02-28T00:00:00.000Z');
    expect(monthsLater(new Date('2031-12-31T23:59:59Z'), 2).toISOString()).toBe('2032-02-29T23:59:59.000Z');
  });

  it('tells a downgrade by the monthly-equivalent amount, across intervals', () => {
    expect(monthlyEquivalent({ unitAmount: 12000, interval: 'year' })).toBe(1000);
    expect(monthlyEquivalent({ unitAmount: 900, interval: 'month' })).toBe(900);
    expect(monthlyEquivalent({ unitAmount: 9000, interval: 'year' }) < monthlyEquivalent({ unitAmount: 900, interval: 'month' })).toBe(true);
  });
});
