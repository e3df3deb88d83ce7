import type { AccessCheckResult, OrganisationView } from '@gatehouse/contracts';
import { eventually } from '@gatehouse/testing';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { READER_PASSWORD } from './support/constants';
import { call } from './support/http';
import { linkIn, SmtpSink } from './support/mail';
import { startGatewayOverNats, type TestGateway } from './support/system';
import { SITE, WholeSystem, type Reader } from './support/system-all';

/**
 * Organisations (issue #26): staff keep them; a check from one of their networks is granted for
 * anyone (the client's address read only through TRUST_PROXY, as the rate limiter reads it); a
 * seat is taken from an emailed invitation or by a verified address at a domain, never past the
 * seats however many join at once, and a removed member is refused at the next check.
 */
describe('organisations', () => {
  let system: WholeSystem;
  let sink: SmtpSink;
  /** A second gateway of the same system that trusts no proxy. */
  let untrusting: TestGateway;
  let productId: string;

  beforeAll(async () => {
    sink = await SmtpSink.start();
    system = await WholeSystem.start({ everyService: true, identityEnv: { SMTP_URL: sink.url }, gatewayEnv: { TRUST_PROXY: 'true' }, domains: ['localhost'] });
    untrusting = await startGatewayOverNats(system.namespace);
    await system.paywall({ name: 'Premium', type: 'hard', match: { include: ['/premium/**'] } });
    productId = (await system.product({ name: 'Campus access' })).id;
  }, 180_000);

  afterAll(async () => {
    await untrusting?.close();
    await system?.close();
    await sink?.close();
  });

  const create = (body: object) => system.admin<OrganisationView>('/admin/organisations', { body: { productId, ...body } });
  const created = async (body: object): Promise<OrganisationView> => {
    const answer = await create(body);
    expect(answer.status).toBe(201);
    return answer.body;
  };
  const count = async () => (await system.admin('/admin/organisations?limit=100')).body.items.length;
  /**
   * A check of a premium page from an address, as the site's proxy states it. `userId`: the site's
   * visitor id; `page`: the page's path and query (a share token in it sends the check to access).
   */
  const from = async (ip: string, options: { token?: string; gateway?: string; userId?: string; page?: string } = {}): Promise<AccessCheckResult> => {
    const url = `/api/v1/access/check?${new URLSearchParams({ url: `${SITE}${options.page ?? '/premium/story'}`, ...(options.userId ? { userId: options.userId } : {}) })}`;
    const answer = await call<AccessCheckResult>(options.gateway ?? system.gateway.url, url, { key: system.publishableKey, token: options.token, headers: { 'X-Forwarded-For': ip } });
    expect(answer.status).toBe(200);
    return answer.body;
  };
  const premium = (reader: Reader) => system.decisionFor(reader, '/premium/story');

  describe('kept by staff', () => {
    it('are created with their product, seats, term, domains, ranges and managers, and read back as stored', async () => {
      const manager = await system.reader();
      const organisation = await created({
        name: '  Acme University ',
        seats: 25,
        endsAt: '2099-01-01T00:00:00.000Z',
        domains: ['Acme.EDU'],
        ipRanges: ['81.2.69.0/24', '2A02:1234:0::/32'],
        managerIds: [manager.id],
      });
      expect(organisation).toEqual({
        id: expect.any(String),
        name: 'Acme University',
        productId,
        seats: 25,
        seatsUsed: 0,
        startsAt: expect.any(String),
        endsAt: '2099-01-01T00:00:00.000Z',
        domains: ['acme.edu'],
        ipRanges: ['81.2.69.0/24', '2a02:1234::/32'],
        allowReservedRanges: false,
        managerIds: [manager.id],
        processorSubscriptionId: null,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      expect((await system.admin(`/admin/organisations/${organisation.id}`)).body).toEqual(organisation);
      // The secret key reaches the same routes (the Node client).
      expect((await system.api(`/admin/organisations/${organisation.id}`, { key: system.secretKey })).body).toEqual(organisation);
      const renamed = await system.admin(`/admin/organisations/${organisation.id}`, { method: 'PATCH', body: { name: 'Acme U', seats: null } });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toMatchObject({ name: 'Acme U', seats: null, ipRanges: ['81.2.69.0/24', '2a02:1234::/32'] });
    });

    it('keep their product: it cannot be deleted while an organisation grants it', async () => {
      const granted = await system.product({ name: 'Library access' });
      await created({ name: 'Town library', productId: granted.id });
      const refused = await system.admin(`/admin/products/${granted.id}`, { method: 'DELETE' });
      expect(refused.body).toMatchObject({ status: 409, code: 'conflict', detail: expect.stringContaining('organisations') });
      expect((await system.admin(`/admin/products/${granted.id}`)).status).toBe(200);
    });

    it('refuse bad ranges, overlaps with another organisation, reserved space and unknown products, naming the field and storing nothing', async () => {
      const before = await count();
      const refused = async (body: object, field: string, message: RegExp) => {
        const answer = await create({ name: 'Refused', ...body });
        expect(answer.status).toBe(400);
        expect(answer.headers.get('content-type')).toContain('application/problem+json');
        expect(answer.body).toMatchObject({ code: 'validation_failed', errors: [{ field, message: expect.stringMatching(message) }] });
      };
      await refused({ ipRanges: ['81.2.70.1/24'] }, 'ipRanges', /not a CIDR range/);
      await refused({ ipRanges: ['81.2.70.0/33'] }, 'ipRanges', /not a CIDR range/);
      await refused({ ipRanges: ['campus'] }, 'ipRanges', /not a CIDR range/);
      await refused({ ipRanges: ['81.2.69.128/25'] }, 'ipRanges', /overlaps 81\.2\.69\.0\/24 of the organisation Acme U/);
      await refused({ ipRanges: ['2a02:1234:5::/48'] }, 'ipRanges', /overlaps 2a02:1234::\/32 of the organisation Acme U/);
      await refused({ ipRanges: ['81.2.0.0/16'] }, 'ipRanges', /overlaps/);
      await refused({ ipRanges: ['82.1.0.0/16', '82.1.4.0/24'] }, 'ipRanges', /82\.1\.4\.0\/24 overlaps 82\.1\.0\.0\/16/);
      await refused({ ipRanges: ['10.20.0.0/16'] }, 'ipRanges', /private or reserved range 10\.0\.0\.0\/8/);
      await refused({ ipRanges: ['fd12::/16'] }, 'ipRanges', /private or reserved range fc00::\/7/);
      await refused({ domains: ['acme.edu'] }, 'domains', /domain of the organisation Acme U/);
      await refused({ domains: ['not a domain'] }, 'domains', /not a domain name/);
      await refused({ productId: randomUUID() }, 'productId', /product of this publication/);
      await refused({ managerIds: [randomUUID()] }, 'managerIds', /not a customer of this publication/);
      await refused({ endsAt: '2001-01-01T00:00:00.000Z', startsAt: '2002-01-01T00:00:00.000Z' }, 'endsAt', /after startsAt/);
      const typed = await create({ name: 'Refused', seats: 0 });
      expect(typed.status).toBe(400);
      expect(await count()).toBe(before);
      // Staff may allow an intranet's range.
      expect((await create({ name: 'Newsroom intranet', ipRanges: ['10.20.0.0/16'], allowReservedRanges: true })).status).toBe(201);
    });

    it("are another publication's to no one: not listed, read, changed or deleted across publications", async () => {
      const ours = await created({ name: 'Tenant test' });
      const { session } = await system.otherPublicationSession();
      expect((await system.api('/admin/organisations', { session })).body.items).toEqual([]);
      const attempts: Array<{ method: string; path: string; body?: object }> = [
        { method: 'GET', path: `/admin/organisations/${ours.id}` },
        { method: 'PATCH', path: `/admin/organisations/${ours.id}`, body: { name: 'Taken' } },
        { method: 'GET', path: `/admin/organisations/${ours.id}/seats` },
        { method: 'POST', path: `/admin/organisations/${ours.id}/invitations`, body: { email: 'someone@example.com' } },
        { method: 'DELETE', path: `/admin/organisations/${ours.id}` },
      ];
      for (const { method, path, body } of attempts) {
        expect({ method, path, status: (await system.api(path, { session, method, body })).status }).toEqual({ method, path, status: 404 });
      }
      // Their own organisation may use our range: ranges are unique per publication.
      const theirProduct = (await system.api('/admin/products', { session, body: { name: 'Theirs' } })).body;
      expect((await system.api('/admin/organisations', { session, body: { name: 'Theirs', productId: theirProduct.id, ipRanges: ['81.2.69.0/24'] } })).status).toBe(201);
      expect((await system.admin(`/admin/organisations/${ours.id}`)).body.name).toBe('Tenant test');
    });
  });

  describe('networks', () => {
    it('grant a check from an IPv4 or IPv6 address in range behind a trusted proxy, naming the organisation, for anonymous readers too', async () => {
      expect(await from('81.2.69.40')).toMatchObject({ granted: true, reason: 'organisation', organisation: { name: 'Acme U' }, customerId: null });
      expect(await from('2a02:1234:ab::7')).toMatchObject({ granted: true, reason: 'organisation', organisation: { name: 'Acme U' } });
      // One trusted hop: the client is the address the proxy appended last; what came before is the client's own claim.
      expect(await from('81.2.69.41, 198.51.100.1')).toMatchObject({ granted: false, reason: 'blocked' });
      expect(await from('198.51.100.1, 81.2.69.41')).toMatchObject({ granted: true, reason: 'organisation' });
      expect(await from('81.2.70.1')).toMatchObject({ granted: false, reason: 'blocked' });
      expect(await from('2a02:1235::1')).toMatchObject({ granted: false, reason: 'blocked' });
      const reader = await system.reader();
      expect(await from('81.2.69.42', { token: reader.accessToken })).toMatchObject({ granted: true, reason: 'organisation', customerId: reader.id });
    });

    it('do nothing for an address the client states itself when no proxy is trusted', async () => {
      expect(await from('81.2.69.40', { gateway: untrusting.url })).toMatchObject({ granted: false, reason: 'blocked' });
      expect(await from('2a02:1234::7', { gateway: untrusting.url })).toMatchObject({ granted: false, reason: 'blocked' });
    });

    it('follow a change of ranges at the next check, and end with the organisation', async () => {
      const lab = await created({ name: 'Lab', ipRanges: ['81.2.80.0/24'] });
      expect(await from('81.2.80.9')).toMatchObject({ granted: true, organisation: { name: 'Lab' } });
      await system.admin(`/admin/organisations/${lab.id}`, { method: 'PATCH', body: { ipRanges: ['81.2.81.0/24'] } });
      expect(await from('81.2.80.9')).toMatchObject({ granted: false, reason: 'blocked' });
      expect(await from('81.2.81.9')).toMatchObject({ granted: true, organisation: { name: 'Lab' } });
      expect((await system.admin(`/admin/organisations/${lab.id}`, { method: 'DELETE' })).status).toBe(204);
      expect(await from('81.2.81.9')).toMatchObject({ granted: false, reason: 'blocked' });
    });

    it("take a term's end and start at the next check once the moment passes, not when the copy of the networks is next loaded", async () => {
      // Seconds ahead: both organisations are checked (and their networks loaded) before the moment.
      const moment = new Date(Date.now() + 5_000);
      await created({ name: 'Summer school', ipRanges: ['81.2.90.0/24'], endsAt: moment.toISOString() });
      await created({ name: 'Autumn school', ipRanges: ['2a02:1290::/32'], startsAt: moment.toISOString() });
      expect(await from('81.2.90.9')).toMatchObject({ granted: true, reason: 'organisation', organisation: { name: 'Summer school' } });
      expect(await from('2a02:1290::9')).toMatchObject({ granted: false, reason: 'blocked' });
      await eventually(async () => (Date.now() >= moment.getTime() ? true : undefined), 30_000);
      expect(await from('81.2.90.9')).toMatchObject({ granted: false, reason: 'blocked' });
      expect(await from('2a02:1290::9')).toMatchObject({ granted: true, reason: 'organisation', organisation: { name: 'Autumn school' } });
    }, 60_000);
  });

  describe('seats', () => {
    const accept = (reader: Reader, token: string) => system.api('/organisations/invitations/accept', { key: system.publishableKey, token: reader.accessToken, body: { token } });

    it('a manager invites by email, the invitee joins from the email and reads; removal ends access at the next check', async () => {
      const manager = await system.reader();
      const team = await created({ name: 'Newsdesk', seats: 3, managerIds: [manager.id] });
      const invitee = await system.reader();
      const invited = await system.api(`/organisations/${team.id}/invitations`, { key: system.publishableKey, token: manager.accessToken, body: { email: invitee.email } });
      expect(invited.status).toBe(201);
      const token = await sink.invitationTokenTo(invitee.email);
      const mail = sink.to(invitee.email).find((received) => received.text.includes(token));
      expect(mail?.subject).toBe('Newsdesk gives you access to All Services Daily');
      expect(mail?.text).toContain('Newsdesk invites you to read All Services Daily');
      expect(mail?.text).toContain(`https://localhost/#gatehouse-join=${token}`);
      expect(await premium(invitee)).toMatchObject({ granted: false, reason: 'blocked' });
      const joined = await accept(invitee, token);
      expect(joined.status).toBe(200);
      expect(joined.body).toMatchObject({ customerId: invitee.id, email: invitee.email, via: 'invitation', organisation: { id: team.id, name: 'Newsdesk' } });
      expect(await premium(invitee)).toMatchObject({ granted: true, reason: 'organisation', organisation: { name: 'Newsdesk' } });
      // Used once.
      expect((await accept(await system.reader(), token)).body).toMatchObject({ status: 410, code: 'invitation_invalid' });
      const managed = await system.api('/organisations/managed', { key: system.publishableKey, token: manager.accessToken });
      expect(managed.body.organisations).toEqual([expect.objectContaining({ organisation: expect.objectContaining({ id: team.id, seatsUsed: 1 }), members: [expect.objectContaining({ customerId: invitee.id })], invitations: [] })]);
      // Each reader's data download says it: the member's seat, the manager's role.
      const exportOf = async (reader: { accessToken: string }) => (await system.api('/auth/customers/me/export', { key: system.publishableKey, token: reader.accessToken })).body.organisations;
      expect(await exportOf(invitee)).toEqual([{ organisationId: team.id, name: 'Newsdesk', seat: { email: invitee.email, via: 'invitation', joinedAt: expect.any(String) }, manager: false }]);
      expect(await exportOf(manager)).toEqual([{ organisationId: team.id, name: 'Newsdesk', seat: null, manager: true }]);
      // A reader who manages nothing sees nothing of it, and cannot act on it.
      expect((await system.api(`/organisations/${team.id}/members/${invitee.id}`, { method: 'DELETE', key: system.publishableKey, token: invitee.accessToken })).status).toBe(404);
      const removed = await system.api(`/organisations/${team.id}/members/${invitee.id}`, { method: 'DELETE', key: system.publishableKey, token: manager.accessToken });
      expect(removed.status).toBe(204);
      expect(await premium(invitee)).toMatchObject({ granted: false, reason: 'blocked' });
    });

    it('never exceed the seats however many join at once; a full organisation says so', async () => {
      const team = await created({ name: 'Small team', seats: 2 });
      const readers = await Promise.all(Array.from({ length: 6 }, () => system.reader()));
      for (const reader of readers) expect((await system.admin(`/admin/organisations/${team.id}/invitations`, { body: { email: reader.email } })).status).toBe(201);
      const tokens = await Promise.all(readers.map((reader) => sink.invitationTokenTo(reader.email)));
      const answers = await Promise.all(readers.map((reader, i) => accept(reader, tokens[i])));
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 409, 409, 409, 409]);
      expect(answers.find((answer) => answer.status === 409)?.body).toMatchObject({ code: 'organisation_full', detail: expect.stringContaining('Every one of the 2 seats of Small team is taken') });
      expect((await system.admin(`/admin/organisations/${team.id}`)).body.seatsUsed).toBe(2);
      const granted = await Promise.all(readers.map((reader) => premium(reader)));
      expect(granted.filter((decision) => decision.granted)).toHaveLength(2);
      // Inviting another to a full organisation is refused too, and staff may not shrink it below its members.
      expect((await system.admin(`/admin/organisations/${team.id}/invitations`, { body: { email: 'one-more@example.com' } })).body).toMatchObject({ status: 409, code: 'organisation_full' });
      expect((await system.admin(`/admin/organisations/${team.id}`, { method: 'PATCH', body: { seats: 1 } })).body).toMatchObject({ status: 400, errors: [{ field: 'seats' }] });
    });

    it('a verified address at a domain joins on verification; an unverified one does not; a changed address leaves', async () => {
      await created({ name: 'Example College', seats: 10, domains: ['college.example'] });
      const register = async (email: string): Promise<Reader> => {
        const registered = await system.api('/auth/customers/register', { key: system.publishableKey, body: { email, password: READER_PASSWORD, name: 'Student' } });
        expect(registered.status).toBe(201);
        const { customer, accessToken } = registered.body;
        return { id: customer.id, email: customer.email, accessToken, customer };
      };
      const verified = await register(`student-${randomUUID()}@college.example`);
      const unverified = await register(`other-${randomUUID()}@college.example`);
      const { token } = linkIn((await sink.nextTo(verified.email)).text, 'email_verification');
      expect((await system.api('/auth/customers/verify-email', { key: system.publishableKey, body: { token } })).status).toBe(200);
      await eventually(async () => ((await premium(verified)).reason === 'organisation' ? true : undefined), 20_000);
      expect(await premium(verified)).toMatchObject({ granted: true, reason: 'organisation', organisation: { name: 'Example College' } });
      expect(await premium(unverified)).toMatchObject({ granted: false, reason: 'blocked' });
      // The reader moves to another address: the seat goes with the domain.
      const changed = await system.api('/auth/customers/me', { method: 'PATCH', key: system.publishableKey, token: verified.accessToken, body: { email: `alumnus-${randomUUID()}@example.com` } });
      expect(changed.status).toBe(200);
      await eventually(async () => ((await premium(verified)).granted ? undefined : true), 20_000);
      expect(await premium(verified)).toMatchObject({ granted: false, reason: 'blocked' });
    });
  });

  describe('stats', () => {
    it("count an organisation's readers, reads by seat and by network (anonymous ones too, decided at the gateway or at access) and seats, for staff of its publication only", async () => {
      const college = await created({ name: 'Stats College', seats: 3, ipRanges: ['81.2.95.0/24'] });
      const member = await system.reader();
      await system.admin(`/admin/organisations/${college.id}/invitations`, { body: { email: member.email } });
      const token = await sink.invitationTokenTo(member.email);
      expect((await system.api('/organisations/invitations/accept', { key: system.publishableKey, token: member.accessToken, body: { token } })).status).toBe(200);
      // Two reads on the member's seat; two anonymous reads and a signed-in reader's on the network;
      // a visitor's on the network that goes to access (a share token: only access opens links).
      for (let i = 0; i < 2; i++) expect(await premium(member)).toMatchObject({ granted: true, reason: 'organisation', organisation: { name: 'Stats College' } });
      for (let i = 0; i < 2; i++) expect(await from('81.2.95.7')).toMatchObject({ granted: true, reason: 'organisation' });
      expect(await from('81.2.95.8', { token: (await system.reader()).accessToken })).toMatchObject({ granted: true, reason: 'organisation' });
      expect(await from('81.2.95.9', { userId: 'stats-visitor', page: '/premium/story?gh_share=not-a-link' })).toMatchObject({ granted: true, reason: 'organisation' });
      // Another organisation's reads are its own.
      expect(await from('81.2.69.40')).toMatchObject({ granted: true, organisation: { name: 'Acme U' } });

      const stats = await system.admin(`/admin/organisations/${college.id}/stats`);
      expect(stats.status).toBe(200);
      expect(stats.body).toEqual({
        organisationId: college.id,
        name: 'Stats College',
        from: expect.stringMatching(/T00:00:00\.000Z$/),
        to: expect.any(String),
        seats: 3,
        seatsUsed: 1,
        readers: { members: 1, granted: 3 },
        reads: { total: 6, bySeat: 2, byNetwork: 4 },
      });
      // A range before any of it counts nothing; the seats are today's.
      const before = await system.admin(`/admin/organisations/${college.id}/stats?from=2020-01-01T00:00:00.000Z&to=2020-02-01T00:00:00.000Z`);
      expect(before.body).toMatchObject({ seatsUsed: 1, readers: { members: 1, granted: 0 }, reads: { total: 0, bySeat: 0, byNetwork: 0 } });
      // The member's data download names the day the organisation let them in.
      const exported = await system.api('/auth/customers/me/export', { key: system.publishableKey, token: member.accessToken });
      expect(exported.body.organisationDays).toEqual([{ organisationId: college.id, day: expect.stringMatching(/T00:00:00\.000Z$/) }]);
      // The Node client's secret key reads them too.
      expect((await system.api(`/admin/organisations/${college.id}/stats`, { key: system.secretKey })).body.reads.total).toBe(6);

      const refused = await system.admin(`/admin/organisations/${college.id}/stats?from=2030-01-02T00:00:00.000Z&to=2030-01-01T00:00:00.000Z`);
      expect(refused.headers.get('content-type')).toContain('application/problem+json');
      expect(refused.body).toMatchObject({ status: 400, code: 'validation_failed', errors: [{ field: 'from' }] });
      expect((await system.admin(`/admin/organisations/${college.id}/stats?from=yesterday`)).body).toMatchObject({ status: 400, errors: [{ field: 'from' }] });
      const { session } = await system.otherPublicationSession();
      expect((await system.api(`/admin/organisations/${college.id}/stats`, { session })).status).toBe(404);

      // Deleted, the organisation takes its reads and the days it let readers in with it.
      const stored = async () => {
        const sql = new Client({ connectionString: system.databaseUrl });
        await sql.connect();
        try {
          const count = async (table: string) => Number((await sql.query(`SELECT count(*) AS n FROM access.${table} WHERE organisation_id = $1`, [college.id])).rows[0].n);
          return { reads: await count('organisation_reads'), readers: await count('organisation_readers') };
        } finally {
          await sql.end();
        }
      };
      const kept = await stored();
      expect(kept.readers).toBe(3);
      expect(kept.reads).toBeGreaterThan(0);
      expect((await system.admin(`/admin/organisations/${college.id}`, { method: 'DELETE' })).status).toBe(204);
      await eventually(async () => {
        const left = await stored();
        return left.reads === 0 && left.readers === 0 ? left : undefined;
      }, 20_000);
    });
  });

  describe('bought at checkout', () => {
    it('a checkout of several seats creates an organisation managed by the buyer; seat changes reach the processor subscription', async () => {
      const price = await system.price(productId, { currency: 'eur', unitAmount: 500, interval: 'month' });
      const buyer = await system.reader();
      const bought = await system.subscribe(buyer, price.id, { seats: 5, organisationName: 'Buyer Team' });
      expect((await system.fake.object('subscription', bought.processorId))['items'].data[0].quantity).toBe(5);
      const organisation: OrganisationView = await eventually(async () =>
        (await system.admin('/admin/organisations?limit=100')).body.items.find((o: OrganisationView) => o.processorSubscriptionId === bought.processorId),
      );
      expect(organisation).toMatchObject({ name: 'Buyer Team', productId, seats: 5, seatsUsed: 0, managerIds: [buyer.id] });
      // The buyer manages it on the site.
      const managed = await system.api('/organisations/managed', { key: system.publishableKey, token: buyer.accessToken });
      expect(managed.body.organisations.map((o: { organisation: OrganisationView }) => o.organisation.id)).toEqual([organisation.id]);
      const more = await system.admin(`/admin/organisations/${organisation.id}`, { method: 'PATCH', body: { seats: 8 } });
      expect(more.status).toBe(200);
      expect(more.body.seats).toBe(8);
      expect((await system.fake.object('subscription', bought.processorId))['items'].data[0].quantity).toBe(8);
      // Unlimited seats cannot be bought: refused, nothing changed here or at the processor.
      expect((await system.admin(`/admin/organisations/${organisation.id}`, { method: 'PATCH', body: { seats: null } })).body).toMatchObject({ status: 400, errors: [{ field: 'seats' }] });
      expect((await system.fake.object('subscription', bought.processorId))['items'].data[0].quantity).toBe(8);
      // The processor cancels the subscription: the organisation's term ends, and its member's access with it.
      const member = await system.reader();
      await system.admin(`/admin/organisations/${organisation.id}/invitations`, { body: { email: member.email } });
      const token = await sink.invitationTokenTo(member.email);
      expect((await system.api('/organisations/invitations/accept', { key: system.publishableKey, token: member.accessToken, body: { token } })).status).toBe(200);
      expect(await premium(member)).toMatchObject({ granted: true, reason: 'organisation', organisation: { name: 'Buyer Team' } });
      await system.deliverOk(await system.fake.deleteSubscription(bought.processorId));
      const ended: OrganisationView = await eventually(async () => {
        const current = (await system.admin(`/admin/organisations/${organisation.id}`)).body;
        return current.endsAt ? current : undefined;
      });
      expect(Date.parse(ended.endsAt as string)).toBeLessThanOrEqual(Date.now());
      expect(await premium(member)).toMatchObject({ granted: false, reason: 'blocked' });
      // A lifetime price is not sold by the seat.
      const lifetime = await system.price(productId, { currency: 'eur', unitAmount: 9900, interval: 'lifetime' });
      expect((await system.checkout(buyer, lifetime.id, { seats: 3 })).body).toMatchObject({ status: 400, errors: [{ field: 'seats' }] });
    });
  });
});
