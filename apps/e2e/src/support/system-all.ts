import type { Clock } from '@gatehouse/platform';
import { ALL_SITE } from './constants';
import { TestSystem } from './test-system';

export type { Reader } from './test-system';

/** The pages of the whole-system preset's publication. */
export const SITE = ALL_SITE;

export interface SystemOptions {
  /** The time access and billing read; the system's unless given. */
  clock?: Clock;
  /** More configuration of the access service, e.g. PAST_DUE_GRACE_DAYS. */
  accessEnv?: Record<string, string>;
  /** Also start webhooks-out and branding, so every route of the API has its service. */
  everyService?: boolean;
  /** More configuration of identity, e.g. SMTP_URL. */
  identityEnv?: Record<string, string>;
  /** More configuration of the gateway, e.g. TRUST_PROXY. */
  gatewayEnv?: Record<string, string>;
  /** The time identity signs tokens with: set back, its access tokens expire sooner in real time. */
  identityClock?: Clock;
  /** Domains of the publication besides all.example (a browser test's page host). */
  domains?: string[];
  /** How many access replicas share the work (1 unless given). */
  accessReplicas?: number;
}

/**
 * Identity, admin, access and billing, each its own Nest application over the machine's NATS and
 * PostgreSQL, the gateway in front, billing pointed at the fake processor (its own process), and
 * the processor connected with a supplied webhook secret: what a publication running every
 * feature looks like, for tests of features that meet across services.
 */
export type WholeSystem = TestSystem;
export const WholeSystem = {
  start({ clock, accessEnv = {}, everyService = false, identityEnv = {}, gatewayEnv = {}, identityClock, domains = [], accessReplicas = 1 }: SystemOptions = {}): Promise<WholeSystem> {
    return TestSystem.boot({
      name: 'all',
      services: ['identity', 'admin', 'access', 'billing', ...(everyService ? (['webhooks-out', 'branding'] as const) : [])],
      publication: { name: 'All Services Daily', domains: ['all.example', ...domains] },
      // A check waits on billing at most this long: the longest allowed, so a busy machine does not turn a subscriber away.
      env: { access: { ENTITLEMENTS_TIMEOUT_MS: '5000', ...accessEnv }, identity: identityEnv, gateway: gatewayEnv },
      clocks: { identity: identityClock, access: clock, billing: clock },
      accessReplicas,
      processor: true,
      keys: 'site',
      connectProcessor: true,
    });
  },
};
