import { requestPattern } from './patterns';

/** The deployable services, by the names health reports use. */
export const BACKEND_SERVICES = ['identity', 'admin', 'access', 'billing', 'webhooks-out', 'branding'] as const;
export const SERVICE_NAMES = ['gateway', ...BACKEND_SERVICES] as const;

export type BackendServiceName = (typeof BACKEND_SERVICES)[number];
export type ServiceName = (typeof SERVICE_NAMES)[number];

export type ComponentStatus = 'up' | 'down';

export interface HealthReply {
  service: ServiceName;
  status: ComponentStatus;
  /** Each dependency the service checked (database, bus, ...) with its status. */
  checks: Record<string, ComponentStatus>;
}

/** One health request per service: each answers only its own, so the gateway can ask every one by name. */
export const ServiceHealth = Object.freeze(
  Object.fromEntries(
    BACKEND_SERVICES.map((name) => [name, requestPattern<Record<string, never>, HealthReply>(`${name}.health`)]),
  ) as Record<BackendServiceName, ReturnType<typeof requestPattern<Record<string, never>, HealthReply>>>,
);
