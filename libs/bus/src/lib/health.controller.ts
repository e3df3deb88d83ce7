import { Controller, Optional, type Type } from '@nestjs/common';
import { ServiceHealth, type BackendServiceName, type ComponentStatus, type HealthReply } from '@gatehouse/contracts';
import { DataSource } from 'typeorm';
import { Handles } from './requests/handles.decorator';

/** What a service reports about itself: up when its database answers. */
export async function checkServiceHealth(service: BackendServiceName, dataSource?: DataSource): Promise<HealthReply> {
  const checks: Record<string, ComponentStatus> = {};
  if (dataSource) {
    checks['database'] = await dataSource.query('SELECT 1').then(
      () => 'up' as const,
      () => 'down' as const,
    );
  }
  const status = Object.values(checks).every((c) => c === 'up') ? 'up' : 'down';
  return { service, status, checks };
}

/** A health request handler bound to one service's own pattern. */
export function healthControllerFor(service: BackendServiceName): Type {
  @Controller()
  class HealthController {
    constructor(@Optional() private readonly dataSource?: DataSource) {}

    @Handles(ServiceHealth[service])
    health(): Promise<HealthReply> {
      return checkServiceHealth(service, this.dataSource);
    }
  }
  return HealthController;
}
