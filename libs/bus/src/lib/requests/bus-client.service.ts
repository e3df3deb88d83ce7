import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { RequestPattern } from '@gatehouse/contracts';
import { AppError, busMetrics, isProblem } from '@gatehouse/platform';
import { AsyncLocalStorage } from 'node:async_hooks';
import { TimeoutError } from 'rxjs';
import { BUS_OPTIONS, type BusOptions } from '../bus-options';
import { currentDeadline } from './request-handling';

export const REQUEST_CLIENT = Symbol('REQUEST_CLIENT');

/** What the bus needs of a request client: over NATS or in process. */
export interface RequestClient {
  /** True while a connection that was up is lost (NATS reconnecting). */
  readonly disconnected?: boolean;
  connect(): Promise<void>;
  close(): Promise<void>;
  /**
   * One request and its reply as a promise: rejects with the reply's error, or with rxjs's
   * `TimeoutError` when no reply came within `timeoutMs`. The request carries its deadline.
   */
  request(pattern: string, data: unknown, timeoutMs: number): Promise<unknown>;
  /** Whether a message makes the round trip through the bus now. */
  probe(): Promise<boolean>;
}
export const DEFAULT_REQUEST_TIMEOUT_MS = 5_000;

const patience = new AsyncLocalStorage<number>();

/**
 * Runs `work` with its bus requests waiting up to `timeoutMs` for their replies instead of the
 * usual limit: for idempotent writes, whose caller may be answered 503 earlier while the outcome
 * is still awaited and kept for the caller's retry.
 */
export function withRequestPatience<T>(timeoutMs: number, work: () => T): T {
  return patience.run(timeoutMs, work);
}

/**
 * Sends typed requests to other services. A reply that does not come within the timeout, or a
 * bus that cannot be reached, fails fast as 503 `service_unavailable`; a failure the other
 * service reported comes back as the same AppError it threw.
 */
@Injectable()
export class BusClient implements OnApplicationShutdown {
  private readonly logger = new Logger(BusClient.name);

  constructor(
    @Inject(BUS_OPTIONS) private readonly options: BusOptions,
    @Inject(REQUEST_CLIENT) private readonly client: RequestClient,
  ) {}

  /** How long a request waits for its reply unless told otherwise. */
  get timeoutMs(): number {
    return this.options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  }

  async request<Req, Res>(pattern: RequestPattern<Req, Res>, payload: NoInfer<Req>, timeoutMs?: number): Promise<Res> {
    // Inside a request's handler, no reply is awaited past the moment its own caller stops waiting.
    const deadline = currentDeadline();
    const wanted = timeoutMs ?? patience.getStore() ?? this.timeoutMs;
    const limit = deadline === undefined ? wanted : Math.min(wanted, deadline - Date.now());
    const started = performance.now();
    const outcome = (name: 'ok' | 'error' | 'timeout' | 'unreachable') =>
      busMetrics.requests.observe({ pattern: pattern.pattern, outcome: name }, (performance.now() - started) / 1000);
    if (this.client.disconnected || limit <= 0) {
      outcome('unreachable');
      throw new AppError('service_unavailable', limit <= 0 ? `The caller stopped waiting: ${pattern.pattern} was not sent.` : `The bus is unreachable: ${pattern.pattern} was not sent.`);
    }
    try {
      const reply = (await this.client.request(pattern.pattern, payload, limit)) as Res;
      outcome('ok');
      return reply;
    } catch (err) {
      if (isProblem(err)) {
        outcome(err.code === 'service_unavailable' ? 'unreachable' : 'error');
        throw AppError.fromProblem(err);
      }
      if (err instanceof TimeoutError) {
        outcome('timeout');
        throw new AppError('service_unavailable', `No answer to ${pattern.pattern} within ${limit} ms.`);
      }
      outcome('unreachable');
      this.logger.warn(`${pattern.pattern} failed: ${err instanceof Error ? err.message : JSON.stringify(err)}`);
      throw new AppError('service_unavailable', `The service answering ${pattern.pattern} could not be reached.`);
    }
  }

  /** Whether a request makes the round trip through the bus now (readiness). */
  probe(): Promise<boolean> {
    return this.client.probe();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.close();
  }
}
