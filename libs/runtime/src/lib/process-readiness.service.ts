import { Inject, Injectable, Optional, ServiceUnavailableException, type OnApplicationBootstrap } from '@nestjs/common';
import { HealthCheckService, HealthIndicatorService, type HealthCheckResult, type HealthIndicatorFunction } from '@nestjs/terminus';
import { ModuleRef } from '@nestjs/core';
import type { ComponentStatus } from '@gatehouse/contracts';
import { BusClient, EVENT_TRANSPORT, type EventTransport } from '@gatehouse/bus';
import { Readiness, type HealthStatus } from '@gatehouse/platform';
import { DataSource } from 'typeorm';

/** How long a readiness check waits for the database's answer. */
const DATABASE_PROBE_TIMEOUT_MS = 2_000;

export const REQUEST_SERVER = Symbol('REQUEST_SERVER');
/** The request server's view readiness needs: whether a message makes the round trip to it. */
export interface ProbedServer {
  probe(): Promise<boolean>;
}

/** The process's own state: draining once shutdown began. */
@Injectable()
export class ProcessState {
  draining = false;
}

/**
 * Readiness of this process, through Terminus: each dependency it has is checked now and named in
 * the answer: the database (a query), the bus (a message through NATS back to this process's own
 * request connection: a frozen NATS fails it where the connection status would not), the events
 * connection, and `shutdown` once draining.
 */
@Injectable()
export class ProcessReadiness extends Readiness implements OnApplicationBootstrap {
  private events: EventTransport | undefined;
  private underWay: Promise<HealthStatus> | undefined;

  constructor(
    private readonly state: ProcessState,
    private readonly bus: BusClient,
    private readonly modules: ModuleRef,
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    @Optional() private readonly dataSource?: DataSource,
    @Optional() @Inject(REQUEST_SERVER) private readonly server?: ProbedServer,
  ) {
    super();
  }

  /** The events connection, wherever the process's modules provide it. */
  onApplicationBootstrap(): void {
    try {
      this.events = this.modules.get<EventTransport>(EVENT_TRANSPORT, { strict: false });
    } catch {
      this.events = undefined;
    }
  }

  /**
   * Checks that arrive while one is under way share its answer: a probe, the public health route
   * and a load balancer asking at once cost one database query and one bus round trip, not one each.
   */
  check(): Promise<HealthStatus> {
    this.underWay ??= this.checkNow().finally(() => (this.underWay = undefined));
    return this.underWay;
  }

  private async checkNow(): Promise<HealthStatus> {
    const { dataSource, events } = this;
    const indicators: HealthIndicatorFunction[] = [];
    if (dataSource) indicators.push(() => this.indicate('database', answersWithin(DATABASE_PROBE_TIMEOUT_MS, dataSource.query('SELECT 1'))));
    indicators.push(() => this.indicate('bus', (this.server ?? this.bus).probe()));
    if (events) indicators.push(() => this.indicate('events', events.isConnected()));
    if (this.state.draining) indicators.push(() => this.indicators.check('shutdown').down());
    const result = await this.health.check(indicators).catch((err: unknown) => {
      if (err instanceof ServiceUnavailableException) return err.getResponse() as HealthCheckResult;
      throw err;
    });
    const checks: Record<string, ComponentStatus> = Object.fromEntries(Object.entries(result.details).map(([key, detail]) => [key, detail.status]));
    if (result.status === 'shutting_down') checks['shutdown'] = 'down';
    return { status: result.status === 'ok' ? 'up' : 'down', checks };
  }

  private async indicate(key: string, ok: Promise<boolean> | boolean) {
    const indicator = this.indicators.check(key);
    return (await ok) ? indicator.up() : indicator.down();
  }
}

/** Whether `work` succeeds within `ms`. */
function answersWithin(ms: number, work: Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const answered = work.then(
    () => true,
    () => false,
  );
  return Promise.race([answered, late]).finally(() => clearTimeout(timer));
}
