import { Controller, Get, Inject, Injectable, Res } from '@nestjs/common';
import {
  ApiExcludeController,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiProperty,
  ApiPropertyOptional,
  ApiServiceUnavailableResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { BACKEND_SERVICES, SERVICE_NAMES, ServiceHealth, type ComponentStatus, type ServiceName } from '@gatehouse/contracts';
import { BusClient, EVENT_TRANSPORT, type EventTransport } from '@gatehouse/bus';
import type { FastifyReply } from 'fastify';
import { Auth } from '../edge/credentials';

const HEALTH_TIMEOUT_MS = 2_000;

class ServiceStatus {
  @ApiProperty({ enum: ['up', 'down'] }) status: ComponentStatus;
  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string', enum: ['up', 'down'] }, example: { database: 'up', bus: 'up' } })
  checks?: Record<string, ComponentStatus>;
}

export class HealthReport {
  @ApiProperty({ enum: ['up', 'down'] }) status: ComponentStatus;
  @ApiProperty({ type: 'object', additionalProperties: { $ref: getSchemaPath(ServiceStatus) }, description: `One entry per service: ${SERVICE_NAMES.join(', ')}.` })
  services: Record<ServiceName, ServiceStatus>;
}

/** The gateway's own state: set draining on SIGTERM so readiness fails while in-flight requests finish. */
@Injectable()
export class GatewayReadiness {
  draining = false;

  constructor(
    private readonly bus: BusClient,
    @Inject(EVENT_TRANSPORT) private readonly events: EventTransport,
  ) {}

  /** Up when requests and events reach the bus and shutdown has not begun; each failing dependency is named. */
  async check(): Promise<ServiceStatus> {
    const checks: Record<string, ComponentStatus> = {
      bus: (await this.bus.connected()) ? 'up' : 'down',
      events: this.events.isConnected() ? 'up' : 'down',
    };
    if (this.draining) checks['shutdown'] = 'down';
    return { status: Object.values(checks).every((c) => c === 'up') ? 'up' : 'down', checks };
  }
}

@ApiTags('health')
@Controller()
export class HealthController {
  constructor(
    private readonly bus: BusClient,
    private readonly readiness: GatewayReadiness,
  ) {}

  @Get('health')
  @Auth('none')
  @ApiOperation({ summary: 'Health of every service, asked over the bus. No credentials.' })
  @ApiExtraModels(ServiceStatus)
  @ApiOkResponse({ type: HealthReport, description: 'Every service is up; each check (`database`, `bus`, `events`, `shutdown`) names a failing dependency.' })
  @ApiServiceUnavailableResponse({ type: HealthReport, description: 'At least one service is down or did not answer within 2 s; the body names each.' })
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
    const gateway = await this.readiness.check();
    const services = Object.fromEntries([['gateway', gateway], ...answers]) as HealthReport['services'];
    const status = gateway.status === 'up' && answers.every(([, s]) => s.status === 'up') ? 'up' : 'down';
    void reply.status(status === 'up' ? 200 : 503);
    return { status, services };
  }
}

/** Kubernetes probes of the gateway process itself, outside /api/v1. */
@ApiExcludeController()
@Controller()
export class ProbeController {
  constructor(private readonly gateway: GatewayReadiness) {}

  /** Answers as long as the event loop turns: a lost bus is readiness's business, not a reason to restart. */
  @Get('healthz')
  @Auth('none')
  liveness(): { status: ComponentStatus } {
    return { status: 'up' };
  }

  @Get('readyz')
  @Auth('none')
  async readiness(@Res({ passthrough: true }) reply: FastifyReply): Promise<ServiceStatus> {
    const health = await this.gateway.check();
    void reply.status(health.status === 'up' ? 200 : 503);
    return health;
  }
}
