import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Answer } from './http';
import { ROOT } from './processes';

/* What the fake processor answers, as far as these tests read it (tools/fake-processor has the whole shape). */
export type ProcessorObject = Record<string, any>;
export interface ProcessorEvent {
  id: string;
  type: string;
  created: number;
  data: { object: ProcessorObject };
}
export interface RecordedRequest {
  method: string;
  path: string;
  body: Record<string, any>;
  apiKey: string | null;
}
export interface EventOptions {
  created?: number;
}

/**
 * tools/fake-processor run as its own process, as in local development, and driven through its
 * control routes (`/_fake/...`): what it was sent, failures on demand, the customer's side of a
 * checkout, and events signed and delivered exactly as the processor delivers them.
 */
export class FakeProcessorProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
  ) {}

  static async spawn(): Promise<FakeProcessorProcess> {
    const child = spawn(process.execPath, ['-r', '@swc-node/register', 'tools/fake-processor/src/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, FAKE_PROCESSOR_PORT: '0', FAKE_PROCESSOR_DELIVER: 'false' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const url = await new Promise<string>((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`the fake processor did not start:\n${output}`)), 20_000);
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const match = /listening on (http:\/\/\S+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          ok(match[1]);
        }
      };
      child.stdout!.on('data', read);
      child.stderr!.on('data', read);
      child.once('exit', (code) => fail(new Error(`the fake processor exited with ${code}:\n${output}`)));
    });
    return new FakeProcessorProcess(child, url);
  }

  requests(): Promise<RecordedRequest[]> {
    return this.control('GET', '/requests');
  }

  /** Every event the processor sent (or would have sent), oldest first. */
  events(): Promise<ProcessorEvent[]> {
    return this.control('GET', '/events');
  }

  async requestsTo(method: string, path: string): Promise<RecordedRequest[]> {
    const prefix = path.endsWith('*') ? path.slice(0, -1) : null;
    return (await this.requests()).filter((r) => r.method === method && (prefix ? r.path.startsWith(prefix) : r.path === path));
  }

  failNext(rule: { method?: string; path: string; status?: number; times?: number }): Promise<unknown> {
    return this.control('POST', '/failures', rule);
  }

  completeCheckout(sessionId: string, options: EventOptions & { status?: string } = {}): Promise<{ session: ProcessorObject; subscription: ProcessorObject | null; paymentIntent: ProcessorObject | null; events: ProcessorEvent[] }> {
    return this.control('POST', `/checkout/sessions/${sessionId}/complete`, options);
  }

  createSubscription(
    spec: { customer?: string; price: string; status?: string; metadata?: Record<string, string>; trialDays?: number },
    options: EventOptions = {},
  ): Promise<{ subscription: ProcessorObject; event: ProcessorEvent }> {
    return this.control('POST', '/subscriptions', { spec, options });
  }

  updateSubscription(id: string, changes: Record<string, unknown>, options: EventOptions = {}): Promise<ProcessorEvent> {
    return this.control('POST', `/subscriptions/${id}/update`, { changes, options });
  }

  deleteSubscription(id: string, options: EventOptions = {}): Promise<ProcessorEvent> {
    return this.control('POST', `/subscriptions/${id}/delete`, { options });
  }

  invoiceEvent(id: string, type: 'invoice.payment_succeeded' | 'invoice.payment_failed' | 'invoice.upcoming', options: EventOptions = {}): Promise<ProcessorEvent> {
    return this.control('POST', `/subscriptions/${id}/invoices`, { type, options });
  }

  /** The payment refunded (in full unless `amount`), as staff do in the processor's dashboard: `charge.refunded` is sent. */
  refund(paymentIntentId: string, options: EventOptions & { amount?: number } = {}): Promise<{ refund: ProcessorObject; event: ProcessorEvent }> {
    return this.control('POST', `/payment_intents/${paymentIntentId}/refund`, options);
  }

  customerEvent(id: string, type: 'customer.created' | 'customer.updated', changes: { email?: string; name?: string } = {}, options: EventOptions = {}): Promise<ProcessorEvent> {
    return this.control('POST', `/customers/${id}/events`, { type, changes, options });
  }

  object(collection: string, id: string): Promise<ProcessorObject> {
    return this.control('GET', `/objects/${collection}/${id}`);
  }

  /** Signs and POSTs the event as the processor does; `timestamp` backdates the signature, `signature` replaces it (null: none). */
  deliver(targetUrl: string, secret: string, event: object, options: { timestamp?: number; signature?: string | null } = {}): Promise<Answer> {
    return this.control<{ status: number; body: unknown }>('POST', '/deliveries', { targetUrl, secret, event, options }).then((result) => ({
      ...result,
      headers: new Headers(),
    }));
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((ok) => this.child.once('exit', ok));
    this.child.kill('SIGTERM');
    await exited;
  }

  private async control<T = any>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.url}/_fake${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = (await res.json()) as T;
    if (!res.ok) throw new Error(`fake processor ${method} ${path}: ${res.status} ${JSON.stringify(answer)}`);
    return answer;
  }
}

/** The webhook secret a publication's processor settings are saved with (supplied, so no endpoint is created). */
export const WEBHOOK_SECRET = `whsec_${randomBytes(18).toString('base64url')}`;
/** The environment's own webhook secret (PROCESSOR_WEBHOOK_SECRET), for deliveries without a publication. */
export const ENVIRONMENT_WEBHOOK_SECRET = `whsec_${randomBytes(18).toString('base64url')}`;
/** The processor secret key a publication's settings are saved with. */
export const SECRET_KEY = 'sk_test_gatehouse_e2e_0001';
/** Billing's public address, which its return and webhook URLs start with. */
export const PUBLIC_BASE_URL = 'https://gatehouse.test';
