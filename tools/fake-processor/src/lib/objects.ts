import { randomBytes } from 'node:crypto';
import type { FormValue } from './form';

/** An object as the processor's API returns it (snake_case JSON). */
export type ProcessorObject = Record<string, any>;

/** The API version the SDK in use speaks; events carry it as the processor's would. */
export const API_VERSION = '2026-10-28.endive';

export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
}

export function unixNow(): number {
  return Math.floor(Date.now() / 1000);
}

const SECONDS_PER_DAY = 86_400;

/** One billing period after `start` for a price's interval (30 days or 365 days: close enough for a stand-in). */
export function periodEnd(start: number, interval: string | undefined): number {
  return start + (interval === 'year' ? 365 : 30) * SECONDS_PER_DAY;
}

export function addDays(start: number, days: number): number {
  return start + days * SECONDS_PER_DAY;
}

/* Readers of form fields, as the processor coerces them. */
export const text = (value: FormValue | undefined): string | null => (typeof value === 'string' ? value : null);
export const integer = (value: FormValue | undefined): number | null => (typeof value === 'string' && value !== '' ? Number(value) : null);
export const flag = (value: FormValue | undefined): boolean | null => (typeof value === 'string' ? value === 'true' : null);
export const metadataOf = (value: FormValue | undefined): Record<string, string> =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== ''))
    : {};
export const listOf = (value: FormValue | undefined): FormValue[] => (Array.isArray(value) ? value : []);
export const fieldsOf = (value: FormValue | undefined): Record<string, FormValue> =>
  value && typeof value === 'object' && !Array.isArray(value) ? value : {};

export function customerObject(fields: Record<string, FormValue>): ProcessorObject {
  return {
    id: newId('cus'),
    object: 'customer',
    email: text(fields['email']),
    name: text(fields['name']),
    description: text(fields['description']),
    metadata: metadataOf(fields['metadata']),
    created: unixNow(),
    livemode: false,
  };
}

export function productObject(fields: Record<string, FormValue>): ProcessorObject {
  const now = unixNow();
  return {
    id: newId('prod'),
    object: 'product',
    name: text(fields['name']),
    description: text(fields['description']),
    active: flag(fields['active']) ?? true,
    metadata: metadataOf(fields['metadata']),
    created: now,
    updated: now,
    livemode: false,
  };
}

export function priceObject(fields: Record<string, FormValue>): ProcessorObject {
  const recurring = fieldsOf(fields['recurring']);
  const interval = text(recurring['interval']);
  const unitAmount = integer(fields['unit_amount']);
  return {
    id: newId('price'),
    object: 'price',
    product: text(fields['product']),
    currency: text(fields['currency']),
    unit_amount: unitAmount,
    unit_amount_decimal: unitAmount === null ? null : String(unitAmount),
    recurring: interval ? { interval, interval_count: integer(recurring['interval_count']) ?? 1, usage_type: 'licensed' } : null,
    type: interval ? 'recurring' : 'one_time',
    active: flag(fields['active']) ?? true,
    metadata: metadataOf(fields['metadata']),
    created: unixNow(),
    livemode: false,
  };
}

export function webhookEndpointObject(fields: Record<string, FormValue>): ProcessorObject {
  return {
    id: newId('we'),
    object: 'webhook_endpoint',
    url: text(fields['url']),
    enabled_events: listOf(fields['enabled_events']).filter((event): event is string => typeof event === 'string'),
    description: text(fields['description']),
    metadata: metadataOf(fields['metadata']),
    secret: `whsec_${randomBytes(24).toString('base64url')}`,
    status: 'enabled',
    api_version: text(fields['api_version']),
    created: unixNow(),
    livemode: false,
  };
}

export function checkoutSessionObject(fields: Record<string, FormValue>, baseUrl: string): ProcessorObject {
  const id = newId('cs_test');
  const lineItems = listOf(fields['line_items']).map((item) => {
    const line = fieldsOf(item);
    const priceData = line['price_data'] === undefined ? null : fieldsOf(line['price_data']);
    return { price: text(line['price']), price_data: priceData, quantity: integer(line['quantity']) ?? 1 };
  });
  return {
    id,
    object: 'checkout.session',
    mode: text(fields['mode']) ?? 'payment',
    customer: text(fields['customer']),
    customer_email: text(fields['customer_email']),
    client_reference_id: text(fields['client_reference_id']),
    success_url: text(fields['success_url']),
    cancel_url: text(fields['cancel_url']),
    metadata: metadataOf(fields['metadata']),
    status: 'open',
    payment_status: 'unpaid',
    subscription: null,
    payment_intent: null,
    url: `${baseUrl}/checkout/${id}`,
    created: unixNow(),
    expires_at: addDays(unixNow(), 1),
    livemode: false,
    allow_promotion_codes: flag(fields['allow_promotion_codes']),
    // The processor shows `discounts` as asked: `[{coupon, promotion_code}]`; the caller resolves them.
    discounts: [],
    // What the session was asked to do once paid; the processor keeps it too, but does not show it.
    line_items_requested: lineItems,
    payment_intent_data_requested: { metadata: metadataOf(fieldsOf(fields['payment_intent_data'])['metadata']) },
    subscription_data_requested: {
      metadata: metadataOf(fieldsOf(fields['subscription_data'])['metadata']),
      trial_period_days: integer(fieldsOf(fields['subscription_data'])['trial_period_days']),
    },
  };
}

export function portalSessionObject(fields: Record<string, FormValue>, baseUrl: string): ProcessorObject {
  const id = newId('bps');
  return {
    id,
    object: 'billing_portal.session',
    customer: text(fields['customer']),
    return_url: text(fields['return_url']),
    url: `${baseUrl}/portal/${id}`,
    created: unixNow(),
    livemode: false,
  };
}

export interface NewSubscription {
  customer: string;
  price: ProcessorObject;
  status?: string;
  metadata?: Record<string, string>;
  trialDays?: number | null;
  start?: number;
  discounts?: string[];
  /** Units of the price (seats); 1 unless given. */
  quantity?: number;
}

export function subscriptionObject(spec: NewSubscription): ProcessorObject {
  const id = newId('sub');
  const start = spec.start ?? unixNow();
  const trialEnd = spec.trialDays ? addDays(start, spec.trialDays) : null;
  const end = trialEnd ?? periodEnd(start, spec.price['recurring']?.interval);
  return {
    id,
    object: 'subscription',
    customer: spec.customer,
    status: spec.status ?? (trialEnd ? 'trialing' : 'active'),
    cancel_at_period_end: false,
    pause_collection: null,
    cancel_at: null,
    cancellation_details: { comment: null, feedback: null, reason: null },
    canceled_at: null,
    ended_at: null,
    created: start,
    start_date: start,
    trial_start: trialEnd ? start : null,
    trial_end: trialEnd,
    currency: spec.price['currency'],
    metadata: spec.metadata ?? {},
    latest_invoice: null,
    // Ids of discount objects, as the API shows them unless expanded.
    discounts: spec.discounts ?? [],
    livemode: false,
    items: {
      object: 'list',
      data: [
        {
          id: newId('si'),
          object: 'subscription_item',
          subscription: id,
          price: spec.price,
          quantity: spec.quantity ?? 1,
          current_period_start: start,
          current_period_end: end,
          created: start,
          metadata: {},
        },
      ],
      has_more: false,
      url: `/v1/subscription_items?subscription=${id}`,
    },
  };
}

export function invoiceObject(subscription: ProcessorObject, status: 'paid' | 'open' | 'draft', amountPaid: number | null): ProcessorObject {
  const item = subscription['items'].data[0];
  const amountDue = amountPaid ?? (item.price.unit_amount ?? 0) * item.quantity;
  return {
    id: status === 'draft' ? undefined : newId('in'),
    object: 'invoice',
    customer: subscription['customer'],
    currency: subscription['currency'],
    amount_due: amountDue,
    amount_paid: status === 'paid' ? amountDue : 0,
    amount_remaining: status === 'paid' ? 0 : amountDue,
    status,
    billing_reason: 'subscription_cycle',
    period_start: item.current_period_start,
    period_end: item.current_period_end,
    next_payment_attempt: status === 'open' ? addDays(unixNow(), 3) : null,
    attempt_count: status === 'draft' ? 0 : 1,
    attempted: status !== 'draft',
    parent: {
      type: 'subscription_details',
      quote_details: null,
      subscription_details: { subscription: subscription['id'], metadata: subscription['metadata'] },
    },
    created: unixNow(),
    livemode: false,
  };
}

export function couponObject(fields: Record<string, FormValue>): ProcessorObject {
  const percentOff = integer(fields['percent_off']);
  const amountOff = integer(fields['amount_off']);
  const currency = text(fields['currency']);
  const duration = text(fields['duration']) ?? 'once';
  const months = integer(fields['duration_in_months']);
  return {
    id: text(fields['id']) ?? randomBytes(6).toString('base64url'),
    object: 'coupon',
    amount_off: amountOff,
    currency: amountOff === null ? null : currency,
    duration,
    duration_in_months: duration === 'repeating' ? months : null,
    max_redemptions: integer(fields['max_redemptions']),
    redeem_by: integer(fields['redeem_by']),
    metadata: metadataOf(fields['metadata']),
    name: text(fields['name']),
    percent_off: percentOff,
    times_redeemed: 0,
    valid: true,
    created: unixNow(),
    livemode: false,
  };
}

/** One line of an invoice about a subscription item, as the processor shows it (a proration or a regular charge). */
export function invoiceLineObject(spec: {
  subscription: ProcessorObject;
  price: ProcessorObject;
  amount: number;
  description: string;
  proration: boolean;
  start: number;
  end: number;
}): ProcessorObject {
  const item = spec.subscription['items'].data[0];
  return {
    id: newId('il'),
    object: 'line_item',
    amount: spec.amount,
    currency: spec.price['currency'],
    description: spec.description,
    period: { start: spec.start, end: spec.end },
    quantity: 1,
    pricing: { type: 'price_details', price_details: { price: spec.price['id'], product: spec.price['product'] }, unit_amount_decimal: String(spec.price['unit_amount']) },
    parent: {
      type: 'subscription_item_details',
      invoice_item_details: null,
      subscription_item_details: { proration: spec.proration, subscription: spec.subscription['id'], subscription_item: item.id, invoice_item: null },
    },
    livemode: false,
  };
}

export function promotionCodeObject(fields: Record<string, FormValue>, coupon: string): ProcessorObject {
  const restrictions = fieldsOf(fields['restrictions']);
  return {
    id: newId('promo'),
    object: 'promotion_code',
    active: flag(fields['active']) ?? true,
    code: text(fields['code']) ?? randomBytes(6).toString('hex').toUpperCase(),
    promotion: { type: 'coupon', coupon },
    customer: text(fields['customer']),
    expires_at: integer(fields['expires_at']),
    max_redemptions: integer(fields['max_redemptions']),
    metadata: metadataOf(fields['metadata']),
    restrictions: {
      first_time_transaction: flag(restrictions['first_time_transaction']) ?? false,
      minimum_amount: integer(restrictions['minimum_amount']),
      minimum_amount_currency: text(restrictions['minimum_amount_currency']),
    },
    times_redeemed: 0,
    created: unixNow(),
    livemode: false,
  };
}

/** An invoice made of `lines` (a preview when `status` is draft and `preview` is set): what is due is never below 0, a larger credit goes to the balance. */
export function linesInvoiceObject(subscription: ProcessorObject, lines: ProcessorObject[], options: { preview: boolean; billingReason: string }): ProcessorObject {
  const total = lines.reduce((sum, line) => sum + (line['amount'] as number), 0);
  const due = Math.max(0, total);
  const paid = !options.preview;
  const starts = lines.map((line) => line['period'].start as number);
  const ends = lines.map((line) => line['period'].end as number);
  return {
    id: options.preview ? `upcoming_${newId('in')}` : newId('in'),
    object: 'invoice',
    customer: subscription['customer'],
    currency: subscription['currency'],
    subtotal: total,
    total,
    amount_due: due,
    amount_paid: paid ? due : 0,
    amount_remaining: paid ? 0 : due,
    ending_balance: total < 0 ? total : 0,
    status: paid ? 'paid' : 'draft',
    billing_reason: options.billingReason,
    lines: { object: 'list', data: lines, has_more: false, url: '/v1/invoices/lines' },
    period_start: starts.length ? Math.min(...starts) : unixNow(),
    period_end: ends.length ? Math.max(...ends) : unixNow(),
    next_payment_attempt: null,
    parent: {
      type: 'subscription_details',
      quote_details: null,
      subscription_details: { subscription: subscription['id'], metadata: subscription['metadata'] },
    },
    created: unixNow(),
    livemode: false,
  };
}

export function discountObject(spec: { coupon: ProcessorObject; promotionCode: string | null; customer: string; subscription: string | null; checkoutSession: string | null; start?: number }): ProcessorObject {
  const start = spec.start ?? unixNow();
  const coupon = spec.coupon;
  return {
    id: newId('di'),
    object: 'discount',
    checkout_session: spec.checkoutSession,
    customer: spec.customer,
    end: coupon['duration'] === 'repeating' ? start + (coupon['duration_in_months'] ?? 1) * 30 * SECONDS_PER_DAY : null,
    invoice: null,
    invoice_item: null,
    promotion_code: spec.promotionCode,
    source: { coupon: coupon['id'], type: 'coupon' },
    start,
    subscription: spec.subscription,
    subscription_item: null,
  };
}

/** What `amount` comes to after the coupon, as the processor rounds it (never below zero). */
export function discounted(amount: number, coupon: ProcessorObject | null): number {
  if (!coupon) return amount;
  if (coupon['percent_off'] !== null) return Math.max(0, Math.round(amount * (1 - coupon['percent_off'] / 100)));
  return Math.max(0, amount - (coupon['amount_off'] ?? 0));
}


/** A card on a customer, as `customer.source.expiring` carries it: expiring at the end of this month. */
export function expiringCardObject(customerId: string): ProcessorObject {
  const now = new Date();
  return {
    id: newId('card'),
    object: 'card',
    customer: customerId,
    brand: 'Visa',
    last4: '4242',
    exp_month: now.getUTCMonth() + 1,
    exp_year: now.getUTCFullYear(),
    funding: 'credit',
    metadata: {},
  };
}

/** A payment-mode checkout's payment: its intent, succeeded, and the charge it made. */
export function paymentObjects(spec: { customer: string; amount: number; currency: string; metadata: Record<string, string> }): { paymentIntent: ProcessorObject; charge: ProcessorObject } {
  const created = unixNow();
  const paymentIntentId = newId('pi');
  const charge = {
    id: newId('ch'),
    object: 'charge',
    amount: spec.amount,
    amount_captured: spec.amount,
    amount_refunded: 0,
    currency: spec.currency,
    customer: spec.customer,
    payment_intent: paymentIntentId,
    metadata: spec.metadata,
    paid: true,
    captured: true,
    refunded: false,
    status: 'succeeded',
    created,
    livemode: false,
  };
  const paymentIntent = {
    id: paymentIntentId,
    object: 'payment_intent',
    amount: spec.amount,
    amount_received: spec.amount,
    currency: spec.currency,
    customer: spec.customer,
    metadata: spec.metadata,
    status: 'succeeded',
    latest_charge: charge.id,
    created,
    livemode: false,
  };
  return { paymentIntent, charge };
}

export function refundObject(charge: ProcessorObject, amount: number, reason: string | null, metadata: Record<string, string> = {}): ProcessorObject {
  return {
    id: newId('re'),
    object: 'refund',
    amount,
    charge: charge['id'],
    currency: charge['currency'],
    payment_intent: charge['payment_intent'],
    reason,
    status: 'succeeded',
    metadata,
    created: unixNow(),
  };
}
