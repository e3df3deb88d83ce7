import { Controller, Get, Res } from '@nestjs/common';
import {
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
import { Readiness } from '@gatehouse/platform';
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
  constructor(
    private readonly bus: BusClient,
    private readonly readiness: Readiness,
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
