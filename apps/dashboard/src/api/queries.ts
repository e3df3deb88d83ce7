import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { AuditLogFilter } from '@gatehouse/contracts';
import { api } from './client';

/**
 * Every query key, from one factory: a resource's root key (`keys.paywalls.all`) covers its list and
 * each item, so invalidating it after a write refreshes all of them.
 */
export const keys = {
  session: ['session'] as const,
  publications: { all: ['publications'] as const, domainProofs: (id: string) => ['publications', id, 'domains'] as const },
  team: { all: ['team'] as const },
  apiKeys: { all: ['api-keys'] as const },
  branding: { all: ['branding'] as const },
  crawlerPolicy: { all: ['crawler-policy'] as const },
  shareSettings: { all: ['share-settings'] as const },
  cancellationReasons: { all: ['cancellation-reasons'] as const },
  winBack: { all: ['win-back'] as const },
  paywalls: { all: ['paywalls'] as const, one: (id: string) => ['paywalls', id] as const },
  segments: { all: ['segments'] as const, one: (id: string) => ['segments', id] as const },
  experiments: { all: ['experiments'] as const, one: (id: string) => ['experiments', id] as const },
  stats: { all: ['stats'] as const },
  products: { all: ['products'] as const, one: (id: string) => ['products', id] as const },
  prices: { all: ['prices'] as const, ofProduct: (productId: string) => ['prices', 'product', productId] as const, one: (id: string) => ['prices', id] as const },
  processor: { all: ['processor'] as const },
  offers: { all: ['offers'] as const },
  gifts: { all: ['gifts'] as const },
  organisations: { all: ['organisations'] as const },
  subscriptionSettings: { all: ['subscription-settings'] as const },
  customers: { all: ['customers'] as const },
  imports: { all: ['imports'] as const, one: (id: string) => ['imports', id] as const },
  subscriptions: { all: ['subscriptions'] as const, ofCustomer: (customerId: string) => ['subscriptions', 'customer', customerId] as const },
  mailbox: { all: ['mailbox'] as const },
  emailTemplates: { all: ['email-templates'] as const },
  webhooks: { all: ['webhooks'] as const },
  auditLog: { all: ['audit-log'] as const },
  invitation: (token: string) => ['invitation', token] as const,
};

type StatsRange = Parameters<typeof api.stats.get>[0];

/** The query of each read the screens make: its key and how to load it. */
export const queries = {
  session: () => queryOptions({ queryKey: keys.session, queryFn: api.session.get, staleTime: 60_000, retry: false }),
  publications: () => queryOptions({ queryKey: keys.publications.all, queryFn: api.publications.list }),
  domainProofs: (publicationId: string) => queryOptions({ queryKey: keys.publications.domainProofs(publicationId), queryFn: () => api.publications.domainProofs(publicationId) }),
  team: () => queryOptions({ queryKey: keys.team.all, queryFn: api.team.get }),
  invitation: (token: string) => queryOptions({ queryKey: keys.invitation(token), queryFn: () => api.team.previewInvitation(token) }),
  apiKeys: () => queryOptions({ queryKey: keys.apiKeys.all, queryFn: api.apiKeys.list }),
  branding: () => queryOptions({ queryKey: keys.branding.all, queryFn: api.branding.get }),
  crawlerPolicy: () => queryOptions({ queryKey: keys.crawlerPolicy.all, queryFn: api.crawlerPolicy.get }),
  shareSettings: () => queryOptions({ queryKey: keys.shareSettings.all, queryFn: api.shareSettings.get }),
  cancellationReasons: () => queryOptions({ queryKey: keys.cancellationReasons.all, queryFn: api.cancellation.reasons }),
  winBack: () => queryOptions({ queryKey: keys.winBack.all, queryFn: api.cancellation.winBack }),
  paywalls: () => queryOptions({ queryKey: [...keys.paywalls.all, 'list'], queryFn: api.paywalls.list }),
  paywall: (id: string) => queryOptions({ queryKey: keys.paywalls.one(id), queryFn: () => api.paywalls.get(id) }),
  segments: () => queryOptions({ queryKey: [...keys.segments.all, 'list'], queryFn: api.segments.list }),
  segment: (id: string) => queryOptions({ queryKey: keys.segments.one(id), queryFn: () => api.segments.get(id) }),
  experiments: () => queryOptions({ queryKey: [...keys.experiments.all, 'list'], queryFn: api.experiments.list }),
  experiment: (id: string) => queryOptions({ queryKey: keys.experiments.one(id), queryFn: () => api.experiments.get(id) }),
  stats: (range: StatsRange) => queryOptions({ queryKey: [...keys.stats.all, range], queryFn: () => api.stats.get(range) }),
  /** An experiment's figures since it started, up to now. */
  experimentResults: (id: string, since: string) =>
    queryOptions({
      queryKey: [...keys.stats.all, 'experiment', id, since],
      queryFn: () => api.stats.get({ from: since, to: new Date(Date.now() + 3_600_000).toISOString(), interval: 'day' }),
    }),
  /** Customers holding a live subscription now (the stats view's figure). */
  subscribers: () =>
    queryOptions({
      queryKey: [...keys.stats.all, 'subscribers now'],
      queryFn: async () =>
        (await api.stats.get({ from: new Date(Date.now() - 86_400_000).toISOString(), to: new Date(Date.now() + 60_000).toISOString(), interval: 'day' })).totals.activeSubscribers,
    }),
  products: () => queryOptions({ queryKey: [...keys.products.all, 'list'], queryFn: api.catalog.products }),
  product: (id: string) => queryOptions({ queryKey: keys.products.one(id), queryFn: () => api.catalog.product(id) }),
  prices: (productId: string) => queryOptions({ queryKey: keys.prices.ofProduct(productId), queryFn: () => api.catalog.prices(productId) }),
  price: (id: string) => queryOptions({ queryKey: keys.prices.one(id), queryFn: () => api.catalog.price(id) }),
  /** Every price of every product, with its product: the grant's list and the subscriptions' labels. */
  allPrices: () =>
    queryOptions({
      queryKey: [...keys.prices.all, 'every product'],
      queryFn: async () => (await Promise.all((await api.catalog.products()).map(async (product) => (await api.catalog.prices(product.id)).map((price) => ({ product, price }))))).flat(),
    }),
  processor: () => queryOptions({ queryKey: keys.processor.all, queryFn: api.processor.get }),
  offers: () => queryOptions({ queryKey: [...keys.offers.all, 'list'], queryFn: api.offers.list }),
  offer: (id: string) => queryOptions({ queryKey: [...keys.offers.all, id], queryFn: () => api.offers.get(id) }),
  gifts: () => queryOptions({ queryKey: [...keys.gifts.all, 'list'], queryFn: api.gifts.list }),
  gift: (id: string) => queryOptions({ queryKey: [...keys.gifts.all, id], queryFn: () => api.gifts.get(id) }),
  organisations: () => queryOptions({ queryKey: [...keys.organisations.all, 'list'], queryFn: api.organisations.list }),
  organisationSeats: (id: string) => queryOptions({ queryKey: [...keys.organisations.all, id, 'seats'], queryFn: () => api.organisations.seats(id) }),
  organisationStats: (id: string, days: number) => queryOptions({ queryKey: [...keys.organisations.all, id, 'stats', days], queryFn: () => api.organisations.stats(id, days) }),
  subscriptionSettings: () => queryOptions({ queryKey: keys.subscriptionSettings.all, queryFn: api.subscriptionSettings.get }),
  imports: () => queryOptions({ queryKey: [...keys.imports.all, 'list'], queryFn: api.imports.list }),
  importJob: (id: string) => queryOptions({ queryKey: keys.imports.one(id), queryFn: () => api.imports.get(id) }),
  customers: (email: string) => queryOptions({ queryKey: [...keys.customers.all, email], queryFn: () => api.customers.find(email) }),
  subscriptions: (customerId: string) => queryOptions({ queryKey: keys.subscriptions.ofCustomer(customerId), queryFn: () => api.subscriptions.ofCustomer(customerId) }),
  subscription: (id: string) => queryOptions({ queryKey: [...keys.subscriptions.all, id], queryFn: () => api.subscriptions.get(id) }),
  purchases: (customerId: string) => queryOptions({ queryKey: [...keys.subscriptions.all, 'purchases', customerId], queryFn: () => api.subscriptions.purchasesOf(customerId) }),
  mailbox: () => queryOptions({ queryKey: [...keys.mailbox.all, 'list'], queryFn: api.email.messages }),
  message: (id: string) => queryOptions({ queryKey: [...keys.mailbox.all, id], queryFn: () => api.email.message(id) }),
  emailTemplates: () => queryOptions({ queryKey: keys.emailTemplates.all, queryFn: api.email.templates }),
  webhooks: () => queryOptions({ queryKey: keys.webhooks.all, queryFn: api.webhooks.list }),
  /** The filtered log, 50 entries a page, the next page asked for by the screen. */
  auditLog: (filter: AuditLogFilter) =>
    infiniteQueryOptions({
      queryKey: [...keys.auditLog.all, filter],
      queryFn: ({ pageParam }) => api.auditLog.page({ ...filter, limit: 50, ...(pageParam ? { cursor: pageParam } : {}) }),
      initialPageParam: null as string | null,
      getNextPageParam: (page) => page.nextCursor,
    }),
};
