import { ManualClock } from '@gatehouse/platform';
import { ACCESS_SITE, ACCESS_TIME } from './constants';
import { TestSystem } from './test-system';

export { ACCESS_TIME, DESKTOP, PHONE } from './constants';
export type { Reader } from './test-system';

/** The pages of the access preset's publication. */
export const SITE = ACCESS_SITE;

/**
 * The system an access test needs, each part its own Nest application over the machine's NATS and
 * PostgreSQL: identity (customers and their JWTs), admin (staff, keys), access on a clock the
 * test moves (`clock`), and the gateway. Billing is not started: access then decides as for
 * non-subscribers.
 */
export type AccessSystem = TestSystem;
export const AccessSystem = {
  /** `gatewayEnv`: more configuration of the gateway, e.g. COUNTRY_HEADER. */
  start(gatewayEnv: Record<string, string> = {}): Promise<AccessSystem> {
    return TestSystem.boot({
      name: 'access',
      services: ['identity', 'admin', 'access'],
      publication: { name: 'News Example', domains: ['news.example.com', '*.blog.example'] },
      // A check waits on billing (not started) this long before deciding as for a non-subscriber.
      env: { access: { ENTITLEMENTS_TIMEOUT_MS: '200' }, gateway: gatewayEnv },
      clocks: { access: new ManualClock(ACCESS_TIME) },
      keys: 'site',
      busClient: true,
    });
  },
};
