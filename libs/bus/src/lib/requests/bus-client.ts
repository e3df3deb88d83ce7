import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { ClientProxy } from '@nestjs/microservices';
import type { RequestPattern } from '@gatehouse/contracts';
import { AppError, isProblem } from '@gatehouse/platform';
import { AsyncLocalStorage } from 'node:async_hooks';
import { TimeoutError } from 'rxjs';
import { BUS_OPTIONS, type BusOptions } from '../bus-options';

export const REQUEST_CLIENT = Symbol('REQUEST_CLIENT');

/** What the bus needs of a request client: over NATS, Nest's client extended; in process, our own. */
export type RequestClient = Pick<ClientProxy, 'close' | 'connect'> & {
  /** True while a connection that was up is lost (NATS reconnecting). */
  readonly disconnected?: boolean;
  /**
   * One request and its reply as a promise (cheaper than `send`'s observables): rejects with the
   * reply's error, or with rxjs's `TimeoutError` when no reply came within `timeoutMs`.
   */
  request(pattern: string, data: unknown, timeoutMs: number): Promise<unknown>;
};
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
    const limit = timeoutMs ?? patience.getStore() ?? this.timeoutMs;
    if (this.client.disconnected) {
      throw new AppError('service_unavailable', `The bus is unreachable: ${pattern.pattern} was not sent.`);
    }
    try {
      return (await this.client.request(pattern.pattern, payload, limit)) as Res;
    } catch (err) {
      if (isProblem(err)) throw AppError.fromProblem(err);
      if (err instanceof TimeoutError) {
        throw new AppError('service_unavailable', `No answer to ${pattern.pattern} within ${limit} ms.`);
      }
      this.logger.warn(`${pattern.pattern} failed: ${err instanceof Error ? err.message : JSON.stringify(err)}`);
      throw new AppError('service_unavailable', `The service answering ${pattern.pattern} could not be reached.`);
    }
  }

  /** Whether requests can be sent now; connects first when none was sent yet. */
  async connected(): Promise<boolean> {
    if (this.client.disconnected) return false;
    return this.client.connect().then(
      () => !this.client.disconnected,
      () => false,
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.close();
  }
}
