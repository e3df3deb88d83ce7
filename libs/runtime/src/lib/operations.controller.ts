import { Controller, Get, Inject, NotFoundException, Optional, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ServiceHealth, type BackendServiceName, type ComponentStatus, type HealthReply } from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { metricsRegistry, OperationsRoute, Readiness, type HealthStatus } from '@gatehouse/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The port /metrics answers on (HEALTH_PORT): never the public one. */
export const METRICS_PORT = Symbol('METRICS_PORT');

/** Kubernetes probes and Prometheus metrics, outside /api/v1 and the API document, off credentials and rate limits. */
@ApiExcludeController()
@Controller()
export class OperationsController {
  constructor(
    private readonly readiness: Readiness,
    @Optional() @Inject(METRICS_PORT) private readonly metricsPort?: number,
  ) {}

  /** Answers as long as the event loop turns: a lost dependency is readiness's business, not a reason to restart. */
  @Get('healthz')
  @OperationsRoute()
  liveness(): { status: ComponentStatus } {
    return { status: 'up' };
  }

  @Get('readyz')
  @OperationsRoute()
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthStatus> {
    const health = await this.readiness.check();
    void reply.status(health.status === 'up' ? 200 : 503);
    return health;
  }

  @Get('metrics')
  @OperationsRoute()
  async metrics(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    if (this.metricsPort === undefined || request.raw.socket.localPort !== this.metricsPort) throw new NotFoundException();
    void reply.header('content-type', metricsRegistry.contentType).send(await metricsRegistry.metrics());
  }
}

/** A service's health asked over the bus (the gateway's /api/v1/health): answering at all shows its request path works. */
export function healthControllerFor(service: BackendServiceName) {
  @Controller()
  class ServiceHealthController {
    constructor(private readonly readiness: Readiness) {}

    @Handles(ServiceHealth[service])
    async health(): Promise<HealthReply> {
      return { service, ...(await this.readiness.check()) };
    }
  }
  return ServiceHealthController;
}
