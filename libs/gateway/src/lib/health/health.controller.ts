import { Controller, Get, Res } from '@nestjs/common';
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
import { BusClient } from '@gatehouse/bus';
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

@ApiTags('health')
@Controller()
export class HealthController {
  constructor(private readonly bus: BusClient) {}

  @Get('health')
  @Auth('none')
  @ApiOperation({ summary: 'Health of every service, asked over the bus. No credentials.' })
  @ApiExtraModels(ServiceStatus)
  @ApiOkResponse({ type: HealthReport, description: 'Every service is up.' })
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
