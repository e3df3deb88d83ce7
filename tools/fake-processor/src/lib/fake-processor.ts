import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseForm, type FormValue } from './form';
import {
  API_VERSION,
  checkoutSessionObject,
  couponObject,
  customerObject,
  paymentObjects,
  refundObject,
  discounted,
  discountObject,
  fieldsOf,
  flag,
  integer,
  invoiceLineObject,
  addDays,
  expiringCardObject,
  invoiceObject,
  linesInvoiceObject,
  listOf,
  metadataOf,
  newId,
  periodEnd,
  portalSessionObject,
  priceObject,
  productObject,
  promotionCodeObject,
  subscriptionObject,
  text,
  unixNow,
  webhookEndpointObject,
  type ProcessorObject,
} from './objects';
import { deliverEvent, type DeliveryOptions, type DeliveryResult } from './signing';

/** Attempts at an invoice's payment before the processor gives up: the first and two retries (its retry schedule as a publisher may set it). */
export const INVOICE_PAYMENT_ATTEMPTS = 3;

/** An API call the fake received, as tests inspect it. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** The form body, nested as the SDK encoded it. */
  body: Record<string, FormValue>;
  apiKey: string | null;
  idempotencyKey: string | null;
  at: string;
}

/** Makes matching calls fail: `path` matches exactly, or as a prefix when it ends with `*`. */
export interface FailureRule {
  method?: string;
  path: string;
  /** 500 unless told otherwise. */
  status?: number;
  /** How many matching calls fail; 1 unless told otherwise. */
  times?: number;
}

export interface ProcessorEvent {
  id: string;
  object: 'event';
  type: string;
  created: number;
  api_version: string;
  livemode: boolean;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  data: { object: ProcessorObject; previous_attributes?: ProcessorObject };
}

export interface EventOptions {
  /** Unix seconds; now by default. */
  created?: number;
}

export interface SubscriptionChanges {
  status?: string;
  cancel_at_period_end?: boolean;
  current_period_start?: number;
  current_period_end?: number;
  trial_start?: number | null;
  trial_end?: number | null;
  metadata?: Record<string, string>;
  /** Collection paused (in the processor's dashboard or portal), or resumed with null: when it resumes by itself. */
  pause_collection?: { behavior: string; resumes_at: number | null } | null;
}

export interface CompletedCheckout {
  session: ProcessorObject;
  subscription: ProcessorObject | null;
  /** A payment-mode session's payment; null in subscription mode. */
  paymentIntent: ProcessorObject | null;
  /**
   * In the processor's order: subscription mode, subscription created, checkout completed, first
   * invoice paid; payment mode, the payment succeeded, checkout completed.
   */
  events: ProcessorEvent[];
}

export interface FakeProcessorOptions {
  port?: number;
  host?: string;
  /** Deliver every event to the webhook endpoints created through the API, as the processor does. Off by default: tests deliver by hand. */
  deliverEvents?: boolean;
  /** How long each delivery waits before it is sent: a late webhook, as the processor's queue sometimes is. 0 by default. */
  deliveryDelayMs?: number;
}

type Collection =
  | 'customer'
  | 'product'
  | 'price'
  | 'webhook_endpoint'
  | 'checkout.session'
  | 'billing_portal.session'
  | 'subscription'
  | 'coupon'
  | 'promotion_code'
  | 'discount'
  | 'invoice'
  | 'payment_intent'
  | 'charge'
  | 'refund';

const PRORATION_BEHAVIORS = ['create_prorations', 'always_invoice', 'none'];
const PAUSE_BEHAVIORS = ['keep_as_draft', 'mark_uncollectible', 'void'];

/** A switch of a subscription item to another price, as the processor works it out. */
interface PriceChange {
  price: ProcessorObject;
  /** Unix seconds the proration is computed for. */
  at: number;
  behavior: string;
  /** Another interval restarts the billing period at `at` and bills the new price in full, as the processor does. */
  restartsPeriod: boolean;
  lines: ProcessorObject[];
}

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

interface Route {
  method: string;
  pattern: RegExp;
  handle: (fields: Record<string, FormValue>, id: string) => ProcessorObject;
}

/**
 * A stand-in for the part of the payment processor's REST API the billing service uses, spoken
 * as the processor's SDK speaks it (form-encoded requests, JSON objects back, errors as
 * `{error: {type, message}}`). It keeps every call for tests to inspect, fails on demand, and
 * signs and sends events as the processor does. Tests and local development use it; nothing
 * mocks the SDK.
 */
export class FakeProcessor {
  readonly requests: RecordedRequest[] = [];
  readonly events: ProcessorEvent[] = [];
  private readonly objects = new Map<Collection, Map<string, ProcessorObject>>();
  private readonly failures: Array<Required<Omit<FailureRule, 'method'>> & { method?: string }> = [];
  private readonly replays = new Map<string, { status: number; body: unknown }>();
  private readonly routes: Route[];
  private readonly pendingDeliveries = new Set<NodeJS.Timeout>();
  private deliveryDelayMs = 0;

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly deliverEvents: boolean,
  ) {
    this.routes = this.apiRoutes();
  }

  static async start(options: FakeProcessorOptions = {}): Promise<FakeProcessor> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
    const { address, port } = server.address() as AddressInfo;
    const host = address.includes(':') ? `[${address}]` : address;
    const fake = new FakeProcessor(server, `http://${host}:${port}`, options.deliverEvents ?? false);
    fake.delayDeliveries(options.deliveryDelayMs ?? 0);
    server.on('request', (req, res) => void fake.serve(req, res));
    return fake;
  }

  close(): Promise<void> {
    for (const timer of this.pendingDeliveries) clearTimeout(timer);
    this.pendingDeliveries.clear();
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  failNext(rule: FailureRule): void {
    this.failures.push({ path: rule.path, method: rule.method?.toUpperCase(), status: rule.status ?? 500, times: rule.times ?? 1 });
  }

  clearFailures(): void {
    this.failures.length = 0;
  }

  /** From now on, events reach the webhook endpoints `ms` after they happen (0: at once). */
  delayDeliveries(ms: number): void {
    if (!Number.isSafeInteger(ms) || ms < 0) throw new ApiError(400, 'invalid_request_error', 'The delivery delay is a whole number of milliseconds, 0 or more.');
    this.deliveryDelayMs = ms;
  }

  requestsTo(method: string, path: string): RecordedRequest[] {
    return this.requests.filter((request) => request.method === method.toUpperCase() && matches(path, request.path));
  }

  get(collection: Collection, id: string): ProcessorObject | undefined {
    return this.store(collection).get(id);
  }

  /** Signs and POSTs an event to `targetUrl` exactly as the processor does. */
  sendEvent(targetUrl: string, secret: string, event: object, options?: DeliveryOptions): Promise<DeliveryResult> {
    return deliverEvent(targetUrl, secret, event, options);
  }

  /** An event about `object`, recorded (and delivered to the registered endpoints when asked to). */
  event(type: string, object: ProcessorObject, options: EventOptions = {}, previousAttributes?: ProcessorObject): ProcessorEvent {
    const event: ProcessorEvent = {
      id: newId('evt'),
      object: 'event',
      type,
      created: options.created ?? unixNow(),
      api_version: API_VERSION,
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: { object: structuredClone(object), ...(previousAttributes ? { previous_attributes: previousAttributes } : {}) },
    };
    this.events.push(event);
    if (this.deliverEvents) this.deliverToEndpoints(event);
    return event;
  }

  /** The customer pays: the session completes, and for a subscription the subscription starts and its first invoice is paid. */
  completeCheckout(sessionId: string, options: EventOptions & { status?: string } = {}): CompletedCheckout {
    const session = this.required('checkout.session', sessionId);
    const customer = session['customer'] ?? this.save('customer', customerObject({ email: session['customer_email'] ?? '' }))['id'];
    const price = this.priceFor(session['line_items_requested'][0]?.price);
    const quantity: number = session['line_items_requested'][0]?.quantity ?? 1;
    const events: ProcessorEvent[] = [];
    let subscription: ProcessorObject | null = null;
    const [asked] = session['discounts'] as Array<{ coupon: string; promotion_code: string | null }>;
    const coupon = asked ? this.required('coupon', asked.coupon) : null;
    if (session['mode'] === 'subscription') {
      const requested = session['subscription_data_requested'];
      subscription = this.save(
        'subscription',
        subscriptionObject({ customer, price, status: options.status, metadata: requested.metadata, trialDays: requested.trial_period_days, quantity }),
      );
    }
    if (asked && coupon) this.redeem(coupon, asked.promotion_code, customer, subscription, session['id']);
    if (subscription) events.push(this.event('customer.subscription.created', subscription, options));
    // Payment mode, as the processor does it: one PaymentIntent (and its charge) for the session's total, carrying `payment_intent_data.metadata`.
    const payment =
      session['mode'] === 'payment'
        ? paymentObjects({ customer, amount: session['amount_total'] ?? 0, currency: price['currency'], metadata: session['payment_intent_data_requested'].metadata })
        : null;
    const paymentIntent = payment ? this.save('payment_intent', payment.paymentIntent) : null;
    if (payment) this.save('charge', payment.charge);
    if (paymentIntent) events.push(this.event('payment_intent.succeeded', paymentIntent, options));
    Object.assign(session, { customer, status: 'complete', payment_status: 'paid', subscription: subscription?.['id'] ?? null, payment_intent: paymentIntent?.['id'] ?? null });
    events.push(this.event('checkout.session.completed', this.publicView(session), options));
    if (subscription && subscription['status'] === 'active') {
      const invoice = invoiceObject(subscription, 'paid', discounted((price['unit_amount'] ?? 0) * quantity, coupon));
      subscription['latest_invoice'] = invoice['id'];
      events.push(this.event('invoice.payment_succeeded', invoice, options));
    }
    return { session: this.publicView(session), subscription, paymentIntent, events };
  }

  /** A subscription started outside a checkout (e.g. in the processor's dashboard), with its created event. */
  createSubscription(
    spec: { customer?: string; price: string; status?: string; metadata?: Record<string, string>; trialDays?: number },
    options: EventOptions = {},
  ): { subscription: ProcessorObject; event: ProcessorEvent } {
    const customer = spec.customer ?? this.save('customer', customerObject({}))['id'];
    const subscription = this.save(
      'subscription',
      subscriptionObject({ customer, price: this.priceFor(spec.price), status: spec.status, metadata: spec.metadata, trialDays: spec.trialDays }),
    );
    return { subscription, event: this.event('customer.subscription.created', subscription, options) };
  }

  updateSubscription(id: string, changes: SubscriptionChanges, options: EventOptions = {}): ProcessorEvent {
    const subscription = this.required('subscription', id);
    const previous = this.applySubscriptionChanges(subscription, changes);
    return this.event('customer.subscription.updated', subscription, options, previous);
  }

  deleteSubscription(id: string, options: EventOptions = {}): ProcessorEvent {
    const subscription = this.required('subscription', id);
    this.cancelNow(subscription);
    return this.event('customer.subscription.deleted', subscription, options);
  }

  /**
   * An invoice event of the subscription; payment outcomes move its status as the processor would.
   * While the subscription's latest invoice is open (its payment failed), a payment event is the
   * processor's next attempt at that same invoice: `attempt_count` grows, a failure schedules the
   * next attempt (`next_payment_attempt`, three days on) until INVOICE_PAYMENT_ATTEMPTS are spent,
   * then null, and a success pays it.
   */
  invoiceEvent(
    subscriptionId: string,
    type: 'invoice.payment_succeeded' | 'invoice.payment_failed' | 'invoice.upcoming',
    options: EventOptions & { amount?: number } = {},
  ): ProcessorEvent {
    const subscription = this.required('subscription', subscriptionId);
    const status = type === 'invoice.payment_succeeded' ? 'paid' : type === 'invoice.payment_failed' ? 'open' : 'draft';
    const open = type === 'invoice.upcoming' || !subscription['latest_invoice'] ? undefined : this.get('invoice', subscription['latest_invoice']);
    const invoice =
      open && open['status'] === 'open' ? this.nextAttempt(open, status as 'paid' | 'open') : invoiceObject(subscription, status, options.amount ?? this.discountedRenewal(subscription));
    if (invoice['id']) this.save('invoice', invoice);
    if (type === 'invoice.payment_succeeded') subscription['status'] = 'active';
    if (type === 'invoice.payment_failed') subscription['status'] = 'past_due';
    if (invoice['id']) subscription['latest_invoice'] = invoice['id'];
    return this.event(type, invoice, options);
  }

  /** A renewal under a discount still running (a repeating one ends at its `end`): the price less the coupon; null without one. */
  private discountedRenewal(subscription: ProcessorObject): number | null {
    const discount = (subscription['discounts'] as string[]).map((id) => this.get('discount', id)).find((one) => one && (one['end'] === null || one['end'] > unixNow()));
    if (!discount) return null;
    const coupon = this.required('coupon', discount['source'].coupon);
    // A `once` coupon discounts one invoice, then leaves the subscription.
    if (coupon['duration'] === 'once') subscription['discounts'] = (subscription['discounts'] as string[]).filter((id) => id !== discount['id']);
    return discounted(subscription['items'].data[0].price.unit_amount ?? 0, coupon);
  }

  /** One more attempt at an open invoice: paid, or failed again with the next attempt scheduled while attempts remain. */
  private nextAttempt(invoice: ProcessorObject, outcome: 'paid' | 'open'): ProcessorObject {
    invoice['attempt_count'] = Number(invoice['attempt_count'] ?? 0) + 1;
    if (outcome === 'paid') {
      Object.assign(invoice, { status: 'paid', amount_paid: invoice['amount_due'], amount_remaining: 0, next_payment_attempt: null });
    } else {
      invoice['next_payment_attempt'] = invoice['attempt_count'] >= INVOICE_PAYMENT_ATTEMPTS ? null : addDays(unixNow(), 3);
    }
    return invoice;
  }

  /**
   * A refund of a payment (through the API, or by staff in the processor's dashboard): the charge
   * records it, and `charge.refunded` is sent with the charge.
   */
  refund(paymentIntentId: string, options: EventOptions & { amount?: number; reason?: string; metadata?: Record<string, string> } = {}): { refund: ProcessorObject; event: ProcessorEvent } {
    const paymentIntent = this.required('payment_intent', paymentIntentId);
    const charge = this.required('charge', paymentIntent['latest_charge']);
    const left = charge['amount'] - charge['amount_refunded'];
    const amount = options.amount ?? left;
    if (left <= 0) throw new ApiError(400, 'invalid_request_error', `Charge ${charge['id']} has already been refunded.`);
    if (!Number.isSafeInteger(amount) || amount <= 0 || amount > left) {
      throw new ApiError(400, 'invalid_request_error', `Refund amount (${amount}) is greater than unrefunded amount on charge (${left}).`);
    }
    const refund = this.save('refund', refundObject(charge, amount, options.reason ?? null, options.metadata ?? {}));
    charge['amount_refunded'] += amount;
    charge['refunded'] = charge['amount_refunded'] >= charge['amount'];
    return { refund, event: this.event('charge.refunded', charge, { created: options.created }) };
  }

  private refundByApi(fields: Record<string, FormValue>): ProcessorObject {
    const paymentIntent = text(fields['payment_intent']) ?? this.get('charge', text(fields['charge']) ?? '')?.['payment_intent'];
    if (!paymentIntent) throw new ApiError(400, 'invalid_request_error', 'Missing required param: payment_intent or charge.');
    return this.refund(paymentIntent, { amount: integer(fields['amount']) ?? undefined, reason: text(fields['reason']) ?? undefined, metadata: metadataOf(fields['metadata']) }).refund;
  }

  /** `GET /v1/refunds`: newest first, of one payment intent or charge when asked, as the processor lists them. */
  private listRefunds(fields: Record<string, FormValue>): ProcessorObject {
    const paymentIntent = text(fields['payment_intent']);
    const charge = text(fields['charge']);
    const refunds = [...this.store('refund').values()]
      .filter((refund) => (!paymentIntent || refund['payment_intent'] === paymentIntent) && (!charge || refund['charge'] === charge))
      .reverse();
    const limit = integer(fields['limit']) ?? 10;
    return { object: 'list', data: refunds.slice(0, limit), has_more: refunds.length > limit, url: '/v1/refunds' };
  }

  /** `customer.source.expiring`: the processor's notice that the customer's card expires at the end of the month. */
  cardExpiringEvent(customerId: string, options: EventOptions = {}): ProcessorEvent {
    this.required('customer', customerId);
    return this.event('customer.source.expiring', expiringCardObject(customerId), options);
  }

  customerEvent(customerId: string, type: 'customer.created' | 'customer.updated', changes: { email?: string; name?: string } = {}, options: EventOptions = {}): ProcessorEvent {
    const customer = this.required('customer', customerId);
    Object.assign(customer, changes);
    return this.event(type, customer, options);
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const raw = await readBody(req);
    try {
      if (url.pathname.startsWith('/_fake/')) return json(res, 200, await this.control(req.method ?? 'GET', url.pathname, raw));
      if (url.pathname.startsWith('/checkout/') || url.pathname.startsWith('/portal/')) return this.page(req.method ?? 'GET', url.pathname, res);
      const { status, body } = this.api(req, url, raw);
      json(res, status, body);
    } catch (err) {
      if (err instanceof ApiError) return json(res, err.status, { error: { type: err.type, message: err.message } });
      json(res, 500, { error: { type: 'api_error', message: err instanceof Error ? err.message : String(err) } });
    }
  }

  private api(req: IncomingMessage, url: URL, raw: string): { status: number; body: unknown } {
    const method = (req.method ?? 'GET').toUpperCase();
    const body = method === 'GET' ? {} : parseForm(raw);
    const apiKey = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1] ?? null;
    const idempotencyKey = header(req, 'idempotency-key');
    this.requests.push({ method, path: url.pathname, query: Object.fromEntries(url.searchParams), body, apiKey, idempotencyKey, at: new Date().toISOString() });

    if (!apiKey || !/^(sk|rk)_/.test(apiKey)) throw new ApiError(401, 'invalid_request_error', 'Invalid API Key provided.');
    const failure = this.failures.find((rule) => (!rule.method || rule.method === method) && matches(rule.path, url.pathname));
    if (failure) {
      failure.times -= 1;
      if (failure.times <= 0) this.failures.splice(this.failures.indexOf(failure), 1);
      throw new ApiError(failure.status, failure.status >= 500 ? 'api_error' : 'invalid_request_error', 'The fake processor was told to fail this call.');
    }
    const replayKey = idempotencyKey ? `${apiKey} ${method} ${url.pathname} ${idempotencyKey}` : null;
    const replay = replayKey ? this.replays.get(replayKey) : undefined;
    if (replay) return replay;

    for (const route of this.routes) {
      const match = route.method === method ? route.pattern.exec(url.pathname) : null;
      if (!match) continue;
      // A GET's parameters come in its query string, as the SDK sends them.
      const fields = method === 'GET' ? Object.fromEntries(url.searchParams) : body;
      const answer = { status: 200, body: this.publicView(route.handle(fields, decodeURIComponent(match[1] ?? ''))) };
      if (replayKey) this.replays.set(replayKey, answer);
      return answer;
    }
    throw new ApiError(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${url.pathname}).`);
  }

  private apiRoutes(): Route[] {
    const create = (collection: Collection, build: (fields: Record<string, FormValue>) => ProcessorObject) => (fields: Record<string, FormValue>) =>
      this.save(collection, build(fields));
    const retrieve = (collection: Collection) => (_fields: Record<string, FormValue>, id: string) => this.required(collection, id);
    const update = (collection: Collection, keys: string[]) => (fields: Record<string, FormValue>, id: string) => {
      const object = this.required(collection, id);
      for (const key of keys) {
        if (fields[key] === undefined) continue;
        object[key] = key === 'metadata' ? { ...object[key], ...metadataOf(fields[key]) } : key === 'active' ? flag(fields[key]) : text(fields[key]);
      }
      if ('updated' in object) object['updated'] = unixNow();
      return object;
    };
    return [
      { method: 'POST', pattern: /^\/v1\/customers$/, handle: create('customer', customerObject) },
      { method: 'GET', pattern: /^\/v1\/customers\/([^/]+)$/, handle: retrieve('customer') },
      { method: 'POST', pattern: /^\/v1\/customers\/([^/]+)$/, handle: update('customer', ['email', 'name', 'description', 'metadata']) },
      { method: 'DELETE', pattern: /^\/v1\/customers\/([^/]+)$/, handle: (_fields, id) => this.deleteCustomer(id) },
      { method: 'POST', pattern: /^\/v1\/products$/, handle: create('product', productObject) },
      { method: 'GET', pattern: /^\/v1\/products\/([^/]+)$/, handle: retrieve('product') },
      { method: 'POST', pattern: /^\/v1\/products\/([^/]+)$/, handle: update('product', ['name', 'description', 'active', 'metadata']) },
      { method: 'POST', pattern: /^\/v1\/prices$/, handle: (fields) => this.createPrice(fields) },
      { method: 'GET', pattern: /^\/v1\/prices\/([^/]+)$/, handle: retrieve('price') },
      { method: 'POST', pattern: /^\/v1\/prices\/([^/]+)$/, handle: update('price', ['active', 'metadata']) },
      { method: 'POST', pattern: /^\/v1\/webhook_endpoints$/, handle: create('webhook_endpoint', webhookEndpointObject) },
      { method: 'GET', pattern: /^\/v1\/webhook_endpoints\/([^/]+)$/, handle: (_fields, id) => this.withoutSecret(this.required('webhook_endpoint', id)) },
      { method: 'DELETE', pattern: /^\/v1\/webhook_endpoints\/([^/]+)$/, handle: (_fields, id) => this.remove('webhook_endpoint', id) },
      { method: 'POST', pattern: /^\/v1\/checkout\/sessions$/, handle: (fields) => this.createCheckoutSession(fields) },
      { method: 'POST', pattern: /^\/v1\/coupons$/, handle: (fields) => this.createCoupon(fields) },
      { method: 'GET', pattern: /^\/v1\/coupons\/([^/]+)$/, handle: retrieve('coupon') },
      { method: 'POST', pattern: /^\/v1\/promotion_codes$/, handle: (fields) => this.createPromotionCode(fields) },
      { method: 'GET', pattern: /^\/v1\/promotion_codes\/([^/]+)$/, handle: retrieve('promotion_code') },
      { method: 'POST', pattern: /^\/v1\/promotion_codes\/([^/]+)$/, handle: update('promotion_code', ['active', 'metadata']) },
      { method: 'GET', pattern: /^\/v1\/checkout\/sessions\/([^/]+)$/, handle: retrieve('checkout.session') },
      { method: 'POST', pattern: /^\/v1\/billing_portal\/sessions$/, handle: (fields) => this.createPortalSession(fields) },
      { method: 'GET', pattern: /^\/v1\/subscriptions\/([^/]+)$/, handle: retrieve('subscription') },
      { method: 'GET', pattern: /^\/v1\/payment_intents\/([^/]+)$/, handle: retrieve('payment_intent') },
      { method: 'POST', pattern: /^\/v1\/invoices\/create_preview$/, handle: (fields) => this.previewInvoice(fields) },
      { method: 'GET', pattern: /^\/v1\/invoices\/([^/]+)$/, handle: retrieve('invoice') },
      { method: 'POST', pattern: /^\/v1\/subscriptions\/([^/]+)$/, handle: (fields, id) => this.updateSubscriptionByApi(fields, id) },
      { method: 'DELETE', pattern: /^\/v1\/subscriptions\/([^/]+)$/, handle: (fields, id) => this.cancelSubscriptionByApi(fields, id) },
      { method: 'GET', pattern: /^\/v1\/payment_intents\/([^/]+)$/, handle: retrieve('payment_intent') },
      { method: 'POST', pattern: /^\/v1\/refunds$/, handle: (fields) => this.refundByApi(fields) },
      { method: 'GET', pattern: /^\/v1\/refunds$/, handle: (fields) => this.listRefunds(fields) },
      { method: 'GET', pattern: /^\/v1\/refunds\/([^/]+)$/, handle: retrieve('refund') },
      { method: 'GET', pattern: /^\/v1\/charges\/([^/]+)$/, handle: retrieve('charge') },
    ];
  }

  /** As the processor does: one discount at most, not with `allow_promotion_codes`, and only one that can be redeemed now by this customer. */
  private createCheckoutSession(fields: Record<string, FormValue>): ProcessorObject {
    const session = checkoutSessionObject(fields, this.url);
    for (const line of session['line_items_requested']) this.resolveLinePrice(session['mode'], line);
    const asked = listOf(fields['discounts']).map(fieldsOf);
    if (asked.length > 0 && session['allow_promotion_codes']) {
      throw new ApiError(400, 'invalid_request_error', 'You may only specify one of these parameters: allow_promotion_codes, discounts.');
    }
    if (asked.length > 1) throw new ApiError(400, 'invalid_request_error', 'You may only specify one discount.');
    session['discounts'] = asked.map((discount) => {
      const promotionCodeId = text(discount['promotion_code']);
      const promotionCode = promotionCodeId ? this.redeemablePromotionCode(promotionCodeId, session['customer']) : null;
      const couponId = promotionCode ? promotionCode['promotion'].coupon : text(discount['coupon']);
      this.redeemableCoupon(couponId);
      return { coupon: couponId, promotion_code: promotionCode?.['id'] ?? null };
    });
    const [line] = session['line_items_requested'];
    if (line && (!Number.isSafeInteger(line.quantity) || line.quantity < 1)) throw new ApiError(400, 'invalid_request_error', 'Invalid line_items[0][quantity]: must be a positive integer.');
    const price = this.get('price', line?.price ?? '');
    // As the processor refuses them: a subscription needs a recurring price, a payment a one-time one.
    if (price && session['mode'] === 'subscription' && price['type'] !== 'recurring') {
      throw new ApiError(400, 'invalid_request_error', 'You must specify at least one recurring price in `subscription` mode when using prices.');
    }
    if (price && session['mode'] === 'payment' && price['type'] === 'recurring') {
      throw new ApiError(400, 'invalid_request_error', 'You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices.');
    }
    const coupon = session['discounts'][0] ? this.required('coupon', session['discounts'][0].coupon) : null;
    const subtotal = (price?.['unit_amount'] ?? 0) * (line?.quantity ?? 1);
    const trial = session['mode'] === 'subscription' && session['subscription_data_requested'].trial_period_days;
    Object.assign(session, { currency: price?.['currency'] ?? null, amount_subtotal: subtotal, amount_total: trial ? 0 : discounted(subtotal, coupon) });
    return this.save('checkout.session', session);
  }

  /**
   * As the processor does: `price_data` makes an inline price (inactive, for this session only), and
   * `payment` mode takes one-time prices only, `subscription` mode recurring ones.
   */
  private resolveLinePrice(mode: string, line: { price: string | null; price_data: Record<string, FormValue> | null }): void {
    if (line.price_data) {
      const product = text(line.price_data['product']);
      if (!product || !this.get('product', product)) throw new ApiError(400, 'invalid_request_error', `No such product: '${product}'`);
      if (integer(line.price_data['unit_amount']) === null || !text(line.price_data['currency'])) {
        throw new ApiError(400, 'invalid_request_error', 'Missing required param: line_items[0][price_data][unit_amount] and [currency].');
      }
      line.price = this.save('price', { ...priceObject(line.price_data), active: false })['id'];
    }
    const price = this.priceFor(line.price);
    if (mode === 'payment' && price['type'] === 'recurring') {
      throw new ApiError(400, 'invalid_request_error', 'You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices.');
    }
  }

  private createCoupon(fields: Record<string, FormValue>): ProcessorObject {
    const coupon = couponObject(fields);
    if ((coupon['percent_off'] === null) === (coupon['amount_off'] === null)) {
      throw new ApiError(400, 'invalid_request_error', 'You must pass exactly one of percent_off or amount_off.');
    }
    if (coupon['amount_off'] !== null && !coupon['currency']) throw new ApiError(400, 'invalid_request_error', 'You must pass currency when passing amount_off.');
    if (coupon['percent_off'] !== null && (coupon['percent_off'] <= 0 || coupon['percent_off'] > 100)) {
      throw new ApiError(400, 'invalid_request_error', 'Invalid percent_off: must be greater than 0 and at most 100.');
    }
    if (!['once', 'repeating', 'forever'].includes(coupon['duration'])) throw new ApiError(400, 'invalid_request_error', `Invalid duration: ${coupon['duration']}.`);
    if (coupon['duration'] === 'repeating' && !coupon['duration_in_months']) {
      throw new ApiError(400, 'invalid_request_error', 'You must pass duration_in_months when duration is repeating.');
    }
    if (this.get('coupon', coupon['id'])) throw new ApiError(400, 'invalid_request_error', `Coupon already exists: '${coupon['id']}'.`);
    return this.save('coupon', coupon);
  }

  private createPromotionCode(fields: Record<string, FormValue>): ProcessorObject {
    const promotion = fieldsOf(fields['promotion']);
    const couponId = text(promotion['coupon']);
    if (text(promotion['type']) !== 'coupon' || !couponId) throw new ApiError(400, 'invalid_request_error', 'Missing required param: promotion[coupon].');
    this.required('coupon', couponId);
    const promotionCode = promotionCodeObject(fields, couponId);
    const taken = [...this.store('promotion_code').values()].some((other) => other['active'] && other['code'].toUpperCase() === promotionCode['code'].toUpperCase());
    if (taken) throw new ApiError(400, 'invalid_request_error', `An active promotion code with \`code: ${promotionCode['code']}\` already exists.`);
    return this.save('promotion_code', promotionCode);
  }

  private redeemablePromotionCode(id: string, customer: string | null): ProcessorObject {
    const promotionCode = this.get('promotion_code', id);
    if (!promotionCode) throw new ApiError(400, 'invalid_request_error', `No such promotion code: '${id}'`);
    if (!promotionCode['active']) throw new ApiError(400, 'invalid_request_error', 'This promotion code is inactive.');
    if (promotionCode['expires_at'] !== null && promotionCode['expires_at'] <= unixNow()) throw new ApiError(400, 'invalid_request_error', 'This promotion code has expired.');
    if (promotionCode['max_redemptions'] !== null && promotionCode['times_redeemed'] >= promotionCode['max_redemptions']) {
      throw new ApiError(400, 'invalid_request_error', 'This promotion code has been redeemed the maximum number of times.');
    }
    if (promotionCode['restrictions'].first_time_transaction && customer && this.hasTransactions(customer)) {
      throw new ApiError(400, 'invalid_request_error', 'This promotion code cannot be redeemed because the associated customer has prior transactions.');
    }
    return promotionCode;
  }

  private redeemableCoupon(id: string | null): ProcessorObject {
    const coupon = id ? this.get('coupon', id) : undefined;
    if (!coupon) throw new ApiError(400, 'invalid_request_error', `No such coupon: '${id}'`);
    const spent = coupon['max_redemptions'] !== null && coupon['times_redeemed'] >= coupon['max_redemptions'];
    if (!coupon['valid'] || spent || (coupon['redeem_by'] !== null && coupon['redeem_by'] <= unixNow())) {
      throw new ApiError(400, 'invalid_request_error', `Coupon ${coupon['id']} is no longer valid.`);
    }
    return coupon;
  }

  private hasTransactions(customer: string): boolean {
    return [...this.store('subscription').values(), ...this.store('checkout.session').values()].some(
      (object) => object['customer'] === customer && (object['object'] === 'subscription' || object['status'] === 'complete'),
    );
  }

  /**
   * `discounts` of a subscription update, as the processor takes them: `[{coupon}]` or
   * `[{promotion_code}]` (each checked redeemable first), replacing the subscription's discounts;
   * an empty value removes them.
   */
  private discountsOf(value: FormValue): Array<{ coupon: ProcessorObject; promotionCode: string | null }> {
    if (value === '') return [];
    return listOf(value)
      .map(fieldsOf)
      .map((discount) => {
        const promotionCode = text(discount['promotion_code']) ? this.required('promotion_code', text(discount['promotion_code']) as string) : null;
        if (promotionCode && !promotionCode['active']) throw new ApiError(400, 'invalid_request_error', 'This promotion code is inactive.');
        const coupon = this.redeemableCoupon(promotionCode ? promotionCode['promotion'].coupon : text(discount['coupon']));
        return { coupon, promotionCode: promotionCode?.['id'] ?? null };
      });
  }

  /** Paying redeems the discount: counted on the coupon and the code, and applied to the subscription. */
  private redeem(coupon: ProcessorObject, promotionCodeId: string | null, customer: string, subscription: ProcessorObject | null, sessionId: string): void {
    const discount = this.redeemed(coupon, promotionCodeId, { customer, subscription: subscription?.['id'] ?? null, checkoutSession: sessionId });
    if (subscription) subscription['discounts'] = [discount];
  }

  /** Counts a redemption on the coupon (spent at its `max_redemptions`) and the code, and makes the discount object; its id. */
  private redeemed(coupon: ProcessorObject, promotionCodeId: string | null, on: { customer: string; subscription: string | null; checkoutSession: string | null }): string {
    coupon['times_redeemed'] += 1;
    if (coupon['max_redemptions'] !== null && coupon['times_redeemed'] >= coupon['max_redemptions']) coupon['valid'] = false;
    if (promotionCodeId) this.required('promotion_code', promotionCodeId)['times_redeemed'] += 1;
    return this.save('discount', discountObject({ coupon, promotionCode: promotionCodeId, ...on }))['id'];
  }

  private createPrice(fields: Record<string, FormValue>): ProcessorObject {
    const product = text(fields['product']);
    if (!product || !this.get('product', product)) throw new ApiError(400, 'invalid_request_error', `No such product: '${product}'`);
    return this.save('price', priceObject(fields));
  }

  private createPortalSession(fields: Record<string, FormValue>): ProcessorObject {
    const customer = text(fields['customer']);
    if (!customer || !this.get('customer', customer)) throw new ApiError(400, 'invalid_request_error', `No such customer: '${customer}'`);
    return this.save('billing_portal.session', portalSessionObject(fields, this.url));
  }

  private updateSubscriptionByApi(fields: Record<string, FormValue>, id: string): ProcessorObject {
    const subscription = this.required('subscription', id);
    const cancelAtPeriodEnd = flag(fields['cancel_at_period_end']);
    const details = cancellationDetailsOf(fields['cancellation_details']);
    // Everything is checked before anything changes: a refused update leaves the subscription as it was.
    const quantity = this.quantityChangeOf(subscription, fields['items']);
    const change = quantity === null ? this.priceChangeOf(subscription, fields['items'], fields['proration_behavior'], fields['proration_date']) : null;
    const pause = fields['pause_collection'] === undefined ? undefined : this.pauseOf(fields['pause_collection']);
    const discounts = fields['discounts'] === undefined ? undefined : this.discountsOf(fields['discounts']);
    if ((change || discounts || quantity !== null) && subscription['status'] === 'canceled') throw new ApiError(400, 'invalid_request_error', `The subscription ${id} is canceled and cannot be updated.`);
    const previous = this.applySubscriptionChanges(subscription, {
      ...(cancelAtPeriodEnd === null ? {} : { cancel_at_period_end: cancelAtPeriodEnd }),
      ...(fields['metadata'] ? { metadata: { ...subscription['metadata'], ...metadataOf(fields['metadata']) } } : {}),
    });
    // As the processor does: a scheduled cancellation is `cancellation_requested`, with the feedback given; undoing it clears them.
    if (cancelAtPeriodEnd !== null || details) {
      previous['cancellation_details'] = subscription['cancellation_details'];
      subscription['cancellation_details'] = subscription['cancel_at_period_end']
        ? { ...subscription['cancellation_details'], reason: 'cancellation_requested', ...details }
        : { comment: null, feedback: null, reason: null };
    }
    if (pause !== undefined) {
      previous['pause_collection'] = subscription['pause_collection'];
      subscription['pause_collection'] = pause;
    }
    if (discounts !== undefined) {
      previous['discounts'] = subscription['discounts'];
      subscription['discounts'] = discounts.map(({ coupon, promotionCode }) =>
        this.redeemed(coupon, promotionCode, { customer: subscription['customer'], subscription: subscription['id'], checkoutSession: null }),
      );
    }
    const invoice = change ? this.applyPriceChange(subscription, change, previous) : null;
    if (quantity !== null) {
      previous['items'] = structuredClone(subscription['items']);
      subscription['items'].data[0].quantity = quantity;
    }
    this.event('customer.subscription.updated', subscription, {}, previous);
    if (invoice) this.event('invoice.payment_succeeded', invoice);
    return subscription;
  }

  /** `POST /v1/invoices/create_preview` for a subscription with changed items: the invoice the update would make now, its proration lines included. */
  private previewInvoice(fields: Record<string, FormValue>): ProcessorObject {
    const subscription = this.required('subscription', text(fields['subscription']) ?? '');
    const details = fieldsOf(fields['subscription_details']);
    const change = this.priceChangeOf(subscription, details['items'], details['proration_behavior'], details['proration_date']);
    if (!change) throw new ApiError(400, 'invalid_request_error', 'Nothing to preview: pass subscription_details[items].');
    return linesInvoiceObject(subscription, change.lines, { preview: true, billingReason: 'subscription_update' });
  }

  /**
   * The processor's proration (its documented method): the unused share of the current period is
   * credited at the old price and, on the same interval, the remaining share charged at the new
   * one; another interval restarts the period now and charges the new price in full.
   */
  /**
   * `items[0][quantity]` without a price: the item's units change (seats), as the processor allows
   * on the same price; null when the update asks for a price (or nothing) instead.
   */
  private quantityChangeOf(subscription: ProcessorObject, items: FormValue | undefined): number | null {
    const requested = listOf(items).map(fieldsOf)[0];
    if (!requested || requested['quantity'] === undefined || text(requested['price']) !== null) return null;
    const itemId = text(requested['id']);
    if (itemId !== subscription['items'].data[0].id) throw new ApiError(400, 'invalid_request_error', `No such subscription item: '${itemId ?? ''}'`);
    const quantity = integer(requested['quantity']);
    if (quantity === null || !Number.isSafeInteger(quantity) || quantity < 1) throw new ApiError(400, 'invalid_request_error', 'Invalid items[0][quantity]: must be a positive integer.');
    return quantity;
  }

  private priceChangeOf(subscription: ProcessorObject, items: FormValue | undefined, behaviorField: FormValue | undefined, dateField: FormValue | undefined): PriceChange | null {
    const requested = listOf(items).map(fieldsOf)[0];
    if (!requested) return null;
    const item = subscription['items'].data[0];
    const itemId = text(requested['id']);
    if (itemId !== null && itemId !== item.id) throw new ApiError(400, 'invalid_request_error', `No such subscription item: '${itemId}'`);
    const price = this.priceFor(text(requested['price']));
    if (price['type'] !== 'recurring') throw new ApiError(400, 'invalid_request_error', 'The price specified is set to `type=one_time` but this field only accepts prices with `type=recurring`.');
    if (price['currency'] !== subscription['currency']) throw new ApiError(400, 'invalid_request_error', `The price specified is in ${price['currency']} but the subscription is in ${subscription['currency']}.`);
    const behavior = text(behaviorField) ?? 'create_prorations';
    if (!PRORATION_BEHAVIORS.includes(behavior)) throw new ApiError(400, 'invalid_request_error', `Invalid proration_behavior: must be one of ${PRORATION_BEHAVIORS.join(', ')}`);
    const at = integer(dateField) ?? unixNow();
    const start: number = item.current_period_start;
    const end: number = item.current_period_end;
    const old: ProcessorObject = item.price;
    const share = end > start ? Math.min(1, Math.max(0, (end - at) / (end - start))) : 0;
    const restartsPeriod = old['recurring']?.interval !== price['recurring']?.interval;
    const line = (linePrice: ProcessorObject, amount: number, description: string, proration: boolean, lineEnd: number) =>
      invoiceLineObject({ subscription, price: linePrice, amount, description, proration, start: at, end: lineEnd });
    const lines: ProcessorObject[] = [];
    if (behavior !== 'none') {
      lines.push(line(old, -Math.round((old['unit_amount'] ?? 0) * share), `Unused time on ${this.productName(old)} after ${dayOf(at)}`, true, end));
      if (!restartsPeriod) lines.push(line(price, Math.round((price['unit_amount'] ?? 0) * share), `Remaining time on ${this.productName(price)} after ${dayOf(at)}`, true, end));
    }
    if (restartsPeriod) {
      const interval = price['recurring']?.interval;
      lines.push(line(price, price['unit_amount'] ?? 0, `1 × ${this.productName(price)} (per ${interval})`, false, periodEnd(at, interval)));
    }
    return { price, at, behavior, restartsPeriod, lines };
  }

  /** Moves the item to the new price; the processor invoices at once with `always_invoice`, and always when the period restarts. */
  private applyPriceChange(subscription: ProcessorObject, change: PriceChange, previous: ProcessorObject): ProcessorObject | null {
    previous['items'] = structuredClone(subscription['items']);
    const item = subscription['items'].data[0];
    item.price = change.price;
    if (change.restartsPeriod) {
      item.current_period_start = change.at;
      item.current_period_end = periodEnd(change.at, change.price['recurring']?.interval);
    }
    if (change.lines.length === 0 || !(change.behavior === 'always_invoice' || change.restartsPeriod)) return null;
    const invoice = this.save('invoice', linesInvoiceObject(subscription, change.lines, { preview: false, billingReason: 'subscription_update' }));
    subscription['latest_invoice'] = invoice['id'];
    return invoice;
  }

  /** `pause_collection`: an empty value resumes; otherwise a behavior and an optional `resumes_at` in the future. */
  private pauseOf(value: FormValue): ProcessorObject | null {
    if (value === '') return null;
    const fields = fieldsOf(value);
    const behavior = text(fields['behavior']);
    if (!behavior || !PAUSE_BEHAVIORS.includes(behavior)) throw new ApiError(400, 'invalid_request_error', `Invalid pause_collection[behavior]: must be one of ${PAUSE_BEHAVIORS.join(', ')}`);
    const resumesAt = integer(fields['resumes_at']);
    if (resumesAt !== null && (!Number.isSafeInteger(resumesAt) || resumesAt <= unixNow())) {
      throw new ApiError(400, 'invalid_request_error', 'Invalid pause_collection[resumes_at]: must be a time in the future.');
    }
    return { behavior, resumes_at: resumesAt };
  }

  private productName(price: ProcessorObject): string {
    return String(this.get('product', price['product'])?.['name'] ?? price['product']);
  }

  /**
   * As the processor does: the customer is gone for good (a second delete, or any call naming it,
   * answers 404 "No such customer"), each of its subscriptions still running is cancelled now, and
   * `customer.subscription.deleted` and then `customer.deleted` are sent.
   */
  private deleteCustomer(id: string): ProcessorObject {
    const customer = this.required('customer', id);
    for (const subscription of this.store('subscription').values()) {
      if (subscription['customer'] !== id || subscription['status'] === 'canceled') continue;
      this.cancelNow(subscription);
      this.event('customer.subscription.deleted', subscription);
    }
    this.event('customer.deleted', { ...customer, deleted: true });
    return this.remove('customer', id);
  }

  private cancelSubscriptionByApi(fields: Record<string, FormValue>, id: string): ProcessorObject {
    const subscription = this.required('subscription', id);
    if (subscription['status'] === 'canceled') throw new ApiError(400, 'invalid_request_error', `The subscription ${id} is already canceled.`);
    const details = cancellationDetailsOf(fields['cancellation_details']);
    subscription['cancellation_details'] = { ...subscription['cancellation_details'], reason: 'cancellation_requested', ...details };
    this.cancelNow(subscription);
    this.event('customer.subscription.deleted', subscription);
    return subscription;
  }

  private applySubscriptionChanges(subscription: ProcessorObject, changes: SubscriptionChanges): ProcessorObject {
    const item = subscription['items'].data[0];
    const previous: ProcessorObject = {};
    for (const [key, value] of Object.entries(changes)) {
      const onItem = key === 'current_period_start' || key === 'current_period_end';
      const target = onItem ? item : subscription;
      previous[key] = target[key];
      target[key] = value;
    }
    if (changes.cancel_at_period_end !== undefined) {
      subscription['cancel_at'] = changes.cancel_at_period_end ? item.current_period_end : null;
      subscription['canceled_at'] = changes.cancel_at_period_end ? unixNow() : null;
    }
    if (changes.status === 'canceled') this.cancelNow(subscription);
    if (changes.status === 'active' && changes.current_period_end === undefined && item.current_period_end < unixNow()) {
      item.current_period_start = unixNow();
      item.current_period_end = periodEnd(item.current_period_start, item.price.recurring?.interval);
    }
    return previous;
  }

  private cancelNow(subscription: ProcessorObject): void {
    const now = unixNow();
    Object.assign(subscription, { status: 'canceled', canceled_at: subscription['canceled_at'] ?? now, ended_at: now });
  }

  private priceFor(id: string | null | undefined): ProcessorObject {
    const price = id ? this.get('price', id) : undefined;
    if (!price) throw new ApiError(400, 'invalid_request_error', `No such price: '${id}'`);
    return price;
  }

  /** The control API, for tests and tools in another process: the same operations as the methods above, over JSON. */
  private async control(method: string, path: string, raw: string): Promise<unknown> {
    const input = raw ? (JSON.parse(raw) as Record<string, any>) : {};
    const route = `${method} ${path}`;
    let match: RegExpExecArray | null;
    if (route === 'GET /_fake/requests') return this.requests;
    if (route === 'GET /_fake/events') return this.events;
    if (route === 'POST /_fake/failures') {
      this.failNext(input as FailureRule);
      return { ok: true };
    }
    if (route === 'DELETE /_fake/failures') {
      this.clearFailures();
      return { ok: true };
    }
    if (route === 'PUT /_fake/delivery-delay') {
      this.delayDeliveries(input['ms']);
      return { ms: this.deliveryDelayMs };
    }
    if (route === 'POST /_fake/deliveries') return this.sendEvent(input['targetUrl'], input['secret'], input['event'], input['options']);
    if (route === 'POST /_fake/subscriptions') return this.createSubscription(input['spec'], input['options']);
    if ((match = /^POST \/_fake\/checkout\/sessions\/([^/]+)\/complete$/.exec(route))) return this.completeCheckout(match[1], input);
    if ((match = /^POST \/_fake\/subscriptions\/([^/]+)\/update$/.exec(route))) return this.updateSubscription(match[1], input['changes'] ?? {}, input['options']);
    if ((match = /^POST \/_fake\/subscriptions\/([^/]+)\/delete$/.exec(route))) return this.deleteSubscription(match[1], input['options']);
    if ((match = /^POST \/_fake\/subscriptions\/([^/]+)\/invoices$/.exec(route))) return this.invoiceEvent(match[1], input['type'], input['options']);
    if ((match = /^POST \/_fake\/payment_intents\/([^/]+)\/refund$/.exec(route))) return this.refund(match[1], input);
    if ((match = /^POST \/_fake\/customers\/([^/]+)\/card-expiring$/.exec(route))) return this.cardExpiringEvent(match[1], input['options']);
    if ((match = /^POST \/_fake\/customers\/([^/]+)\/events$/.exec(route))) return this.customerEvent(match[1], input['type'], input['changes'], input['options']);
    if ((match = /^GET \/_fake\/objects\/([^/]+)\/([^/]+)$/.exec(route))) return this.required(match[1] as Collection, match[2]);
    throw new ApiError(404, 'invalid_request_error', `No control route ${route}.`);
  }

  /** What a customer sent to the processor's hosted pages sees; paying completes the session as the processor would. */
  private page(method: string, path: string, res: ServerResponse): void {
    const checkout = /^\/checkout\/([^/]+)(\/pay)?$/.exec(path);
    if (checkout && method === 'POST' && checkout[2]) {
      const { session } = this.completeCheckout(checkout[1]);
      // As the processor does, the session's id takes the place of the template variable in the success URL.
      const successUrl = String(session['success_url'] ?? '/').replaceAll('{CHECKOUT_SESSION_ID}', session['id']);
      res.writeHead(303, { location: successUrl }).end();
      return;
    }
    const session = checkout ? this.get('checkout.session', checkout[1]) : undefined;
    const portal = /^\/portal\/([^/]+)$/.exec(path);
    const portalSession = portal ? this.get('billing_portal.session', portal[1]) : undefined;
    if (session) {
      const promotionCode = session['discounts'][0]?.promotion_code ? this.get('promotion_code', session['discounts'][0].promotion_code) : undefined;
      return html(res, `<h1>Fake checkout</h1><p>${session['mode']} for ${escapeHtml(String(session['line_items_requested'][0]?.price))}</p>` +
        `<p>Due today: <output id="amount-total">${session['amount_total']} ${escapeHtml(String(session['currency'] ?? ''))}</output></p>` +
        (promotionCode ? `<p>Promotion code: <output id="promotion-code">${escapeHtml(promotionCode['code'])}</output></p>` : '') +
        `<form method="post" action="/checkout/${session['id']}/pay"><button>Pay</button></form>` +
        `<p><a href="${escapeHtml(String(session['cancel_url']))}">Cancel</a></p>`);
    }
    if (portalSession) return html(res, `<h1>Fake billing portal</h1><p><a href="${escapeHtml(String(portalSession['return_url']))}">Return</a></p>`);
    res.writeHead(404).end();
  }

  private deliverToEndpoints(event: ProcessorEvent): void {
    if (this.deliveryDelayMs === 0) return this.sendToEndpoints(event);
    const timer = setTimeout(() => {
      this.pendingDeliveries.delete(timer);
      this.sendToEndpoints(event);
    }, this.deliveryDelayMs);
    this.pendingDeliveries.add(timer);
  }

  private sendToEndpoints(event: ProcessorEvent): void {
    for (const endpoint of this.store('webhook_endpoint').values()) {
      const wanted: string[] = endpoint['enabled_events'];
      if (!wanted.includes('*') && !wanted.includes(event.type)) continue;
      deliverEvent(endpoint['url'], endpoint['secret'], event).catch((err: unknown) => {
        console.warn(`fake processor: delivering ${event.type} to ${endpoint['url']} failed: ${err instanceof Error ? err.message : String(err)}`);
      });
    }
  }

  private store(collection: Collection): Map<string, ProcessorObject> {
    let store = this.objects.get(collection);
    if (!store) {
      store = new Map();
      this.objects.set(collection, store);
    }
    return store;
  }

  private save(collection: Collection, object: ProcessorObject): ProcessorObject {
    this.store(collection).set(object['id'], object);
    return object;
  }

  private required(collection: Collection, id: string): ProcessorObject {
    const object = this.get(collection, id);
    if (!object) throw new ApiError(404, 'invalid_request_error', `No such ${collection}: '${id}'`);
    return object;
  }

  private remove(collection: Collection, id: string): ProcessorObject {
    this.required(collection, id);
    this.store(collection).delete(id);
    return { id, object: collection, deleted: true };
  }

  private withoutSecret(endpoint: ProcessorObject): ProcessorObject {
    const { secret: _secret, ...rest } = endpoint;
    return rest;
  }

  /** The object as the API shows it: without what the fake keeps for itself. */
  private publicView(object: ProcessorObject): ProcessorObject {
    const { line_items_requested: _lines, subscription_data_requested: _data, payment_intent_data_requested: _payment, ...rest } = object;
    return structuredClone(rest);
  }
}

/** Starts a fake processor on `port` (a free one by default). */
export function startFakeProcessor(options: FakeProcessorOptions = {}): Promise<FakeProcessor> {
  return FakeProcessor.start(options);
}

function dayOf(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
}

function matches(rule: string, path: string): boolean {
  return rule.endsWith('*') ? path.startsWith(rule.slice(0, -1)) : rule === path;
}

function header(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  return typeof value === 'string' ? value : null;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req') }).end(JSON.stringify(body ?? null));
}

function html(res: ServerResponse, body: string): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>Fake processor</title>${body}`);
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The processor's `cancellation_feedback` values; anything else is refused as it refuses it. */
const CANCELLATION_FEEDBACK = ['customer_service', 'low_quality', 'missing_features', 'other', 'switched_service', 'too_complex', 'too_expensive', 'unused'];

function cancellationDetailsOf(value: FormValue | undefined): { feedback?: string | null; comment?: string | null } | null {
  if (value === undefined) return null;
  if (typeof value !== 'object' || Array.isArray(value)) throw new ApiError(400, 'invalid_request_error', 'Invalid object: cancellation_details');
  const details: { feedback?: string | null; comment?: string | null } = {};
  const feedback = value['feedback'];
  if (feedback !== undefined) {
    if (typeof feedback !== 'string' || (feedback !== '' && !CANCELLATION_FEEDBACK.includes(feedback))) {
      throw new ApiError(400, 'invalid_request_error', `Invalid cancellation_details[feedback]: must be one of ${CANCELLATION_FEEDBACK.join(', ')}`);
    }
    details.feedback = feedback || null;
  }
  if (typeof value['comment'] === 'string') details.comment = value['comment'] || null;
  return details;
}
