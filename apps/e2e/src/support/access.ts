import type { AccessCheckResult, PaywallDraft, PaywallView } from '@gatehouse/contracts';
import { ManualClock } from '@gatehouse/platform';
import { randomUUID } from 'node:crypto';
import type { Answer, Call } from './http';
import { TestSystem } from './test-system';

export const SITE = 'https://news.example.com';
/** Readers' User-Agents: the gateway derives the device class from them. */
export const DESKTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';
export const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
/** A Friday, so the week around it starts on Monday 2031-03-10. */
export const ACCESS_TIME = new Date('2031-03-14T10:30:00.000Z');

export interface Reader {
  accessToken: string;
  customer: { id: string; email: string; name: string };
}

/**
 * The system an access test needs, each part its own Nest application over the machine's NATS and
 * PostgreSQL: identity (customers and their JWTs), admin (staff, keys), access on a clock the
 * test moves, and the gateway. Billing is not started: access then decides as for non-subscribers.
 */
export class AccessSystem extends TestSystem {
  /** `gatewayEnv`: more configuration of the gateway, e.g. COUNTRY_HEADER. */
  static start(gatewayEnv: Record<string, string> = {}): Promise<AccessSystem> {
    return this.boot({
      name: 'access',
      services: ['identity', 'admin', 'access'],
      publication: { name: 'News Example', domains: ['news.example.com', '*.blog.example'] },
      // A check waits on billing (not started) this long before deciding as for a non-subscriber.
      env: { access: { ENTITLEMENTS_TIMEOUT_MS: '200' }, gateway: gatewayEnv },
      clocks: { access: new ManualClock(ACCESS_TIME) },
      keys: 'site',
      busClient: true,
    });
  }

  /** The time access reads, which the test moves. */
  get clock(): ManualClock {
    return this.options.clocks?.access as ManualClock;
  }

  /** `GET /access/check` with the publishable key; `query.url` may be a path on SITE. */
  check(query: Record<string, string>, options: Call = {}): Promise<Answer<AccessCheckResult>> {
    const url = query['url']?.startsWith('/') ? `${SITE}${query['url']}` : query['url'];
    const params = new URLSearchParams(Object.entries({ ...query, url }).filter((entry): entry is [string, string] => entry[1] !== undefined));
    return this.api<AccessCheckResult>(`/access/check?${params}`, { key: this.publishableKey, ...options });
  }

  /** The body of a granted-or-denied check, failing on any other status. */
  async decision(query: Record<string, string>, options: Call = {}): Promise<AccessCheckResult> {
    const answer = await this.check(query, options);
    if (answer.status !== 200) throw new Error(`access check answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    return answer.body;
  }

  async createPaywall(draft: PaywallDraft): Promise<PaywallView> {
    const created = await this.admin<PaywallView>('/admin/paywalls', { body: draft });
    if (created.status !== 201) throw new Error(`paywall not created (${created.status}): ${JSON.stringify(created.body)}`);
    return created.body;
  }

  async track(body: unknown, options: Call = {}): Promise<Answer> {
    return this.api('/events', { key: this.publishableKey, body, ...options });
  }

  async register(): Promise<Reader> {
    const answer = await this.api<Reader>('/auth/customers/register', {
      key: this.publishableKey,
      body: { email: `reader-${randomUUID()}@example.com`, password: 'reader-password', name: 'Reader' },
    });
    if (answer.status !== 201) throw new Error(`register answered ${answer.status}`);
    return answer.body;
  }
}
