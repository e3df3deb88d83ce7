import { Injectable } from '@nestjs/common';
import { ReadModels, type ReadModel } from '@gatehouse/bus';
import { AppError } from '@gatehouse/platform';
import Stripe from 'stripe';
import { BillingConfig } from '../billing.config';

/** Bounded so that a call, and the request waiting on it, ends within the bus's 5 s. */
const PROCESSOR_TIMEOUT_MS = 4_000;

/** The processor's SDK, one client per secret key, pointed at PROCESSOR_API_URL when set (decisions F4). */
@Injectable()
export class ProcessorClients {
  private readonly address: Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'>;
  private readonly clients: ReadModel<string, Stripe>;

  constructor(config: BillingConfig, readModels: ReadModels) {
    this.clients = readModels.define({ name: 'processor-clients', max: 1_000, freshMs: 24 * 60 * 60_000 });
    const url = config.PROCESSOR_API_URL ? new URL(config.PROCESSOR_API_URL) : null;
    this.address = url
      ? { host: url.hostname, port: url.port || (url.protocol === 'https:' ? 443 : 80), protocol: url.protocol === 'https:' ? 'https' : 'http' }
      : {};
  }

  forKey(secretKey: string): Stripe {
    let client = this.clients.peek(secretKey);
    if (!client) {
      // Retries are left to whoever asked: a request to our caller, or the queue of inbound events.
      client = new Stripe(secretKey, { ...this.address, timeout: PROCESSOR_TIMEOUT_MS, maxNetworkRetries: 0, telemetry: false });
      this.clients.set(secretKey, client);
    }
    return client;
  }
}

/**
 * Runs one processor call; whatever the processor refuses or fails becomes 502 processor_error
 * (decisions B2). Its own explanation is passed on for a refusal, which the publisher can act on.
 */
export async function atProcessor<T>(action: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (!(err instanceof Stripe.errors.StripeError)) throw err;
    const refused = err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500;
    throw new AppError('processor_error', refused ? `The payment processor refused to ${action}: ${err.message}` : `The payment processor failed to ${action}.`);
  }
}
