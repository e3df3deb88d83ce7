import { SetMetadata } from '@nestjs/common';
import type { ComponentStatus } from '@gatehouse/contracts';

export interface HealthStatus {
  status: ComponentStatus;
  /** One entry per dependency (`database`, `bus`, `events`), and `shutdown` while draining. */
  checks: Record<string, ComponentStatus>;
}

/** What the process says about itself to its probes: provided by the runtime, injectable by this class. */
export abstract class Readiness {
  abstract check(): Promise<HealthStatus>;
}

export const OPERATIONS_ROUTE = Symbol('OPERATIONS_ROUTE');

/**
 * Marks a route of the process itself (probes, metrics): no credentials, no rate limit, no
 * dependency on anything but the process, so a kubelet always gets its answer at once.
 */
export const OperationsRoute = (): MethodDecorator => SetMetadata(OPERATIONS_ROUTE, true);
