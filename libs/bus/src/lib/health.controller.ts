import { Controller, Inject, Optional, type Type } from '@nestjs/common';
import { ServiceHealth, type BackendServiceName, type ComponentStatus, type HealthReply } from '@gatehouse/contracts';
import { DataSource } from 'typeorm';
import { EVENT_TRANSPORT, type EventTransport } from './events/event-transport';
import { Handles } from './requests/handles.decorator';

/** What a service's health depends on; each one given is checked and named in the answer. */
export interface HealthDependencies {
  dataSource?: DataSource;
  /** The connection requests arrive on. */
  requests?: { readonly connected: boolean };
  events?: EventTransport;
  /** Set once shutdown began: the service no longer takes new work. */
  draining?: () => boolean;
}

const up = (ok: boolean): ComponentStatus => (ok ? 'up' : 'down');

/** What a service reports about itself: up when its database, its bus connections and its lifecycle are. */
export async function checkServiceHealth(service: BackendServiceName, dependencies: HealthDependencies): Promise<HealthReply> {
  const checks: Record<string, ComponentStatus> = {};
  if (dependencies.dataSource) {
    checks['database'] = await dependencies.dataSource.query('SELECT 1').then(
      () => 'up' as const,
      () => 'down' as const,
    );
  }
  if (dependencies.requests) checks['bus'] = up(dependencies.requests.connected);
  if (dependencies.events) checks['events'] = up(dependencies.events.isConnected());
  if (dependencies.draining?.()) checks['shutdown'] = 'down';
  const status = Object.values(checks).every((c) => c === 'up') ? 'up' : 'down';
  return { service, status, checks };
}

/** A health request handler bound to one service's own pattern (answering over the bus, its request connection is up). */
export function healthControllerFor(service: BackendServiceName): Type {
  @Controller()
  class HealthController {
    constructor(
      @Optional() private readonly dataSource?: DataSource,
      @Optional() @Inject(EVENT_TRANSPORT) private readonly events?: EventTransport,
    ) {}

    @Handles(ServiceHealth[service])
    health(): Promise<HealthReply> {
      return checkServiceHealth(service, { dataSource: this.dataSource, events: this.events });
    }
  }
  return HealthController;
}
