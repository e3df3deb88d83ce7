import type { AccessCheckResult, AuditLogFilter, GatewayApiPaths as Paths, PaywallView, ProblemDetails } from '@gatehouse/contracts';
import createClient from 'openapi-fetch';

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

/**
 * The client generated from the gateway's OpenAPI document (`GatewayApiPaths` in contracts): every
 * path, parameter and body below is checked against it, and each answer is typed by it.
 */
const client = createClient<Paths>({ credentials: 'same-origin', headers: { Accept: 'application/json' } });

const NETWORK_ERROR: ProblemDetails = {
  type: 'about:blank',
  title: 'Network error',
  status: 0,
  detail: 'The server could not be reached. Check your connection and try again.',
  code: 'service_unavailable',
};

/** The answer's body, or its problem details thrown as an ApiError (a `session_required` one also ends the session here). */
async function answer<T>(request: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<{ data: T; headers: Headers }> {
  let result: Awaited<typeof request>;
  try {
    result = await request;
  } catch {
    throw new ApiError(NETWORK_ERROR);
  }
  if (!result.response.ok) {
    const problem = (result.error as ProblemDetails | undefined) ?? { ...NETWORK_ERROR, status: result.response.status, detail: result.response.statusText };
    if (problem.code === 'session_required') onSessionExpired();
    throw new ApiError(problem);
  }
  return { data: result.data as T, headers: result.response.headers };
}

const data = async <T>(request: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> => (await answer(request)).data;
const done = async (request: Promise<{ error?: unknown; response: Response }>): Promise<void> => {
  await answer(request);
};

type Operation<P extends keyof Paths, M extends 'get' | 'post' | 'put' | 'patch'> = NonNullable<Paths[P][M]>;
/** The JSON body an operation takes, as the document describes it. */
export type BodyOf<P extends keyof Paths, M extends 'post' | 'put' | 'patch'> =
  Operation<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
/** The JSON body of an operation's success, as the document describes it. */
export type AnswerOf<P extends keyof Paths, M extends 'get' | 'post' | 'put' | 'patch'> =
  Operation<P, M> extends { responses: infer R } ? { [S in keyof R]: S extends 200 | 201 ? (R[S] extends { content: { 'application/json': infer B } } ? B : never) : never }[keyof R] : never;

type PagedPath = { [P in keyof Paths]: AnswerOf<P, 'get'> extends { items: unknown[]; nextCursor: string | null } ? P : never }[keyof Paths];
type ItemOf<P extends PagedPath> = AnswerOf<P, 'get'> extends { items: Array<infer I> } ? I : never;

/** Every item of a cursor-paginated list (decisions H2), page by page. */
async function all<P extends PagedPath>(path: P, query: Record<string, string> = {}, pathParams: Record<string, string> = {}): Promise<Array<ItemOf<P>>> {
  const items: Array<ItemOf<P>> = [];
  let cursor: string | null = null;
  do {
    const init = { params: { path: pathParams, query: { ...query, limit: 100, ...(cursor ? { cursor } : {}) } } };
    // One loop for every paged path: `PagedPath` and `ItemOf` keep the types, which the union of paths would lose here.
    const page = (await data((client.GET as (path: string, init: object) => Promise<{ data?: unknown; error?: unknown; response: Response }>)(path, init))) as {
      items: Array<ItemOf<P>>;
      nextCursor: string | null;
    };
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}

const byId = (id: string) => ({ params: { path: { id } } });

/** The export (GET, same origin, the session cookie): a link downloads it as it streams. */
export const EXPORT_URL = '/api/v1/admin/exports/customers';

export type BrandingConfiguration = AnswerOf<'/api/v1/branding/admin', 'get'>;
type AuditLogQuery = NonNullable<Operation<'/api/v1/admin/audit-log', 'get'>['parameters']['query']>;

export interface BrandingWithTag {
  configuration: BrandingConfiguration;
  /** For `If-Match`: the save is refused when someone else changed the branding since. */
  etag: string | null;
}

/** The admin routes the dashboard uses, one function each (docs/dashboard.md maps them to screens). */
export const api = {
  session: {
    get: () => data(client.GET('/api/v1/admin/session')),
    signIn: (body: BodyOf<'/api/v1/admin/session', 'post'>) => data(client.POST('/api/v1/admin/session', { body })),
    signOut: () => done(client.DELETE('/api/v1/admin/session')),
    switchPublication: (publicationId: string) => data(client.PUT('/api/v1/admin/session/publication', { body: { publicationId } })),
  },
  publications: {
    list: async () => (await data(client.GET('/api/v1/admin/publications'))).items,
    create: (body: BodyOf<'/api/v1/admin/publications', 'post'>) => data(client.POST('/api/v1/admin/publications', { body })),
    update: (id: string, body: BodyOf<'/api/v1/admin/publications/{id}', 'patch'>) => data(client.PATCH('/api/v1/admin/publications/{id}', { ...byId(id), body })),
    domainProofs: async (id: string) => (await data(client.GET('/api/v1/admin/publications/{id}/domains', byId(id)))).items,
    verifyDomain: (id: string, domain: string) => data(client.POST('/api/v1/admin/publications/{id}/domains/verify', { ...byId(id), body: { domain } })),
  },
  team: {
    get: () => data(client.GET('/api/v1/admin/team')),
    invite: (body: BodyOf<'/api/v1/admin/team/invitations', 'post'>) => data(client.POST('/api/v1/admin/team/invitations', { body })),
    revokeInvitation: (id: string) => done(client.DELETE('/api/v1/admin/team/invitations/{id}', byId(id))),
    changeRole: (staffId: string, body: BodyOf<'/api/v1/admin/team/members/{staffId}', 'patch'>) =>
      data(client.PATCH('/api/v1/admin/team/members/{staffId}', { params: { path: { staffId } }, body })),
    removeMember: (staffId: string) => done(client.DELETE('/api/v1/admin/team/members/{staffId}', { params: { path: { staffId } } })),
    previewInvitation: (token: string) => data(client.POST('/api/v1/admin/invitations/preview', { body: { token } })),
    acceptInvitation: (body: BodyOf<'/api/v1/admin/invitations/accept', 'post'>) => data(client.POST('/api/v1/admin/invitations/accept', { body })),
  },
  apiKeys: {
    list: () => data(client.GET('/api/v1/admin/api-keys')),
    createPair: (name: string) => data(client.POST('/api/v1/admin/api-keys', { body: { name } })),
    revokePair: (name: string) => done(client.DELETE('/api/v1/admin/api-keys/pairs/{name}', { params: { path: { name } } })),
    revokeKey: (id: string) => done(client.DELETE('/api/v1/admin/api-keys/{id}', byId(id))),
  },
  branding: {
    get: async (): Promise<BrandingWithTag> => {
      const { data: configuration, headers } = await answer(client.GET('/api/v1/branding/admin'));
      return { configuration, etag: headers.get('ETag') };
    },
    save: async (body: BodyOf<'/api/v1/branding/admin', 'put'>, etag: string | null): Promise<BrandingWithTag> => {
      const { data: configuration, headers } = await answer(client.PUT('/api/v1/branding/admin', { body, ...(etag ? { headers: { 'If-Match': etag } } : {}) }));
      return { configuration, etag: headers.get('ETag') };
    },
  },
  // The OpenAPI document cannot say that a paywall's `config` follows its `type`; the contract's union does.
  paywalls: {
    list: () => all('/api/v1/admin/paywalls') as Promise<PaywallView[]>,
    get: (id: string) => data(client.GET('/api/v1/admin/paywalls/{id}', byId(id))) as Promise<PaywallView>,
    create: (body: BodyOf<'/api/v1/admin/paywalls', 'post'>) => data(client.POST('/api/v1/admin/paywalls', { body })),
    update: (id: string, body: BodyOf<'/api/v1/admin/paywalls/{id}', 'patch'>) => data(client.PATCH('/api/v1/admin/paywalls/{id}', { ...byId(id), body })),
    remove: (id: string) => done(client.DELETE('/api/v1/admin/paywalls/{id}', byId(id))),
    /** The decision an anonymous visitor would get; counted in no stats. */
    tryUrl: (query: NonNullable<Operation<'/api/v1/admin/access/try', 'get'>['parameters']['query']>) =>
      data(client.GET('/api/v1/admin/access/try', { params: { query } })) as Promise<AccessCheckResult>,
  },
  cancellation: {
    reasons: () => data(client.GET('/api/v1/admin/cancellation-reasons')),
    saveReasons: (body: BodyOf<'/api/v1/admin/cancellation-reasons', 'put'>) => data(client.PUT('/api/v1/admin/cancellation-reasons', { body })),
    winBack: () => data(client.GET('/api/v1/admin/win-back')),
    saveWinBack: (body: BodyOf<'/api/v1/admin/win-back', 'put'>) => data(client.PUT('/api/v1/admin/win-back', { body })),
  },
  shareSettings: {
    get: () => data(client.GET('/api/v1/admin/share-settings')),
    save: (body: BodyOf<'/api/v1/admin/share-settings', 'put'>) => data(client.PUT('/api/v1/admin/share-settings', { body })),
  },
  crawlerPolicy: {
    get: () => data(client.GET('/api/v1/admin/crawler-policy')),
    save: (body: BodyOf<'/api/v1/admin/crawler-policy', 'put'>) => data(client.PUT('/api/v1/admin/crawler-policy', { body })),
  },
  experiments: {
    list: () => all('/api/v1/admin/experiments'),
    get: (id: string) => data(client.GET('/api/v1/admin/experiments/{id}', byId(id))),
    /** Name always; variants only while a draft. */
    update: (id: string, body: BodyOf<'/api/v1/admin/experiments/{id}', 'patch'>) => data(client.PATCH('/api/v1/admin/experiments/{id}', { ...byId(id), body })),
    create: (body: BodyOf<'/api/v1/admin/experiments', 'post'>) => data(client.POST('/api/v1/admin/experiments', { body })),
    start: (id: string) => data(client.POST('/api/v1/admin/experiments/{id}/start', byId(id))),
    stop: (id: string) => data(client.POST('/api/v1/admin/experiments/{id}/stop', byId(id))),
    remove: (id: string) => done(client.DELETE('/api/v1/admin/experiments/{id}', byId(id))),
  },
  stats: {
    get: (query: Operation<'/api/v1/admin/stats', 'get'>['parameters']['query']) => data(client.GET('/api/v1/admin/stats', { params: { query } })),
  },
  auditLog: {
    page: (query: AuditLogQuery) => data(client.GET('/api/v1/admin/audit-log', { params: { query } })),
    /** The export with the same filters, for a plain link: the browser downloads it with the session cookie. */
    exportHref: (filter: AuditLogFilter) => `/api/v1/admin/audit-log/export?${new URLSearchParams(Object.entries(filter).filter((entry): entry is [string, string] => Boolean(entry[1])))}`,
  },
  imports: {
    list: async () => (await data(client.GET('/api/v1/admin/imports', { params: { query: { limit: 20 } } }))).items,
    get: (id: string) => data(client.GET('/api/v1/admin/imports/{id}', byId(id))),
    /** Sends the file as it is (CSV, or JSON Lines by its extension); its dry run starts at once. */
    upload: async (file: File, notifyReaders: boolean) =>
      data(
        client.POST('/api/v1/admin/imports', {
          params: { query: { notifyReaders: notifyReaders ? 'true' : 'false' } },
          body: await file.text(),
          bodySerializer: (body: string) => body,
          headers: { 'Content-Type': /\.(jsonl|ndjson)$/i.test(file.name) ? 'application/x-ndjson' : 'text/csv' },
        }),
      ),
    run: (id: string) => data(client.POST('/api/v1/admin/imports/{id}/run', byId(id))),
  },
  customers: {
    find: async (email: string) => (await data(client.GET('/api/v1/customers', { params: { query: { limit: 50, ...(email ? { email } : {}) } } }))).items,
    create: (body: BodyOf<'/api/v1/customers', 'post'>) => data(client.POST('/api/v1/customers', { body })),
    update: (id: string, body: BodyOf<'/api/v1/customers/{id}', 'patch'>) => data(client.PATCH('/api/v1/customers/{id}', { ...byId(id), body })),
    /** Everything held about the customer, as one JSON document (docs/customers.md). */
    exportData: (id: string) => data(client.GET('/api/v1/customers/{id}/export', byId(id))),
    /** Erases the customer in every service (docs/customers.md). */
    remove: (id: string) => done(client.DELETE('/api/v1/customers/{id}', byId(id))),
  },
  subscriptions: {
    get: (id: string) => data(client.GET('/api/v1/admin/subscriptions/{id}', byId(id))),
    ofCustomer: (customerId: string) => all('/api/v1/admin/subscriptions', { customerId }),
    grant: (body: BodyOf<'/api/v1/admin/subscriptions', 'post'>) => data(client.POST('/api/v1/admin/subscriptions', { body })),
    cancel: (id: string, atPeriodEnd: boolean) => data(client.POST('/api/v1/admin/subscriptions/{id}/cancel', { ...byId(id), body: { atPeriodEnd } })),
    /** The customer's passes and single articles, newest first, ended passes included. */
    purchasesOf: async (customerId: string) => (await data(client.GET('/api/v1/admin/customers/{id}/purchases', byId(customerId)))).purchases,
  },
  catalog: {
    products: () => all('/api/v1/admin/products'),
    createProduct: (body: BodyOf<'/api/v1/admin/products', 'post'>) => data(client.POST('/api/v1/admin/products', { body })),
    product: (id: string) => data(client.GET('/api/v1/admin/products/{id}', byId(id))),
    updateProduct: (id: string, body: BodyOf<'/api/v1/admin/products/{id}', 'patch'>) => data(client.PATCH('/api/v1/admin/products/{id}', { ...byId(id), body })),
    removeProduct: (id: string) => done(client.DELETE('/api/v1/admin/products/{id}', byId(id))),
    price: (id: string) => data(client.GET('/api/v1/admin/prices/{id}', byId(id))),
    removePrice: (id: string) => done(client.DELETE('/api/v1/admin/prices/{id}', byId(id))),
    prices: (productId: string) => all('/api/v1/admin/products/{id}/prices', {}, { id: productId }),
    createPrice: (productId: string, body: BodyOf<'/api/v1/admin/products/{id}/prices', 'post'>) =>
      data(client.POST('/api/v1/admin/products/{id}/prices', { ...byId(productId), body })),
    setPriceActive: (id: string, active: boolean) => data(client.PATCH('/api/v1/admin/prices/{id}', { ...byId(id), body: { active } })),
  },
  offers: {
    list: () => all('/api/v1/admin/offers'),
    get: (id: string) => data(client.GET('/api/v1/admin/offers/{id}', byId(id))),
    create: (body: BodyOf<'/api/v1/admin/offers', 'post'>) => data(client.POST('/api/v1/admin/offers', { body })),
    update: (id: string, body: BodyOf<'/api/v1/admin/offers/{id}', 'patch'>) => data(client.PATCH('/api/v1/admin/offers/{id}', { ...byId(id), body })),
  },
  gifts: {
    list: () => all('/api/v1/admin/gifts'),
    get: (id: string) => data(client.GET('/api/v1/admin/gifts/{id}', byId(id))),
    void: (id: string) => data(client.POST('/api/v1/admin/gifts/{id}/void', byId(id))),
  },
  organisations: {
    list: () => all('/api/v1/admin/organisations'),
    create: (body: BodyOf<'/api/v1/admin/organisations', 'post'>) => data(client.POST('/api/v1/admin/organisations', { body })),
    update: (id: string, body: BodyOf<'/api/v1/admin/organisations/{id}', 'patch'>) => data(client.PATCH('/api/v1/admin/organisations/{id}', { ...byId(id), body })),
    remove: (id: string) => done(client.DELETE('/api/v1/admin/organisations/{id}', byId(id))),
    seats: (id: string) => data(client.GET('/api/v1/admin/organisations/{id}/seats', byId(id))),
    /** The `days` days up to now (the route starts the range with its first whole day). */
    stats: (id: string, days: number) =>
      data(client.GET('/api/v1/admin/organisations/{id}/stats', { params: { path: { id }, query: { from: new Date(Date.now() - days * 86_400_000).toISOString() } } })),
    invite: (id: string, email: string) => data(client.POST('/api/v1/admin/organisations/{id}/invitations', { ...byId(id), body: { email } })),
    cancelInvitation: (id: string, invitationId: string) =>
      done(client.DELETE('/api/v1/admin/organisations/{id}/invitations/{invitationId}', { params: { path: { id, invitationId } } })),
    removeMember: (id: string, customerId: string) => done(client.DELETE('/api/v1/admin/organisations/{id}/members/{customerId}', { params: { path: { id, customerId } } })),
  },
  processor: {
    get: () => data(client.GET('/api/v1/admin/processor')),
    save: (body: BodyOf<'/api/v1/admin/processor', 'put'>) => data(client.PUT('/api/v1/admin/processor', { body })),
  },
  subscriptionSettings: {
    get: () => data(client.GET('/api/v1/admin/subscription-settings')),
    save: (body: BodyOf<'/api/v1/admin/subscription-settings', 'put'>) => data(client.PUT('/api/v1/admin/subscription-settings', { body })),
  },
  segments: {
    list: () => all('/api/v1/admin/segments'),
    get: (id: string) => data(client.GET('/api/v1/admin/segments/{id}', byId(id))),
    create: (body: BodyOf<'/api/v1/admin/segments', 'post'>) => data(client.POST('/api/v1/admin/segments', { body })),
    update: (id: string, body: BodyOf<'/api/v1/admin/segments/{id}', 'patch'>) => data(client.PATCH('/api/v1/admin/segments/{id}', { ...byId(id), body })),
    remove: (id: string) => done(client.DELETE('/api/v1/admin/segments/{id}', byId(id))),
  },
  email: {
    messages: () => data(client.GET('/api/v1/admin/mailbox', { params: { query: { limit: 100 } } })),
    message: (id: string) => data(client.GET('/api/v1/admin/mailbox/{id}', byId(id))),
    templates: () => data(client.GET('/api/v1/admin/email-templates')),
    saveTemplate: (path: { kind: EmailKindParam; language: EmailLanguageParam }, body: BodyOf<'/api/v1/admin/email-templates/{kind}/{language}', 'put'>) =>
      data(client.PUT('/api/v1/admin/email-templates/{kind}/{language}', { params: { path }, body })),
    resetTemplate: (path: { kind: EmailKindParam; language: EmailLanguageParam }) =>
      done(client.DELETE('/api/v1/admin/email-templates/{kind}/{language}', { params: { path } })),
  },
  webhooks: {
    list: async () => (await data(client.GET('/api/v1/admin/webhooks'))).webhooks,
    create: (body: BodyOf<'/api/v1/admin/webhooks', 'post'>) => data(client.POST('/api/v1/admin/webhooks', { body })),
    update: (id: string, body: BodyOf<'/api/v1/admin/webhooks/{id}', 'patch'>) => data(client.PATCH('/api/v1/admin/webhooks/{id}', { ...byId(id), body })),
    remove: (id: string) => done(client.DELETE('/api/v1/admin/webhooks/{id}', byId(id))),
    sendTest: (id: string) => data(client.POST('/api/v1/admin/webhooks/{id}/test', byId(id))),
    redeliver: (id: string, deliveryId: string) =>
      data(client.POST('/api/v1/admin/webhooks/{id}/deliveries/{deliveryId}/redeliver', { params: { path: { id, deliveryId } } })),
  },
};

type EmailTemplatePath = NonNullable<Paths['/api/v1/admin/email-templates/{kind}/{language}']['put']>['parameters']['path'];
type EmailKindParam = EmailTemplatePath['kind'];
type EmailLanguageParam = EmailTemplatePath['language'];
