import { Clock } from '@gatehouse/platform';
import { ENVIRONMENT_WEBHOOK_SECRET } from './fake-processor';
import { TestSystem, type Reader } from './test-system';

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

/** A reader of the billing tests: a customer registered with the publishable key. */
export type Customer = Reader;

/**
 * Identity, admin, billing and the gateway over the real NATS and PostgreSQL, billing pointed
 * at a fake processor; a staff session, a key pair; `query` reads billing's schema.
 */
export type BillingSystem = TestSystem;
export const BillingSystem = {
  /** `clock`: the time billing reads, the system's unless given. */
  start(clock?: Clock): Promise<BillingSystem> {
    return TestSystem.boot({
      name: 'billing',
      services: ['identity', 'admin', 'billing'],
      publication: { name: 'Billing Gazette', domains: ['billing.example'] },
      env: { billing: { PROCESSOR_WEBHOOK_SECRET: ENVIRONMENT_WEBHOOK_SECRET } },
      clocks: { billing: clock },
      processor: true,
      keys: 'billing-site',
      busClient: true,
      ownSchema: 'billing',
    });
  },
};

export const unixNow = (): number => Math.floor(Date.now() / 1000);
