import { EMAIL_LINK_PARAMETERS, type EmailKind } from '@gatehouse/contracts';
import { eventually } from '@gatehouse/testing';
import { createHmac, randomUUID } from 'node:crypto';
import { ApiConformance, typeCheckGeneratedClient } from './support/api-conformance';
import { SECRET_KEY, WEBHOOK_SECRET } from './support/billing';
import { codeIn, linkIn, SmtpSink } from './support/mail';
import { call, observeAnswers, sessionFrom, type Answer } from './support/http';
import { SITE, WholeSystem } from './support/system-all';
import { WebhookReceiver } from './support/webhooks';

/**
 * Every route of /docs/json, called for real: each answer (successes and errors) must match the
 * documented status, media type and schema, and every operation's success must have been seen.
 */
describe('the OpenAPI document against real answers', () => {
  let system: WholeSystem;
  let conformance: ApiConformance;
  let receiver: WebhookReceiver;
  let sink: SmtpSink;
  let stop: () => void;

  beforeAll(async () => {
    sink = await SmtpSink.start();
    // Account email links lead only to verified domains: a loopback host needs no proof.
    [system, receiver] = await Promise.all([WholeSystem.start({ everyService: true, identityEnv: { SMTP_URL: sink.url }, domains: ['127.0.0.1'] }), WebhookReceiver.start()]);
    conformance = new ApiConformance((await call(system.url, '/docs/json')).body);
    stop = observeAnswers((request, answer) => conformance.check(request.method, request.path, answer));
  }, 120_000);

  afterAll(async () => {
    stop?.();
    await receiver?.close();
    await system?.close();
    await sink?.close();
  });

  const ok = async (expected: number, answer: Promise<Answer>): Promise<Answer> => {
    const got = await answer;
    if (got.status !== expected) throw new Error(`expected ${expected}, got ${got.status} ${JSON.stringify(got.body)}`);
    return got;
  };

  it('matches on every route, for successes and errors alike', async () => {
    const { api, admin } = { api: system.api.bind(system), admin: system.admin.bind(system) };
    const pk = system.publishableKey;
    const sk = system.secretKey;

    // Health and keys for tokens.
    await api('/health');
    await ok(200, api('/auth/.well-known/jwks.json'));

    // Customer auth.
    const email = `conf-${randomUUID()}@example.com`;
    const registered = await ok(201, api('/auth/customers/register', { key: pk, body: { email, password: 'reader-password', name: 'Conf' } }));
    await ok(409, api('/auth/customers/register', { key: pk, body: { email, password: 'reader-password', name: 'Conf' } }));
    await ok(400, api('/auth/customers/register', { key: pk, body: { email: 'no', password: 'x', name: '' } }));
    const login = await ok(200, api('/auth/customers/login', { key: sk, body: { email, password: 'reader-password' } }));
    await ok(401, api('/auth/customers/login', { key: pk, body: { email, password: 'wrong-password' } }));
    const refreshed = await ok(200, api('/auth/customers/refresh', { key: pk, body: { refreshToken: login.body.refreshToken } }));
    await ok(401, api('/auth/customers/refresh', { key: pk, body: { refreshToken: 'nonsense' } }));
    await ok(200, api('/auth/customers/me', { key: pk, token: refreshed.body.accessToken }));
    await ok(401, api('/auth/customers/me', { key: pk }));
    await ok(200, api('/auth/customers/me', { method: 'PATCH', key: pk, token: refreshed.body.accessToken, body: { name: 'Conf Reader' } }));
    await ok(400, api('/auth/customers/me', { method: 'PATCH', key: pk, token: refreshed.body.accessToken, body: { email: 'no' } }));
    await ok(401, api('/auth/customers/me', { method: 'PATCH', key: pk, body: { name: 'Conf Reader' } }));
    await ok(200, api('/auth/customers/me/export', { key: pk, token: refreshed.body.accessToken }));
    await ok(401, api('/auth/customers/me', { key: pk, token: refreshed.body.accessToken, method: 'DELETE', body: { password: 'wrong-password' } }));
    await ok(400, api('/auth/customers/me', { key: pk, token: refreshed.body.accessToken, method: 'DELETE', body: {} }));
    await ok(204, api('/auth/customers/logout', { key: pk, body: { refreshToken: refreshed.body.refreshToken } }));
    await ok(204, api('/auth/customers/logout', { key: pk, body: { refreshToken: refreshed.body.refreshToken, everywhere: true } }));
    await ok(401, api('/auth/customers/logout', { body: { refreshToken: 'x' } }));
    const leaving = await ok(201, api('/auth/customers/register', { key: pk, body: { email: `leaving-${randomUUID()}@example.com`, password: 'reader-password', name: 'Leaving' } }));
    await ok(204, api('/auth/customers/me', { key: pk, token: leaving.body.accessToken, method: 'DELETE', body: { password: 'reader-password' } }));
    const reader = { id: registered.body.customer.id as string, accessToken: registered.body.accessToken as string };

    // Staff session and publications.
    await ok(401, api('/admin/session', { body: { email: 'nobody@example.com', password: 'wrong-password' } }));
    await ok(200, admin('/admin/session'));
    await ok(401, api('/admin/session'));
    const other = await system.otherPublicationSession();
    await ok(200, admin('/admin/publications'));
    await ok(200, admin(`/admin/publications/${other.publicationId}`, { method: 'PATCH', body: { name: 'Renamed' } }));
    await ok(404, admin(`/admin/publications/${randomUUID()}`, { method: 'PATCH', body: { name: 'Renamed' } }));
    // Domain proof: a loopback host is verified without a lookup.
    const localHost = `conf-${randomUUID().slice(0, 8)}.localhost`;
    const proofs = await ok(200, admin(`/admin/publications/${other.publicationId}/domains`));
    const claimed = proofs.body.items.map((proof: { domain: string }) => proof.domain);
    await ok(200, admin(`/admin/publications/${other.publicationId}`, { method: 'PATCH', body: { domains: [...claimed, localHost] } }));
    await ok(200, admin(`/admin/publications/${other.publicationId}/domains/verify`, { body: { domain: localHost } }));
    await ok(404, admin(`/admin/publications/${other.publicationId}/domains/verify`, { body: { domain: `unclaimed-${randomUUID()}.example` } }));
    await ok(400, admin(`/admin/publications/${other.publicationId}/domains/verify`, { body: { domain: 'not a host' } }));
    await ok(204, api('/admin/session', { method: 'DELETE', session: other.session }));
    await ok(403, api('/admin/paywalls', { session: system.session, origin: 'https://evil.example', body: { name: 'x' } }));

    // The team: an invitation's round trip, role changes and removal, and the owner rules.
    const { staff: owner } = (await admin('/admin/session')).body as { staff: { id: string; email: string } };
    const colleague = `team-${randomUUID()}@example.com`;
    const invited = await ok(201, admin('/admin/team/invitations', { body: { email: colleague, role: 'viewer' } }));
    await ok(409, admin('/admin/team/invitations', { body: { email: owner.email, role: 'viewer' } }));
    await ok(403, api('/admin/team/invitations', { session: (await system.staffSession('viewer', system.publicationId)).session, body: { email: colleague, role: 'admin' } }));
    await ok(200, api('/admin/invitations/preview', { body: { token: invited.body.token } }));
    await ok(404, api('/admin/invitations/preview', { body: { token: 'not-a-token' } }));
    const joined = await ok(200, api('/admin/invitations/accept', { body: { token: invited.body.token, name: 'Colleague', password: 'colleague-password' } }));
    await ok(404, api('/admin/invitations/accept', { body: { token: invited.body.token, name: 'Colleague', password: 'colleague-password' } }));
    const team = await ok(200, admin('/admin/team'));
    const member = team.body.members.find((m: { email: string }) => m.email === colleague).id as string;
    await ok(200, admin(`/admin/team/members/${member}`, { method: 'PATCH', body: { role: 'editor' } }));
    await ok(403, api('/admin/team/invitations', { session: sessionFrom(joined), body: { email: `x${colleague}`, role: 'viewer' } }));
    await ok(409, admin(`/admin/team/members/${owner.id}`, { method: 'PATCH', body: { role: 'viewer' } }));
    await ok(404, admin(`/admin/team/members/${randomUUID()}`, { method: 'PATCH', body: { role: 'viewer' } }));
    await ok(409, admin(`/admin/team/members/${owner.id}`, { method: 'DELETE' }));
    await ok(204, admin(`/admin/team/members/${member}`, { method: 'DELETE' }));
    await ok(404, admin(`/admin/team/members/${member}`, { method: 'DELETE' }));
    const again = await ok(201, admin('/admin/team/invitations', { body: { email: colleague, role: 'viewer' } }));
    await ok(401, api('/admin/invitations/accept', { body: { token: again.body.token, name: 'Colleague', password: 'not-their-password' } }));
    await ok(204, admin(`/admin/team/invitations/${again.body.id}`, { method: 'DELETE' }));
    await ok(404, admin(`/admin/team/invitations/${again.body.id}`, { method: 'DELETE' }));

    // API keys.
    const keys = await ok(200, admin('/admin/api-keys'));
    expect(keys.body.length).toBeGreaterThan(0);
    await ok(201, admin('/admin/api-keys', { body: { name: 'conf-a' } }));
    await ok(409, admin('/admin/api-keys', { body: { name: 'conf-a' } }));
    const pair = await ok(201, admin('/admin/api-keys', { body: { name: 'conf-b' } }));
    const listed = (await admin('/admin/api-keys')).body as Array<{ id: string; name: string }>;
    await ok(204, admin(`/admin/api-keys/${listed.find((k) => k.name === 'conf-b')!.id}`, { method: 'DELETE' }));
    await ok(204, admin('/admin/api-keys/pairs/conf-a', { method: 'DELETE' }));
    await ok(404, admin('/admin/api-keys/pairs/never-made', { method: 'DELETE' }));
    await ok(401, api('/branding', { key: `${pair.body.publishableKey}x` }));

    // Segments, paywalls, experiments, access checks and events.
    const segment = await ok(201, admin('/admin/segments', { body: { name: 'Mobile', match: 'all', conditions: [{ attribute: 'device', operator: 'eq', value: 'mobile' }] } }));
    await ok(200, admin('/admin/segments'));
    await ok(200, admin(`/admin/segments/${segment.body.id}`));
    await ok(200, admin(`/admin/segments/${segment.body.id}`, { method: 'PATCH', body: { name: 'Phones' } }));
    await ok(404, admin(`/admin/segments/${randomUUID()}`));
    await ok(400, admin('/admin/segments', { body: { name: 'Bad', match: 'all', conditions: [] } }));
    const metered = await ok(201, admin('/admin/paywalls', { body: { name: 'Meter', type: 'metered', config: { limit: 1, period: 'month' }, match: { include: ['/metered/**'] } } }));
    const hard = await ok(
      201,
      admin('/admin/paywalls', { body: { name: 'Hard', type: 'hard', match: { include: ['/premium/**'] }, presentation: 'inline', copy: { heading: 'Subscribe' }, priority: 5 } }),
    );
    await ok(200, admin('/admin/paywalls?limit=1'));
    await ok(200, admin(`/admin/paywalls/${hard.body.id}`));
    await ok(200, admin(`/admin/paywalls/${hard.body.id}`, { method: 'PATCH', body: { segmentId: null } }));
    await ok(400, admin('/admin/paywalls?limit=0'));
    const experiment = await ok(
      201,
      admin('/admin/experiments', { body: { name: 'Meter test', paywallId: metered.body.id, variants: [{ name: 'A', weight: 1 }, { name: 'B', weight: 1, overrides: { config: { limit: 2 } } }] } }),
    );
    await ok(200, admin('/admin/experiments'));
    await ok(200, admin(`/admin/experiments/${experiment.body.id}`));
    await ok(200, admin(`/admin/experiments/${experiment.body.id}`, { method: 'PATCH', body: { name: 'Meter limits' } }));
    await ok(200, admin(`/admin/experiments/${experiment.body.id}/start`, { method: 'POST' }));
    await ok(409, admin(`/admin/experiments/${experiment.body.id}/start`, { method: 'POST' }));
    const check = (path: string, options = {}) => api(`/access/check?url=${encodeURIComponent(SITE + path)}&userId=visitor-1`, { key: pk, ...options });
    await ok(200, check('/free'));
    await ok(200, check('/premium/story'));
    await ok(200, check('/metered/one'));
    await ok(200, check('/metered/two'));
    await ok(200, check('/premium/story', { token: reader.accessToken }));
    await ok(401, check('/premium/story', { token: 'not-a-jwt' }));
    await ok(403, check('/premium/story', { key: sk }));
    await ok(403, api(`/access/check?url=${encodeURIComponent('https://elsewhere.example/x')}`, { key: pk }));
    await ok(400, api('/access/check?url=nope', { key: pk }));
    await ok(200, admin(`/admin/access/try?url=${encodeURIComponent(`${SITE}/premium/story`)}&device=mobile`));
    await ok(403, admin(`/admin/access/try?url=${encodeURIComponent('https://elsewhere.example/x')}`));
    await ok(400, admin('/admin/access/try?url=nope'));
    await ok(202, api('/events', { key: pk, body: { type: 'page_view', url: `${SITE}/free` } }));
    await ok(202, api('/events', { key: pk, body: { events: [{ type: 'paywall_shown', url: `${SITE}/premium/story`, paywallId: hard.body.id }] } }));
    await ok(400, api('/events', { key: pk, body: { type: 'nonsense', url: `${SITE}/free` } }));
    await ok(415, api('/events', { key: pk, body: 'type=page_view', headers: { 'Content-Type': 'text/plain' } }));
    await ok(200, admin(`/admin/experiments/${experiment.body.id}/stop`, { method: 'POST' }));
    await ok(204, admin(`/admin/experiments/${experiment.body.id}`, { method: 'DELETE' }));
    await ok(204, admin(`/admin/paywalls/${metered.body.id}`, { method: 'DELETE' }));
    await ok(204, admin(`/admin/segments/${segment.body.id}`, { method: 'DELETE' }));

    // Catalog, processor settings, subscriptions.
    const product = await ok(201, admin('/admin/products', { body: { name: 'Digital', entitlements: [] } }));
    await ok(200, admin('/admin/products'));
    await ok(200, admin(`/admin/products/${product.body.id}`));
    await ok(200, admin(`/admin/products/${product.body.id}`, { method: 'PATCH', body: { description: 'All articles' } }));
    const price = await ok(201, admin(`/admin/products/${product.body.id}/prices`, { body: { currency: 'eur', unitAmount: 900, interval: 'month' } }));
    const spare = await ok(201, admin(`/admin/products/${product.body.id}/prices`, { body: { currency: 'eur', unitAmount: 9000, interval: 'year' } }));
    await ok(200, admin(`/admin/products/${product.body.id}/prices`));
    await ok(200, admin(`/admin/prices/${price.body.id}`));
    await ok(200, admin(`/admin/prices/${spare.body.id}`, { method: 'PATCH', body: { active: false } }));
    await ok(204, admin(`/admin/prices/${spare.body.id}`, { method: 'DELETE' }));
    const offer = await ok(201, admin('/admin/offers', { body: { code: 'SPRING3', name: 'Spring', kind: 'amount', amountOff: 300, currency: 'eur', duration: 'repeating', durationInMonths: 3, priceIds: [price.body.id], maxRedemptions: 10 } }));
    await ok(200, admin('/admin/offers'));
    await ok(200, admin(`/admin/offers/${offer.body.id}`));
    await ok(200, api('/offers?code=spring3', { key: pk }));
    await ok(404, api('/offers?code=NOPE-NOPE', { key: pk }));
    await ok(409, admin('/admin/offers', { body: { code: 'spring3', name: 'Again', kind: 'trial', trialDays: 7 } }));
    await ok(200, admin(`/admin/offers/${offer.body.id}`, { method: 'PATCH', body: { active: false } }));
    await ok(410, api('/offers?code=spring3', { key: pk }));
    const phones = await ok(201, admin('/admin/segments', { body: { name: 'Phones only', match: 'all', conditions: [{ attribute: 'device', operator: 'eq', value: 'mobile' }] } }));
    await ok(201, admin('/admin/offers', { body: { code: 'PHONES', name: 'Phones', kind: 'trial', trialDays: 7, segmentId: phones.body.id } }));
    await ok(409, api('/offers?code=phones&device=desktop', { key: pk }));
    await ok(404, admin('/admin/offers', { body: { code: 'NOWHERE', name: 'Nowhere', kind: 'trial', trialDays: 7, segmentId: randomUUID() } }));
    const unsold = await ok(201, admin('/admin/products', { body: { name: 'Unsold' } }));
    await ok(204, admin(`/admin/products/${unsold.body.id}`, { method: 'DELETE' }));
    await ok(200, admin('/admin/processor'));
    await ok(200, admin('/admin/processor', { method: 'PUT', body: { secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET } }));
    await ok(400, admin('/admin/processor', { method: 'PUT', body: { secretKey: 'nope' } }));

    // Imports and the export.
    const csv = { 'Content-Type': 'text/csv' };
    const file = `email,name,product,interval,currency,amount\nimported-${randomUUID()}@example.com,Imported,${product.body.name},month,eur,900\nnot-an-email,Bad,,,,\n`;
    const upload = await ok(201, admin('/admin/imports', { body: file, headers: csv }));
    await ok(200, admin('/admin/imports'));
    await eventually(async () => ((await ok(200, admin(`/admin/imports/${upload.body.id}`))).body.status === 'checked' ? true : undefined));
    await ok(200, admin(`/admin/imports/${upload.body.id}/run`, { method: 'POST' }));
    await ok(409, admin(`/admin/imports/${upload.body.id}/run`, { method: 'POST' }));
    await ok(404, admin(`/admin/imports/${randomUUID()}`));
    await ok(400, admin('/admin/imports', { body: 'mail,name\n', headers: csv }));
    await ok(415, admin('/admin/imports', { body: { email: 'a@example.com' } }));
    await ok(200, admin('/admin/exports/customers'));

    const granted = await ok(201, admin('/admin/subscriptions', { body: { customerId: reader.id, priceId: price.body.id } }));
    await ok(200, admin('/admin/subscriptions?status=active'));
    await ok(200, admin(`/admin/subscriptions/${granted.body.subscriptionId}`));
    await ok(200, admin(`/admin/subscriptions/${granted.body.subscriptionId}/cancel`, { method: 'POST', body: { atPeriodEnd: false } }));
    await ok(409, admin(`/admin/products/${product.body.id}`, { method: 'DELETE' }));

    const paid = await system.subscribe(reader, price.body.id);
    const mine = await ok(200, api(`/subscriptions/me?customerId=${reader.id}`, { key: sk }));
    await ok(200, api('/subscriptions/me', { key: pk, token: reader.accessToken }));
    await ok(401, api('/subscriptions/me', { key: pk }));

    // Organisations: staff keep one; its manager invites, the invitee joins from the email, the manager removes them.
    const organisation = await ok(201, admin('/admin/organisations', { body: { name: 'Conf University', productId: product.body.id, seats: 3, ipRanges: ['81.2.69.0/24'], managerIds: [reader.id] } }));
    await ok(400, admin('/admin/organisations', { body: { name: 'Overlap', productId: product.body.id, ipRanges: ['81.2.69.0/25'] } }));
    await ok(200, admin('/admin/organisations'));
    await ok(200, admin(`/admin/organisations/${organisation.body.id}`));
    await ok(404, admin(`/admin/organisations/${randomUUID()}`));
    await ok(200, admin(`/admin/organisations/${organisation.body.id}`, { method: 'PATCH', body: { seats: 4 } }));
    const staffInvitation = await ok(201, admin(`/admin/organisations/${organisation.body.id}/invitations`, { body: { email: `staff-invited-${randomUUID()}@example.com` } }));
    await ok(204, admin(`/admin/organisations/${organisation.body.id}/invitations/${staffInvitation.body.id}`, { method: 'DELETE' }));
    const seatHolder = await system.reader();
    await ok(201, api(`/organisations/${organisation.body.id}/invitations`, { key: pk, token: reader.accessToken, body: { email: seatHolder.email, returnUrl: `${SITE}/join` } }));
    await ok(200, api('/organisations/managed', { key: pk, token: reader.accessToken }));
    const joinToken = await sink.invitationTokenTo(seatHolder.email);
    await ok(200, api('/organisations/invitations/accept', { key: pk, token: seatHolder.accessToken, body: { token: joinToken } }));
    await ok(410, api('/organisations/invitations/accept', { key: pk, token: seatHolder.accessToken, body: { token: joinToken } }));
    await ok(200, admin(`/admin/organisations/${organisation.body.id}/seats`));
    const second = await ok(201, api(`/organisations/${organisation.body.id}/invitations`, { key: pk, token: reader.accessToken, body: { email: `second-${randomUUID()}@example.com` } }));
    await ok(204, api(`/organisations/${organisation.body.id}/invitations/${second.body.id}`, { method: 'DELETE', key: pk, token: reader.accessToken }));
    await ok(204, api(`/organisations/${organisation.body.id}/members/${seatHolder.id}`, { method: 'DELETE', key: pk, token: reader.accessToken }));
    const staffMember = await ok(201, admin(`/admin/organisations/${organisation.body.id}/invitations`, { body: { email: seatHolder.email } }));
    const staffToken = await sink.invitationTokenTo(seatHolder.email, 2);
    expect(staffMember.body.email).toBe(seatHolder.email);
    await ok(200, api('/organisations/invitations/accept', { key: pk, token: seatHolder.accessToken, body: { token: staffToken } }));
    await ok(204, admin(`/admin/organisations/${organisation.body.id}/members/${seatHolder.id}`, { method: 'DELETE' }));
    await ok(200, admin(`/admin/organisations/${organisation.body.id}/stats`));
    await ok(400, admin(`/admin/organisations/${organisation.body.id}/stats?from=2030-01-02T00:00:00.000Z&to=2030-01-01T00:00:00.000Z`));
    await ok(404, admin(`/admin/organisations/${randomUUID()}/stats`));
    await ok(204, admin(`/admin/organisations/${organisation.body.id}`, { method: 'DELETE' }));

    // Shared articles: the reader subscribes now; the check of the link grants with shared_link.
    await ok(200, admin('/admin/share-settings'));
    await ok(200, admin('/admin/share-settings', { method: 'PUT', body: { opensPerLink: 3 } }));
    await ok(400, admin('/admin/share-settings', { method: 'PUT', body: { monthlyAllowance: 0 } }));
    const link = await ok(201, api('/access/share-links', { key: pk, token: reader.accessToken, body: { url: `${SITE}/premium/story` } }));
    await ok(200, api(`/access/check?url=${encodeURIComponent(link.body.url)}`, { key: pk }));
    await ok(400, api('/access/share-links', { key: pk, token: reader.accessToken, body: { url: 'nope' } }));
    await ok(403, api('/access/share-links', { key: pk, token: (await system.reader()).accessToken, body: { url: `${SITE}/premium/story` } }));
    await ok(200, api('/prices', { key: pk }));
    await ok(200, api('/prices', { key: sk }));
    await ok(401, api('/prices'));
    await ok(400, api('/subscriptions/me', { key: sk }));
    const started = await ok(201, api('/subscriptions/checkout', { key: sk, body: { priceId: price.body.id, customerId: reader.id, successUrl: `${SITE}/ok`, cancelUrl: `${SITE}/no` } }));
    await ok(200, api('/subscriptions/checkout/confirm', { key: pk, token: reader.accessToken, body: { sessionId: started.body.sessionId } }));
    await system.fake.completeCheckout(started.body.sessionId);
    await ok(200, api('/subscriptions/checkout/confirm', { key: sk, body: { sessionId: started.body.sessionId, customerId: reader.id } }));
    await ok(404, api('/subscriptions/checkout/confirm', { key: sk, body: { sessionId: 'cs_test_unknown', customerId: reader.id } }));
    await ok(400, api('/subscriptions/checkout/confirm', { key: pk, token: reader.accessToken, body: { sessionId: 'nope' } }));
    await ok(404, api('/subscriptions/checkout', { key: sk, body: { priceId: randomUUID(), customerId: reader.id, successUrl: `${SITE}/ok`, cancelUrl: `${SITE}/no` } }));
    // Passes and single articles: one-time prices, offered by a paywall, bought and confirmed with their purchase.
    const pass = await ok(201, admin(`/admin/products/${product.body.id}/prices`, { body: { currency: 'eur', unitAmount: 200, interval: 'pass', passHours: 24 } }));
    const article = await ok(201, admin(`/admin/products/${product.body.id}/prices`, { body: { currency: 'eur', unitAmount: 99, interval: 'single_article' } }));
    await ok(400, admin(`/admin/products/${product.body.id}/prices`, { body: { currency: 'eur', unitAmount: 200, interval: 'pass' } }));
    const offering = await ok(201, admin('/admin/paywalls', { body: { name: 'Passes', type: 'hard', match: { include: ['/passes/**'] }, oneTimePriceIds: [pass.body.id, article.body.id] } }));
    await ok(400, admin(`/admin/paywalls/${offering.body.id}`, { method: 'PATCH', body: { oneTimePriceIds: [price.body.id] } }));
    await ok(400, api('/subscriptions/checkout', { key: sk, body: { priceId: article.body.id, customerId: reader.id, successUrl: `${SITE}/ok`, cancelUrl: `${SITE}/no` } }));
    const bought = await ok(201, api('/subscriptions/checkout', { key: sk, body: { priceId: article.body.id, customerId: reader.id, successUrl: `${SITE}/ok`, cancelUrl: `${SITE}/no`, articleUrl: `${SITE}/passes/one` } }));
    await system.fake.completeCheckout(bought.body.sessionId);
    await ok(200, api('/subscriptions/checkout/confirm', { key: pk, token: reader.accessToken, body: { sessionId: bought.body.sessionId } }));
    await ok(200, api('/subscriptions/purchases', { key: pk, token: reader.accessToken }));
    await ok(200, api(`/subscriptions/purchases?customerId=${reader.id}`, { key: sk }));
    await ok(400, api('/subscriptions/purchases', { key: sk }));
    await ok(200, admin(`/admin/customers/${reader.id}/purchases`));
    await ok(404, admin(`/admin/customers/${randomUUID()}/purchases`));
    await ok(201, api('/subscriptions/portal', { key: sk, body: { customerId: reader.id, returnUrl: `${SITE}/account` } }));
    // Gifts: one bought, paid and redeemed (once: another reader is refused), one voided before it was paid.
    const giftOrder = { priceId: price.body.id, months: 3, recipientEmail: `gift-${randomUUID()}@example.com`, recipientName: 'Friend', buyerName: 'Conf', buyerEmail: email, successUrl: `${SITE}/ok`, cancelUrl: `${SITE}/no` };
    const gift = await ok(201, api('/gifts', { key: pk, body: giftOrder }));
    await ok(400, api('/gifts', { key: pk, body: { ...giftOrder, months: 2 } }));
    await ok(403, api('/gifts', { key: pk, body: { ...giftOrder, redeemUrl: 'https://elsewhere.example/account' } }));
    for (const event of (await system.fake.completeCheckout(gift.body.sessionId)).events) await system.deliverOk(event);
    const giftCode = /#gatehouse-gift=([A-Za-z0-9_-]+)/.exec((await sink.nextTo(giftOrder.recipientEmail)).text)![1];
    const giftee = await system.reader();
    await ok(200, api('/gifts/redeem', { key: pk, token: giftee.accessToken, body: { code: giftCode } }));
    await ok(409, api('/gifts/redeem', { key: pk, token: (await system.reader()).accessToken, body: { code: giftCode } }));
    await ok(404, api('/gifts/redeem', { key: pk, token: reader.accessToken, body: { code: 'unknownGiftCode000000000' } }));
    await ok(400, api('/gifts/redeem', { key: pk, token: reader.accessToken, body: { code: 'no' } }));
    await ok(409, admin(`/admin/gifts/${gift.body.giftId}/void`, { method: 'POST' }));
    const unpaid = await ok(201, api('/gifts', { key: pk, body: giftOrder }));
    await ok(200, admin('/admin/gifts'));
    await ok(200, admin(`/admin/gifts/${unpaid.body.giftId}`));
    await ok(200, admin(`/admin/gifts/${unpaid.body.giftId}/void`, { method: 'POST' }));
    await ok(404, admin(`/admin/gifts/${randomUUID()}`));
    // Plan changes, pauses, and what a pause does to access.
    const yearly = await ok(201, admin(`/admin/products/${product.body.id}/prices`, { body: { currency: 'eur', unitAmount: 9000, interval: 'year' } }));
    const change = { subscriptionId: paid.subscriptionId, priceId: yearly.body.id };
    await ok(200, api('/subscriptions/plan-change/preview', { key: pk, token: reader.accessToken, body: change }));
    await ok(200, api('/subscriptions/plan-change/preview', { key: sk, body: { ...change, when: 'now' } }));
    await ok(400, api('/subscriptions/plan-change/preview', { key: sk, body: { ...change, priceId: 'x' } }));
    await ok(200, api('/subscriptions/plan-change', { key: sk, body: change }));
    await ok(404, api('/subscriptions/plan-change', { key: sk, body: { ...change, subscriptionId: randomUUID() } }));
    await ok(200, api('/subscriptions/pause', { key: pk, token: reader.accessToken, body: { subscriptionId: paid.subscriptionId, months: 1 } }));
    await ok(200, api('/subscriptions/resume', { key: sk, body: { subscriptionId: paid.subscriptionId } }));
    await ok(409, api('/subscriptions/resume', { key: sk, body: { subscriptionId: paid.subscriptionId } }));
    await ok(200, admin('/admin/subscription-settings'));
    await ok(200, admin('/admin/subscription-settings', { method: 'PUT', body: { pausedAccess: 'keep' } }));
    await ok(400, admin('/admin/subscription-settings', { method: 'PUT', body: { pausedAccess: 'never' } }));
    // Cancellation that tries to save, and win-back.
    const reasons = await ok(200, admin('/admin/cancellation-reasons'));
    const withPause = reasons.body.reasons.map((r: { reason: string }) => (r.reason === 'unused' ? { ...r, save: { kind: 'pause', months: 1 } } : r));
    await ok(200, admin('/admin/cancellation-reasons', { method: 'PUT', body: { reasons: withPause } }));
    await ok(400, admin('/admin/cancellation-reasons', { method: 'PUT', body: { reasons: withPause.slice(1) } }));
    await ok(200, api(`/subscriptions/cancellation-options?subscriptionId=${paid.subscriptionId}`, { key: pk, token: reader.accessToken }));
    await ok(404, api(`/subscriptions/cancellation-options?subscriptionId=${randomUUID()}`, { key: sk }));
    await ok(200, api('/subscriptions/cancel/save', { key: sk, body: { subscriptionId: paid.subscriptionId, reason: 'unused' } }));
    await ok(409, api('/subscriptions/cancel/save', { key: sk, body: { subscriptionId: paid.subscriptionId, reason: 'unused' } }));
    const comeBack = await ok(201, admin('/admin/offers', { body: { code: 'COMEBACK', name: 'Come back', kind: 'percent', percentOff: 20, duration: 'once' } }));
    await ok(200, admin('/admin/win-back'));
    await ok(200, admin('/admin/win-back', { method: 'PUT', body: { enabled: true, days: 14, offerId: comeBack.body.id } }));
    await ok(400, admin('/admin/win-back', { method: 'PUT', body: { days: 0 } }));
    await ok(200, api('/subscriptions/cancel', { key: sk, body: { subscriptionId: mine.body.subscriptions[0].subscriptionId } }));
    await ok(403, api('/subscriptions/cancel', { key: pk, token: reader.accessToken, body: { subscriptionId: mine.body.subscriptions[0].subscriptionId, atPeriodEnd: false } }));
    await ok(400, api('/subscriptions/cancel', { key: pk, token: reader.accessToken, body: { subscriptionId: mine.body.subscriptions[0].subscriptionId, reason: 'bored' } }));

    // The processor's webhook, signed as the processor signs.
    const event = await system.fake.invoiceEvent(paid.processorId, 'invoice.payment_succeeded');
    const payload = JSON.stringify(event);
    const timestamp = Math.floor(Date.now() / 1000);
    const signature = `t=${timestamp},v1=${createHmac('sha256', WEBHOOK_SECRET).update(`${timestamp}.${payload}`).digest('hex')}`;
    const webhook = `/webhooks/processor?publication=${system.publicationId}`;
    await ok(200, api(webhook, { body: payload, headers: { 'Stripe-Signature': signature } }));
    await ok(400, api(webhook, { body: payload, headers: { 'Stripe-Signature': 't=1,v1=00' } }));

    // Outbound webhooks.
    const hook = await ok(201, admin('/admin/webhooks', { body: { url: `${receiver.url}/hook`, events: ['customer.created'] } }));
    await ok(200, admin(`/admin/webhooks/${hook.body.id}`, { method: 'PATCH', body: { description: 'CRM' } }));
    const test = await ok(202, admin(`/admin/webhooks/${hook.body.id}/test`, { method: 'POST' }));
    await eventually(async () => {
      const list = await admin('/admin/webhooks');
      const attempt = list.body.webhooks.find((w: { id: string }) => w.id === hook.body.id)?.deliveries.find((d: { id: string }) => d.id === test.body.id);
      return attempt?.status === 'succeeded' ? attempt : undefined;
    });
    await ok(202, admin(`/admin/webhooks/${hook.body.id}/deliveries/${test.body.id}/redeliver`, { method: 'POST' }));
    await ok(400, admin('/admin/webhooks', { body: { url: 'ftp://x', events: ['nope'] } }));
    await ok(204, admin(`/admin/webhooks/${hook.body.id}`, { method: 'DELETE' }));
    await ok(404, admin(`/admin/webhooks/${hook.body.id}`, { method: 'DELETE' }));

    // Branding.
    const branding = await ok(200, api('/branding', { key: pk }));
    await ok(304, api('/branding', { key: pk, headers: { 'If-None-Match': branding.headers.get('etag')! } }));
    await ok(403, api('/branding', { key: sk }));
    const staffCopy = await ok(200, admin('/branding/admin'));
    await ok(200, admin('/branding/admin', { method: 'PUT', body: { brandingMode: 'themed', brandColor: '#123456' }, headers: { 'If-Match': staffCopy.headers.get('etag')! } }));
    await ok(412, admin('/branding/admin', { method: 'PUT', body: { brandColor: '#654321' }, headers: { 'If-Match': staffCopy.headers.get('etag')! } }));
    await ok(400, admin('/branding/admin', { method: 'PUT', body: { brandColor: 'red' } }));

    // Customer records, with the secret key and the session.
    const customer = await ok(201, api('/customers', { key: sk, body: { email: `rec-${randomUUID()}@example.com`, name: 'Record' } }));
    await ok(200, admin('/customers?limit=5'));
    await ok(200, api(`/customers/${customer.body.id}`, { key: sk, method: 'PATCH', body: { name: 'Renamed' } }));
    await ok(200, api(`/customers/${customer.body.id}/export`, { key: sk }));
    await ok(204, admin(`/customers/${customer.body.id}`, { method: 'DELETE' }));
    await ok(404, admin(`/customers/${customer.body.id}`, { method: 'DELETE' }));
    await ok(404, admin(`/customers/${customer.body.id}/export`));

    // Crawler policy.
    await ok(200, admin('/admin/crawler-policy'));
    await ok(200, admin('/admin/crawler-policy', { method: 'PUT', body: { aiCrawlers: 'deny' } }));
    await ok(400, admin('/admin/crawler-policy', { method: 'PUT', body: { aiCrawlers: 'grant' } }));
    await ok(200, check('/premium/story', { headers: { 'User-Agent': 'GPTBot/1.2' } }));

    // Stats.
    await ok(200, admin('/admin/stats?interval=hour'));
    await ok(400, admin('/admin/stats?from=2026-01-02&to=2026-01-01'));

    // The audit log of the staff writes above, and its CSV export.
    await ok(200, admin('/admin/audit-log?limit=5'));
    await ok(200, api('/admin/audit-log?action=paywalls', { key: sk }));
    await ok(400, admin('/admin/audit-log?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z'));
    await ok(200, admin('/admin/audit-log/export?action=paywalls'));
    await ok(400, admin('/admin/audit-log/export?from=soon'));

    // Account email: the reader's link or code as the SMTP server received it; staff see each message's state, never its credential.
    const mail = async (to: string, kind: EmailKind): Promise<string> => {
      const listed = await eventually(async () =>
        (await admin('/admin/mailbox?limit=100')).body.items.find((m: { to: string; kind: string; status: string }) => m.to === to && m.kind === kind && m.status === 'sent'),
      );
      await ok(200, admin(`/admin/mailbox/${listed.id}`));
      return (await eventually(() => sink.to(to).find((m) => m.text.includes(`#${EMAIL_LINK_PARAMETERS[kind]}=`)))).text;
    };
    const mailed = async (label: string) => {
      const address = `${label}-${randomUUID()}@example.com`;
      const answer = await ok(201, api('/auth/customers/register', { key: pk, body: { email: address, password: 'reader-password', name: 'Mail' } }));
      return { address, accessToken: answer.body.accessToken as string };
    };
    const verifying = await mailed('verify');
    await ok(200, api('/auth/customers/verify-email', { key: pk, body: { token: linkIn(await mail(verifying.address, 'email_verification'), 'email_verification').token } }));
    await ok(202, api('/auth/customers/verify-email/send', { key: pk, token: verifying.accessToken, body: {} }));
    await ok(401, api('/auth/customers/verify-email', { key: pk, body: { token: 'not-a-token' } }));
    const resetting = await mailed('reset');
    await ok(202, api('/auth/customers/password-reset', { key: pk, body: { email: resetting.address } }));
    const resetToken = linkIn(await mail(resetting.address, 'password_reset'), 'password_reset').token;
    await ok(200, api('/auth/customers/password-reset/confirm', { key: pk, body: { token: resetToken, password: 'another-password' } }));
    await ok(401, api('/auth/customers/password-reset/confirm', { key: pk, body: { token: resetToken, password: 'another-password' } }));
    const coded = await mailed('code');
    await ok(202, api('/auth/customers/login-code', { key: pk, body: { email: coded.address } }));
    const codeMail = await mail(coded.address, 'login_code');
    await ok(401, api('/auth/customers/login-code/verify', { key: pk, body: { email: `x${coded.address}`, code: '000000' } }));
    await ok(200, api('/auth/customers/login-code/verify', { key: pk, body: { email: coded.address, code: codeIn(codeMail) } }));
    const linked = await mailed('link');
    await ok(202, api('/auth/customers/login-code', { key: pk, body: { email: linked.address } }));
    await ok(200, api('/auth/customers/login-code/link', { key: pk, body: { token: linkIn(await mail(linked.address, 'login_code'), 'login_code').token } }));
    await ok(200, admin('/admin/email-templates'));
    await ok(200, admin('/admin/email-templates/password_reset/de', { method: 'PUT', body: { subject: 'Neues Passwort', body: 'Hier entlang.', action: 'Los' } }));
    await ok(400, admin('/admin/email-templates/password_reset/xx', { method: 'PUT', body: { subject: 'S', body: 'B', action: 'A' } }));
    await ok(204, admin('/admin/email-templates/password_reset/de', { method: 'DELETE' }));
    await ok(404, admin(`/admin/mailbox/${randomUUID()}`));

    expect(conformance.mismatches).toEqual([]);
    expect(conformance.seen.size).toBeGreaterThan(100);
    const successes = conformance.documented.filter((entry) => /\s2\d\d$/.test(entry));
    const unseen = successes.filter((entry) => !conformance.seen.has(entry));
    // The health route answers 503 as well as 200 on a loaded machine; either is a documented answer.
    expect(unseen.filter((entry) => !entry.startsWith('GET /api/v1/health '))).toEqual([]);

    // A client generated from /docs/json by a standard generator accepts every real answer.
    expect(conformance.samples.size).toBeGreaterThan(60);
    expect(await typeCheckGeneratedClient(conformance.document, conformance.samples.values())).toBe('');
  }, 300_000);

  it('notices an answer that differs from the document', () => {
    const judge = new ApiConformance(conformance.document);
    const headers = new Headers({ 'content-type': 'application/json' });
    judge.check('GET', '/api/v1/admin/products', { status: 200, headers, body: { items: [{ id: 'x', name: 'n' }], nextCursor: null } });
    judge.check('GET', '/api/v1/admin/products', { status: 200, headers, body: { items: [], nextCursor: null, extra: 1 } });
    judge.check('GET', '/api/v1/admin/products', { status: 418, headers, body: {} });
    judge.check('GET', '/api/v1/admin/products', { status: 404, headers: new Headers({ 'content-type': 'application/problem+json' }), body: { type: 't', title: 't', status: 404, detail: 'd', code: 'email_taken' } });
    expect(judge.mismatches.map((m) => m.status)).toEqual([200, 200, 418, 404]);
  });

  it("notices an answer the generated client's types refuse", async () => {
    const wrong = { method: 'get', template: '/api/v1/admin/products', status: 200, body: { items: [{ id: 1, name: 'n' }], nextCursor: null } };
    expect(await typeCheckGeneratedClient(conformance.document, [wrong])).toMatch(/error TS2/);
  }, 120_000);
});
