import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController, ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { BACKEND_SERVICES, ServiceHealth, type ComponentStatus, type ServiceName } from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import type { FastifyReply } from 'fastify';
import { Auth } from '../edge/credentials';

const HEALTH_TIMEOUT_MS = 2_000;

interface ServiceStatus {
  status: ComponentStatus;
  checks?: Record<string, ComponentStatus>;
}

export interface HealthReport {
  status: ComponentStatus;
  services: Record<ServiceName, ServiceStatus>;
}

@ApiTags('health')
@Controller()
export class HealthController {
  constructor(private readonly bus: BusClient) {}

  @Get('health')
  @Auth('none')
  @ApiOperation({ summary: 'Health of every service, asked over the bus. No credentials.' })
  @ApiOkResponse({ description: 'Every service is up: `{status: "up", services: {gateway: {status}, identity: {status, checks}, ...}}`.' })
  @ApiServiceUnavailableResponse({ description: 'At least one service is down or did not answer within 2 s; the body names each.' })
  async health(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthReport> {
    const answers = await Promise.all(
      BACKEND_SERVICES.map(async (name): Promise<[ServiceName, ServiceStatus]> => {
        try {
          const { status, checks } = await this.bus.request(ServiceHealth[name], {}, HEALTH_TIMEOUT_MS);
          return [name, { status, checks }];
        } catch {
          return [name, { status: 'down' }];
        }
      }),
    );
    const services = Object.fromEntries([['gateway', { status: 'up' }], ...answers]) as HealthReport['services'];
    const status = answers.every(([, s]) => s.status === 'up') ? 'up' : 'down';
    void reply.status(status === 'up' ? 200 : 503);
    return { status, services };
  }
}

/** Kubernetes probes of the gateway process itself, outside /api/v1. */
@ApiExcludeController()
@Controller()
export class ProbeController {
  @Get('healthz')
  @Auth('none')
  liveness(): { status: ComponentStatus } {
    return { status: 'up' };
  }

  @Get('readyz')
  @Auth('none')
  readiness(): { status: ComponentStatus } {
    return { status: 'up' };
  }
}
