import type {
  AccessCheckResult,
  ApiKeyView,
  BrandingChanges,
  BrandingConfiguration,
  CreatedApiKeyPair,
  CreatedInvitation,
  InvitationPreview,
  CrawlerPolicy,
  CreatedWebhook,
  CustomerRecord,
  EmailCopy,
  EmailMessageSummary,
  EmailMessageView,
  EmailTemplateView,
  ExperimentChanges,
  ProductChanges,
  ExperimentDraft,
  ExperimentView,
  DeliveryAttemptView,
  MembershipView,
  OutboundEventName,
  Page,
  PaywallChanges,
  PaywallDraft,
  PaywallView,
  PriceView,
  ProcessorSettingsView,
  ProductView,
  ProblemDetails,
  SegmentDraft,
  SegmentView,
  SessionView,
  StaffRole,
  StaffView,
  Stats,
  SubscriptionView,
  TeamMemberView,
  TeamView,
  WebhookView,
  WebhookWithDeliveries,
} from '@gatehouse/contracts';

/** A failed request: the gateway's RFC 9457 body, or one made up for a network failure. */
export class ApiError extends Error {
  constructor(readonly problem: ProblemDetails) {
    super(problem.detail);
  }

  get code(): string {
    return this.problem.code;
  }

  /** The message for one form field, from the problem's `errors`. */
  fieldError(field: string): string | undefined {
    return this.problem.errors?.find((error) => error.field === field)?.message;
  }
}

let onSessionExpired: () => void = () => undefined;

/** The router's reaction to a session that ended (idle, revoked, signed out elsewhere). */
export function whenSessionExpires(handler: () => void): void {
  onSessionExpired = handler;
}

interface Answer<T> {
  data: T;
  headers: Headers;
}

async function send<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer<T>> {
  let response: Response;
  try {
    response = await fetch(`/api/v1${path}`, {
      method,
      credentials: 'same-origin',
      headers: { Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError({ type: 'about:blank', title: 'Network error', status: 0, detail: 'The server could not be reached. Check your connection and try again.', code: 'service_unavailable' });
  }
  const text = await response.text();
  const parsed: unknown = text ? JSON.parse(text) : undefined;
  if (!response.ok) {
    const problem = parsed as ProblemDetails;
    if (problem?.code === 'session_required') onSessionExpired();
    throw new ApiError(problem);
  }
  return { data: parsed as T, headers: response.headers };
}

const get = async <T>(path: string) => (await send<T>('GET', path)).data;
const post = async <T>(path: string, body?: unknown) => (await send<T>('POST', path, body ?? {})).data;
const patch = async <T>(path: string, body: unknown) => (await send<T>('PATCH', path, body)).data;
const put = async <T>(path: string, body: unknown) => (await send<T>('PUT', path, body)).data;
const remove = async (path: string) => {
  await send<void>('DELETE', path);
};
const id = encodeURIComponent;

/** Every item of a cursor-paginated list (decisions H2), page by page. */
async function all<T>(path: string): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const page: Page<T> = await get<Page<T>>(`${path}${path.includes('?') ? '' : '?'}limit=100${cursor ? `&cursor=${id(cursor)}` : ''}`);
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}

export interface BrandingWithTag {
  configuration: BrandingConfiguration;
  /** For `If-Match`: the save is refused when someone else changed the branding since. */
  etag: string | null;
}

/** The admin routes the dashboard uses, one function each (docs/dashboard.md maps them to screens). */
export const api = {
  session: {
    get: () => get<SessionView>('/admin/session'),
    signIn: (email: string, password: string) => post<{ staff: StaffView; publication: MembershipView }>('/admin/session', { email, password }),
    signOut: () => remove('/admin/session'),
    switchPublication: (publicationId: string) => put<SessionView>('/admin/session/publication', { publicationId }),
  },
  publications: {
    list: async () => (await get<{ items: MembershipView[] }>('/admin/publications')).items,
    create: (body: { name: string; domains: string[] }) => post<MembershipView>('/admin/publications', body),
    update: (publicationId: string, body: { name: string; domains: string[] }) => patch<MembershipView>(`/admin/publications/${id(publicationId)}`, body),
  },
  team: {
    get: () => get<TeamView>('/admin/team'),
    invite: (email: string, role: StaffRole) => post<CreatedInvitation>('/admin/team/invitations', { email, role }),
    revokeInvitation: (invitationId: string) => remove(`/admin/team/invitations/${id(invitationId)}`),
    changeRole: (staffId: string, role: StaffRole) => patch<TeamMemberView>(`/admin/team/members/${id(staffId)}`, { role }),
    removeMember: (staffId: string) => remove(`/admin/team/members/${id(staffId)}`),
    previewInvitation: (token: string) =>
      post<InvitationPreview>('/admin/invitations/preview', { token }),
    acceptInvitation: (body: { token: string; name?: string; password?: string }) =>
      post<{ staff: StaffView; publication: MembershipView }>('/admin/invitations/accept', body),
  },
  apiKeys: {
    list: () => get<ApiKeyView[]>('/admin/api-keys'),
    createPair: (name: string) => post<CreatedApiKeyPair>('/admin/api-keys', { name }),
    revokePair: (name: string) => remove(`/admin/api-keys/pairs/${id(name)}`),
    revokeKey: (keyId: string) => remove(`/admin/api-keys/${id(keyId)}`),
  },
  branding: {
    get: async (): Promise<BrandingWithTag> => {
      const { data, headers } = await send<BrandingConfiguration>('GET', '/branding/admin');
      return { configuration: data, etag: headers.get('ETag') };
    },
    save: async (changes: BrandingChanges, etag: string | null): Promise<BrandingWithTag> => {
      const { data, headers } = await send<BrandingConfiguration>('PUT', '/branding/admin', changes, etag ? { 'If-Match': etag } : {});
      return { configuration: data, etag: headers.get('ETag') };
    },
  },
  paywalls: {
    list: () => all<PaywallView>('/admin/paywalls'),
    get: (paywallId: string) => get<PaywallView>(`/admin/paywalls/${id(paywallId)}`),
    create: (body: PaywallDraft) => post<PaywallView>('/admin/paywalls', body),
    update: (paywallId: string, body: PaywallChanges) => patch<PaywallView>(`/admin/paywalls/${id(paywallId)}`, body),
    remove: (paywallId: string) => remove(`/admin/paywalls/${id(paywallId)}`),
    /** The decision an anonymous visitor would get; counted in no stats. */
    tryUrl: (url: string, attributes: Record<string, string>) =>
      get<AccessCheckResult>(`/admin/access/try?${new URLSearchParams({ url, ...Object.fromEntries(Object.entries(attributes).filter(([, v]) => v !== '')) })}`),
  },
  crawlerPolicy: {
    get: () => get<CrawlerPolicy>('/admin/crawler-policy'),
    save: (changes: Pick<CrawlerPolicy, 'searchEngines' | 'aiCrawlers'>) => put<CrawlerPolicy>('/admin/crawler-policy', changes),
  },
  experiments: {
    list: () => all<ExperimentView>('/admin/experiments'),
    get: (experimentId: string) => get<ExperimentView>(`/admin/experiments/${id(experimentId)}`),
    /** Name always; variants only while a draft. */
    update: (experimentId: string, body: ExperimentChanges) => patch<ExperimentView>(`/admin/experiments/${id(experimentId)}`, body),
    create: (body: ExperimentDraft) => post<ExperimentView>('/admin/experiments', body),
    start: (experimentId: string) => post<ExperimentView>(`/admin/experiments/${id(experimentId)}/start`),
    stop: (experimentId: string) => post<ExperimentView>(`/admin/experiments/${id(experimentId)}/stop`),
    remove: (experimentId: string) => remove(`/admin/experiments/${id(experimentId)}`),
  },
  stats: {
    get: (range: { from: string; to: string; interval: 'day' | 'hour' }) => get<Stats>(`/admin/stats?${new URLSearchParams(range)}`),
  },
  customers: {
    find: async (email: string) => (await get<Page<CustomerRecord>>(`/customers?${new URLSearchParams(email ? { email, limit: '50' } : { limit: '50' })}`)).items,
    create: (body: { email: string; name: string }) => post<CustomerRecord>('/customers', body),
    update: (customerId: string, body: { email?: string; name?: string }) => patch<CustomerRecord>(`/customers/${id(customerId)}`, body),
    remove: (customerId: string) => remove(`/customers/${id(customerId)}`),
  },
  subscriptions: {
    get: (subscriptionId: string) => get<SubscriptionView>(`/admin/subscriptions/${id(subscriptionId)}`),
    ofCustomer: (customerId: string) => all<SubscriptionView>(`/admin/subscriptions?customerId=${id(customerId)}&`),
    grant: (body: { customerId: string; priceId: string; currentPeriodEnd?: string }) => post<SubscriptionView>('/admin/subscriptions', body),
    cancel: (subscriptionId: string, atPeriodEnd: boolean) => post<SubscriptionView>(`/admin/subscriptions/${id(subscriptionId)}/cancel`, { atPeriodEnd }),
  },
  catalog: {
    products: () => all<ProductView>('/admin/products'),
    createProduct: (body: { name: string; description: string | null; entitlements: string[] }) => post<ProductView>('/admin/products', body),
    product: (productId: string) => get<ProductView>(`/admin/products/${id(productId)}`),
    updateProduct: (productId: string, body: ProductChanges) => patch<ProductView>(`/admin/products/${id(productId)}`, body),
    removeProduct: (productId: string) => remove(`/admin/products/${id(productId)}`),
    price: (priceId: string) => get<PriceView>(`/admin/prices/${id(priceId)}`),
    removePrice: (priceId: string) => remove(`/admin/prices/${id(priceId)}`),
    prices: (productId: string) => all<PriceView>(`/admin/products/${id(productId)}/prices`),
    createPrice: (productId: string, body: { currency: string; unitAmount: number; interval: PriceView['interval']; trialDays: number }) =>
      post<PriceView>(`/admin/products/${id(productId)}/prices`, body),
    setPriceActive: (priceId: string, active: boolean) => patch<PriceView>(`/admin/prices/${id(priceId)}`, { active }),
  },
  processor: {
    get: () => get<ProcessorSettingsView>('/admin/processor'),
    save: (body: { secretKey: string; webhookSecret?: string }) => put<ProcessorSettingsView>('/admin/processor', body),
  },
  segments: {
    list: () => all<SegmentView>('/admin/segments'),
    get: (segmentId: string) => get<SegmentView>(`/admin/segments/${id(segmentId)}`),
    create: (body: SegmentDraft) => post<SegmentView>('/admin/segments', body),
    update: (segmentId: string, body: SegmentDraft) => patch<SegmentView>(`/admin/segments/${id(segmentId)}`, body),
    remove: (segmentId: string) => remove(`/admin/segments/${id(segmentId)}`),
  },
  email: {
    messages: () => get<Page<EmailMessageSummary>>('/admin/mailbox?limit=100'),
    message: (messageId: string) => get<EmailMessageView>(`/admin/mailbox/${id(messageId)}`),
    templates: () => get<EmailTemplateView[]>('/admin/email-templates'),
    saveTemplate: (t: Pick<EmailTemplateView, 'kind' | 'language'>, copy: EmailCopy) => put<EmailTemplateView>(`/admin/email-templates/${id(t.kind)}/${id(t.language)}`, copy),
    resetTemplate: (t: Pick<EmailTemplateView, 'kind' | 'language'>) => remove(`/admin/email-templates/${id(t.kind)}/${id(t.language)}`),
  },
  webhooks: {
    list: async () => (await get<{ webhooks: WebhookWithDeliveries[] }>('/admin/webhooks')).webhooks,
    create: (body: { url: string; events: OutboundEventName[]; description?: string }) => post<CreatedWebhook>('/admin/webhooks', body),
    update: (webhookId: string, body: { url: string; events: OutboundEventName[]; description: string | null }) =>
      patch<WebhookView>(`/admin/webhooks/${id(webhookId)}`, body),
    remove: (webhookId: string) => remove(`/admin/webhooks/${id(webhookId)}`),
    sendTest: (webhookId: string) => post<DeliveryAttemptView>(`/admin/webhooks/${id(webhookId)}/test`),
    redeliver: (webhookId: string, deliveryId: string) => post<DeliveryAttemptView>(`/admin/webhooks/${id(webhookId)}/deliveries/${id(deliveryId)}/redeliver`),
  },
};
