import type {
  AccessCheckResult,
  AuditEntryView,
  AuditLogFilter,
  CancellationOptions,
  CancellationReason,
  CheckoutConfirmation,
  CheckoutRequest,
  CheckoutSessionView,
  CustomerAuthResult,
  CustomerProfile,
  CustomerRecord,
  GiftRedemption,
  GiftView,
  ImportJobSummary,
  ImportJobView,
  Jwks,
  NewOffer,
  OfferView,
  NewOrganisation,
  OrganisationChanges,
  OrganisationInvitationView,
  OrganisationSeatsView,
  OrganisationStats,
  OrganisationView,
  Page,
  PlanChangePreview,
  PlanChangeResult,
  PlanChangeTiming,
  SaveAcceptance,
  CustomerPurchaseView,
  ReaderFacts,
  ShareSettings,
  ShareSettingsChanges,
  SubscriptionView,
  VisitorAttributes,
} from '@gatehouse/contracts';
import { CustomerTokenVerifier, type VerifiedCustomer } from './customer-tokens';
import { Transport, type TransportOptions } from './http';
import { customerTokenOf, type RequestHeaders } from './request-headers';

export interface PlanChangeParams {
  subscriptionId: string;
  priceId: string;
  /** Default: `now` for an upgrade, `period_end` for a downgrade. */
  when?: PlanChangeTiming;
}

export interface GatehouseOptions extends TransportOptions {
  /** `sk_…`: everything a publisher's server does. */
  secretKey?: string;
  /** `pk_…`: access checks (secret keys are refused there), e.g. for server-side enforcement. */
  publishableKey?: string;
}

/** Decisions F6: the customer, the price, where the processor sends them back, and the experiment that led there. */
/** `reader`: the reader an offer limited to a segment is decided for, as the server knows them (it speaks for them: what it states counts). */
export type CheckoutParams = Omit<CheckoutRequest, 'publicationId' | 'reader'> & { reader?: ReaderFacts };

/** The page, the visitor, and what segment conditions may look at (decisions E1, E2). */
export interface AccessCheckParams extends VisitorAttributes {
  /** The page's absolute URL, on a domain of the publication. */
  url: string;
  /** The site's own visitor id (the SDK's first-party id). */
  userId?: string;
  /** A reader's customer access token; it takes the place of `userId`. */
  accessToken?: string;
  /** The reader's User-Agent: the device is derived from it, and crawlers are known by it. */
  userAgent?: string;
  /** The reader's address, sent as `X-Forwarded-For`: the gateway uses it (with TRUST_PROXY) to verify search-engine crawlers. */
  clientIp?: string;
}

/**
 * The Gatehouse API for a publisher's server (spec 4.1, 4.3, 4.7, 5.1): customer auth, customer
 * records, subscriptions, checkout, portal, cancel, offers, gifts and organisations, and the audit log with the secret key;
 * access checks with the publishable key.
 */
export class Gatehouse {
  private readonly http: Transport;
  private readonly tokens: CustomerTokenVerifier;

  constructor(private readonly options: GatehouseOptions) {
    this.http = new Transport(options);
    this.tokens = new CustomerTokenVerifier(() => this.http.request<Jwks>({ method: 'GET', path: '/auth/.well-known/jwks.json' }));
  }

  /** Customer auth (spec 4.1): register, log in, refresh, log out, and who a token belongs to. */
  readonly auth = {
    register: (body: { email: string; password: string; name: string }) =>
      this.http.request<CustomerAuthResult>({ method: 'POST', path: '/auth/customers/register', body, apiKey: this.secret() }),
    login: (body: { email: string; password: string }) =>
      this.http.request<CustomerAuthResult>({ method: 'POST', path: '/auth/customers/login', body, apiKey: this.secret() }),
    /** Rotates: the refresh token given is used up. */
    refresh: (refreshToken: string) =>
      this.http.request<CustomerAuthResult>({ method: 'POST', path: '/auth/customers/refresh', body: { refreshToken }, apiKey: this.secret() }),
    logout: (refreshToken: string) =>
      this.http.request<void>({ method: 'POST', path: '/auth/customers/logout', body: { refreshToken }, apiKey: this.secret(), idempotent: true }),
    me: (accessToken: string) => this.http.request<CustomerProfile>({ method: 'GET', path: '/auth/customers/me', apiKey: this.secret(), accessToken }),
    /**
     * The customer of a current access token, verified here against the JWKS (fetched once and
     * kept; no request per call), or null for a malformed, forged or expired one. No key needed.
     */
    verifyToken: (accessToken: string): Promise<VerifiedCustomer | null> => this.tokens.verify(accessToken),
    /**
     * The signed-in reader of a request to the publisher's server: the bearer token, else the
     * `gatehouse_token` cookie the browser SDK keeps (or `tokenCookie`), verified as `verifyToken`
     * does. Null for a visitor. Use it, never a query parameter, to know whose checkout to start.
     */
    customerOf: async (headers: RequestHeaders, options: { tokenCookie?: string } = {}): Promise<VerifiedCustomer | null> => {
      const token = customerTokenOf(headers, options.tokenCookie);
      return token ? this.tokens.verify(token) : null;
    },
  };

  /** Customer records (decisions H3). */
  readonly customers = {
    list: (params: { email?: string; limit?: number; cursor?: string } = {}) =>
      this.http.request<Page<CustomerRecord>>({ method: 'GET', path: '/customers', query: params, apiKey: this.secret() }),
    /** Without a password the customer can be granted access but cannot log in. */
    create: (body: { email: string; name: string; password?: string }) =>
      this.http.request<CustomerRecord>({ method: 'POST', path: '/customers', body, apiKey: this.secret(), idempotent: true }),
    update: (customerId: string, changes: { email?: string; name?: string; password?: string }) =>
      this.http.request<CustomerRecord>({ method: 'PATCH', path: `/customers/${encodeURIComponent(customerId)}`, body: changes, apiKey: this.secret(), idempotent: true }),
    delete: (customerId: string) => this.http.request<void>({ method: 'DELETE', path: `/customers/${encodeURIComponent(customerId)}`, apiKey: this.secret() }),
  };

  /**
   * Moving a subscriber base in and out (docs/imports.md): upload a file, read its dry run's
   * report, run it, watch it; and the export, in the same columns.
   */
  readonly imports = {
    /** CSV (or JSON Lines with `format: 'jsonl'`): its dry run starts at once; `get` it until `checked`, then `run` it. Readers get no email unless `notifyReaders`. */
    upload: (file: string, options: { format?: 'csv' | 'jsonl'; notifyReaders?: boolean } = {}) =>
      this.http.request<ImportJobView>({
        method: 'POST',
        path: '/admin/imports',
        query: { notifyReaders: options.notifyReaders },
        file: { contentType: options.format === 'jsonl' ? 'application/x-ndjson' : 'text/csv', content: file },
        apiKey: this.secret(),
      }),
    /** Where it stands: counts, and the bad rows with their lines and reasons. */
    get: (importId: string) => this.http.request<ImportJobView>({ method: 'GET', path: `/admin/imports/${encodeURIComponent(importId)}`, apiKey: this.secret() }),
    list: (params: { limit?: number; cursor?: string } = {}) =>
      this.http.request<Page<ImportJobSummary>>({ method: 'GET', path: '/admin/imports', query: params, apiKey: this.secret() }),
    /** Imports a checked file; the bad rows are skipped. */
    run: (importId: string) =>
      this.http.request<ImportJobView>({ method: 'POST', path: `/admin/imports/${encodeURIComponent(importId)}/run`, apiKey: this.secret(), idempotent: true }),
    /** The customers and their live subscriptions, as CSV in the import's columns. */
    export: () => this.http.request<string>({ method: 'GET', path: '/admin/exports/customers', apiKey: this.secret(), answersText: true, headers: { Accept: 'text/csv' } }),
  };

  /** Subscriptions (spec 4.3; decisions F5-F8). */
  readonly subscriptions = {
    /** The customer's subscriptions, newest first, cancelled ones included. */
    list: async (customerId: string) =>
      (await this.http.request<{ subscriptions: SubscriptionView[] }>({ method: 'GET', path: '/subscriptions/me', query: { customerId }, apiKey: this.secret() })).subscriptions,
    /** The customer's passes and single articles, newest first, ended passes included, each with its product's name. */
    purchases: async (customerId: string): Promise<CustomerPurchaseView[]> =>
      (await this.http.request<{ purchases: CustomerPurchaseView[] }>({ method: 'GET', path: '/subscriptions/purchases', query: { customerId }, apiKey: this.secret() })).purchases,
    /** A checkout at the payment processor: redirect the customer to `url`. */
    checkout: (params: CheckoutParams) =>
      this.http.request<CheckoutSessionView>({ method: 'POST', path: '/subscriptions/checkout', body: params, apiKey: this.secret(), idempotent: true }),
    /**
     * On the page the checkout's success URL leads to: asks the processor whether the session is
     * paid and, if so, records the subscription now (the processor's webhook, however late, then
     * changes nothing). `sessionId` is what the processor puts for `{CHECKOUT_SESSION_ID}` in the URL.
     */
    confirmCheckout: (params: { customerId: string; sessionId: string }) =>
      this.http.request<CheckoutConfirmation>({ method: 'POST', path: '/subscriptions/checkout/confirm', body: params, apiKey: this.secret(), idempotent: true }),
    /** The processor's billing portal: redirect the customer to `url`. */
    portal: (params: { customerId: string; returnUrl: string }) =>
      this.http.request<{ url: string }>({ method: 'POST', path: '/subscriptions/portal', body: params, apiKey: this.secret(), idempotent: true }),
    /** At the period end by default (it stays active until then), or now; `reason` is recorded and sent in `subscription.cancelled`. */
    cancel: (subscriptionId: string, options: { atPeriodEnd?: boolean; reason?: CancellationReason } = {}) =>
      this.http.request<SubscriptionView>({ method: 'POST', path: '/subscriptions/cancel', body: { subscriptionId, ...options }, apiKey: this.secret(), idempotent: true }),
    /** The reasons a reader cancelling picks from, and the save offer each brings as it applies to this subscription. */
    cancellationOptions: (subscriptionId: string) =>
      this.http.request<CancellationOptions>({ method: 'GET', path: '/subscriptions/cancellation-options', query: { subscriptionId }, apiKey: this.secret() }),
    /** Applies the save offer of `reason` (a discount, a pause or a cheaper plan) instead of cancelling; once per subscription. */
    acceptSave: (subscriptionId: string, reason: CancellationReason) =>
      this.http.request<SaveAcceptance>({ method: 'POST', path: '/subscriptions/cancel/save', body: { subscriptionId, reason }, apiKey: this.secret(), idempotent: true }),
    /** What switching to `priceId` would do, in money and dates (the processor's proration for a change now); changes nothing. */
    previewPlanChange: (params: PlanChangeParams) =>
      this.http.request<PlanChangePreview>({ method: 'POST', path: '/subscriptions/plan-change/preview', body: params, apiKey: this.secret() }),
    /** Switches to `priceId`: now and prorated (an upgrade, by default) or at the period end (a downgrade, by default). */
    changePlan: (params: PlanChangeParams) =>
      this.http.request<PlanChangeResult>({ method: 'POST', path: '/subscriptions/plan-change', body: params, apiKey: this.secret(), idempotent: true }),
    /** Pauses collection for 1 to 3 months; access meanwhile follows the publication's `pausedAccess` setting. */
    pause: (subscriptionId: string, months: number) =>
      this.http.request<SubscriptionView>({ method: 'POST', path: '/subscriptions/pause', body: { subscriptionId, months }, apiKey: this.secret(), idempotent: true }),
    /** Resumes a paused subscription now. */
    resume: (subscriptionId: string) =>
      this.http.request<SubscriptionView>({ method: 'POST', path: '/subscriptions/resume', body: { subscriptionId }, apiKey: this.secret(), idempotent: true }),
  };

  /** The publication's audit log of staff writes (read only), e.g. for a security information system. */
  readonly auditLog = {
    /** Newest first; each filter narrows (`actor`, `action`: any part, any case; `resource`: an id; `from`, `to`: ISO times). */
    list: (params: AuditLogFilter & { limit?: number; cursor?: string } = {}) =>
      this.http.request<Page<AuditEntryView>>({ method: 'GET', path: '/admin/audit-log', query: { ...params }, apiKey: this.secret() }),
    /** The filtered log as one CSV text, header line first. */
    export: (filter: AuditLogFilter = {}) => this.http.request<string>({ method: 'GET', path: '/admin/audit-log/export', query: { ...filter }, apiKey: this.secret(), answersText: true, headers: { Accept: 'text/csv' } }),
  };

  /** Offers (docs/billing.md#offers-issue-25-item-1): codes and links readers redeem at checkout. */
  readonly offers = {
    /** Newest first, each with how often it was redeemed. */
    list: (params: { limit?: number; cursor?: string } = {}) => this.http.request<Page<OfferView>>({ method: 'GET', path: '/admin/offers', query: params, apiKey: this.secret() }),
    get: (offerId: string) => this.http.request<OfferView>({ method: 'GET', path: `/admin/offers/${encodeURIComponent(offerId)}`, apiKey: this.secret() }),
    /** With processor settings saved, its coupon and promotion code are made at the processor too. */
    create: (offer: NewOffer) => this.http.request<OfferView>({ method: 'POST', path: '/admin/offers', body: offer, apiKey: this.secret(), idempotent: true }),
    /** Renames it, or ends it (`active: false`) and brings it back; its terms never change. */
    update: (offerId: string, changes: { name?: string; active?: boolean }) =>
      this.http.request<OfferView>({ method: 'PATCH', path: `/admin/offers/${encodeURIComponent(offerId)}`, body: changes, apiKey: this.secret(), idempotent: true }),
  };

  /** Shared articles (docs/access.md): whether subscribers may share, each link's opens and lifetime, the monthly allowance. */
  readonly sharing = {
    settings: () => this.http.request<ShareSettings>({ method: 'GET', path: '/admin/share-settings', apiKey: this.secret() }),
    /** Omitted fields stay; links already made keep their opens and end. */
    updateSettings: (changes: ShareSettingsChanges) => this.http.request<ShareSettings>({ method: 'PUT', path: '/admin/share-settings', body: changes, apiKey: this.secret(), idempotent: true }),
  };

  /** Gift subscriptions (docs/billing.md#gift-subscriptions): the publication's gifts, a void before redemption, and a reader's redemption. */
  readonly gifts = {
    /** Newest first, never their codes or messages. */
    list: (params: { limit?: number; cursor?: string } = {}) => this.http.request<Page<GiftView>>({ method: 'GET', path: '/admin/gifts', query: params, apiKey: this.secret() }),
    get: (giftId: string) => this.http.request<GiftView>({ method: 'GET', path: `/admin/gifts/${encodeURIComponent(giftId)}`, apiKey: this.secret() }),
    /** Its code is refused from now on and a paid gift's payment is refunded at the processor; `gift_redeemed` (409) once redeemed, `processor_error` (502) when the processor refuses the refund. */
    void: (giftId: string) => this.http.request<GiftView>({ method: 'POST', path: `/admin/gifts/${encodeURIComponent(giftId)}/void`, apiKey: this.secret(), idempotent: true }),
    /** Redeems a code for the reader of `accessToken`: a subscription with `source: gift` ending after the gift's months. */
    redeem: (accessToken: string, code: string) =>
      this.http.request<GiftRedemption>({ method: 'POST', path: '/gifts/redeem', body: { code }, apiKey: this.secret(), accessToken, idempotent: true }),
  };

  /**
   * Organisations (docs/organisations.md): group access to a product by seats, email domains and
   * IP ranges, kept from the publisher's server as staff keep them in the dashboard.
   */
  readonly organisations = {
    list: (params: { limit?: number; cursor?: string } = {}) =>
      this.http.request<Page<OrganisationView>>({ method: 'GET', path: '/admin/organisations', query: params, apiKey: this.secret() }),
    get: (organisationId: string) => this.http.request<OrganisationView>({ method: 'GET', path: `/admin/organisations/${encodeURIComponent(organisationId)}`, apiKey: this.secret() }),
    create: (body: NewOrganisation) => this.http.request<OrganisationView>({ method: 'POST', path: '/admin/organisations', body, apiKey: this.secret(), idempotent: true }),
    update: (organisationId: string, changes: OrganisationChanges) =>
      this.http.request<OrganisationView>({ method: 'PATCH', path: `/admin/organisations/${encodeURIComponent(organisationId)}`, body: changes, apiKey: this.secret(), idempotent: true }),
    /** Its members and networks lose access at their next check. */
    delete: (organisationId: string) => this.http.request<void>({ method: 'DELETE', path: `/admin/organisations/${encodeURIComponent(organisationId)}`, apiKey: this.secret() }),
    /** Who holds a seat, and the open invitations. */
    seats: (organisationId: string) =>
      this.http.request<OrganisationSeatsView>({ method: 'GET', path: `/admin/organisations/${encodeURIComponent(organisationId)}/seats`, apiKey: this.secret() }),
    /** Its readers, reads (by seat, by network) and seats over a range: `from` (rounded down to its day, UTC) to `to`; the last 30 days by default. */
    stats: (organisationId: string, range: { from?: string; to?: string } = {}) =>
      this.http.request<OrganisationStats>({ method: 'GET', path: `/admin/organisations/${encodeURIComponent(organisationId)}/stats`, query: range, apiKey: this.secret() }),
    /** Emails an invitation to a seat; refused with `organisation_full` when every seat is taken. */
    invite: (organisationId: string, email: string) =>
      this.http.request<OrganisationInvitationView>({
        method: 'POST',
        path: `/admin/organisations/${encodeURIComponent(organisationId)}/invitations`,
        body: { email },
        apiKey: this.secret(),
        idempotent: true,
      }),
    cancelInvitation: (organisationId: string, invitationId: string) =>
      this.http.request<void>({
        method: 'DELETE',
        path: `/admin/organisations/${encodeURIComponent(organisationId)}/invitations/${encodeURIComponent(invitationId)}`,
        apiKey: this.secret(),
      }),
    /** Frees the member's seat: their access ends at their next check. */
    removeMember: (organisationId: string, customerId: string) =>
      this.http.request<void>({
        method: 'DELETE',
        path: `/admin/organisations/${encodeURIComponent(organisationId)}/members/${encodeURIComponent(customerId)}`,
        apiKey: this.secret(),
      }),
  };

  /** Access decisions (spec 4.2), with the publishable key. */
  readonly access = {
    check: (params: AccessCheckParams) =>
      this.http.request<AccessCheckResult>({
        method: 'GET',
        path: '/access/check',
        query: {
          url: params.url,
          userId: params.accessToken ? undefined : params.userId,
          referrer: params.referrer,
          device: params.device,
          country: params.country,
          utm_source: params.utmSource,
          utm_medium: params.utmMedium,
          utm_campaign: params.utmCampaign,
        },
        apiKey: this.publishable(),
        accessToken: params.accessToken,
        headers: {
          ...(params.userAgent ? { 'User-Agent': params.userAgent } : {}),
          ...(params.clientIp ? { 'X-Forwarded-For': params.clientIp } : {}),
        },
      }),
  };

  private secret(): string {
    if (!this.options.secretKey) throw new Error('Gatehouse: this call needs `secretKey` (sk_…).');
    return this.options.secretKey;
  }

  private publishable(): string {
    if (!this.options.publishableKey) throw new Error('Gatehouse: access checks need `publishableKey` (pk_…); secret keys are refused there.');
    return this.options.publishableKey;
  }
}
