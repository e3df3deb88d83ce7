import { Gatehouse } from '@gatehouse/node';
import { eventually } from '@gatehouse/testing';
import { randomUUID } from 'node:crypto';
import { BillingSystem, SECRET_KEY, WEBHOOK_SECRET } from './support/billing';
import type { Call } from './support/http';

jest.setTimeout(120_000);

const CSV = { 'Content-Type': 'text/csv' };
const HEADER = 'email,name,product,interval,currency,amount,current_period_end,processor_customer_id,processor_subscription_id';
const NEXT_YEAR = `${new Date().getUTCFullYear() + 1}-06-30T00:00:00.000Z`;

/**
 * Moving a subscriber base in and out (issue #27 item 6; docs/imports.md), through the gateway as
 * the dashboard and a publisher's server do it, against the fake processor.
 */
describe('imports and exports of customers and subscriptions', () => {
  let system: BillingSystem;
  const plans = [
    { name: 'Digital', price: { currency: 'eur', unitAmount: 900, interval: 'month' } },
    { name: 'Print, weekend', price: { currency: 'eur', unitAmount: 9900, interval: 'year' } },
  ];

  /** The same catalog in a publication: products by name, a price each. */
  async function catalog(session: string): Promise<string[]> {
    const priceIds: string[] = [];
    for (const plan of plans) {
      const product = await system.api('/admin/products', { session, body: { name: plan.name } });
      priceIds.push((await system.api(`/admin/products/${product.body.id}/prices`, { session, body: plan.price })).body.id);
    }
    return priceIds;
  }

  const upload = (file: string, options: Call & { query?: string } = {}) =>
    system.api(`/admin/imports${options.query ?? ''}`, { session: system.session, body: file, headers: CSV, ...options });

  /** The job once its pass is over (`checked` or `imported`). */
  const settled = (id: string, session = system.session) =>
    eventually(async () => {
      const answer = await system.api(`/admin/imports/${id}`, { session });
      return answer.status === 200 && ['checked', 'imported'].includes(answer.body.status) ? answer.body : undefined;
    }, 60_000);

  /** Upload, check, run: the job once imported. */
  async function importFile(file: string, session = system.session, query = ''): Promise<any> {
    const uploaded = await system.api(`/admin/imports${query}`, { session, body: file, headers: CSV });
    expect(uploaded.status).toBe(201);
    await settled(uploaded.body.id, session);
    const run = await system.api(`/admin/imports/${uploaded.body.id}/run`, { session, method: 'POST' });
    expect(run.status).toBe(200);
    return settled(uploaded.body.id, session);
  }

  const exportOf = async (session = system.session): Promise<string> => {
    const answer = await system.api('/admin/exports/customers', { session });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/csv/);
    return answer.body as string;
  };

  const customerCount = async (publicationId = system.publicationId) =>
    Number((await system.querySchema('identity', 'SELECT count(*) FROM customers WHERE publication_id = $1', [publicationId]))[0].count);
  const subscriptionCount = async (publicationId = system.publicationId) =>
    Number((await system.query('SELECT count(*) FROM subscriptions WHERE publication_id = $1', [publicationId]))[0].count);

  beforeAll(async () => {
    system = await BillingSystem.start();
    await system.connectProcessor();
    await catalog(system.session);
  });

  afterAll(async () => {
    await system?.close();
  });

  it('reports each bad row with its line and why in the dry run, and imports nothing until run', async () => {
    const id = randomUUID().slice(0, 8);
    const file = [
      HEADER,
      `good-${id}@example.com,Ada Good,Digital,month,eur,900,${NEXT_YEAR},,`,
      `not-an-email,Bad Email,,,,,,,`,
      `multi-${id}@example.com,"Lovelace, Ada`,
      `(née Byron)",,,,,,,`,
      `partial-${id}@example.com,No Amount,Digital,month,eur,,,,`,
      `unknown-${id}@example.com,No Such Plan,Gold,month,eur,900,,,`,
      `missing-${id}@example.com,Missing Sub,Digital,month,eur,900,,,sub_doesnotexist`,
      `ended-${id}@example.com,Ended,Digital,month,eur,900,2001-01-01,,`,
    ].join('\n');

    const uploaded = await upload(file);
    expect(uploaded.status).toBe(201);
    expect(uploaded.body).toMatchObject({ status: 'checking', totalRows: 7, notifyReaders: false });
    const report = await settled(uploaded.body.id);

    expect(report).toMatchObject({ status: 'checked', totalRows: 7, processedRows: 7, failedRows: 5 });
    expect(report.problems.map((problem: { line: number }) => problem.line)).toEqual([3, 6, 7, 8, 9]);
    const reason = (line: number) => report.problems.find((problem: { line: number }) => problem.line === line).reason;
    expect(reason(3)).toMatch(/^email must be an email address/);
    expect(reason(6)).toBe('a plan needs all of product, interval, currency, amount; missing amount');
    expect(reason(7)).toMatch(/^no price of "Gold" at 900 eur a month in this publication/);
    expect(reason(8)).toBe('the processor has no subscription sub_doesnotexist');
    expect(reason(9)).toMatch(/^current_period_end has passed/);
    expect(report.customers).toEqual({ created: 2, unchanged: 0 });
    expect(report.subscriptions).toEqual({ created: 1, unchanged: 0 });

    // The dry run imported nothing.
    for (const email of [`good-${id}@example.com`, `multi-${id}@example.com`]) {
      expect((await system.admin(`/customers?email=${encodeURIComponent(email)}`)).body.items).toEqual([]);
    }

    // Run: the good rows come in, the bad ones are skipped.
    const run = await system.admin(`/admin/imports/${uploaded.body.id}/run`, { method: 'POST' });
    expect(run.status).toBe(200);
    expect(run.body.status).toBe('importing');
    const done = await settled(uploaded.body.id);
    expect(done).toMatchObject({ status: 'imported', failedRows: 5, customers: { created: 2, unchanged: 0 }, subscriptions: { created: 1, unchanged: 0 } });
    const [good] = (await system.admin(`/customers?email=good-${id}@example.com`)).body.items;
    expect(good).toMatchObject({ name: 'Ada Good', hasPassword: false });
    expect(await system.subscriptionsOf(good.id)).toEqual([expect.objectContaining({ source: 'manual', status: 'active', currentPeriodEnd: NEXT_YEAR })]);
    expect((await system.admin(`/customers?email=multi-${id}@example.com`)).body.items[0].name).toBe('Lovelace, Ada\n(née Byron)');
    expect((await system.admin(`/customers?email=unknown-${id}@example.com`)).body.items).toEqual([]);
    // A run happens once.
    expect((await system.admin(`/admin/imports/${uploaded.body.id}/run`, { method: 'POST' })).status).toBe(409);
  });

  it('links processor subscriptions by id, grants the rest, emails nobody, and a rerun of the file changes nothing', async () => {
    const [digital] = await catalogPrices();
    const processorPrice = await system.processorPriceId(digital);
    const { subscription } = await system.fake.createSubscription({ price: processorPrice });
    const id = randomUUID().slice(0, 8);
    const rows = Array.from({ length: 1_000 }, (_, i) =>
      i % 2 === 0 ? `bulk-${i}-${id}@example.com,Reader ${i},Digital,month,eur,900,${NEXT_YEAR},,` : `bulk-${i}-${id}@example.com,Reader ${i},,,,,,,`,
    );
    rows.push(`linked-${id}@example.com,Linked Reader,Digital,month,eur,900,,${subscription.customer},${subscription.id}`);
    const file = [HEADER, ...rows].join('\r\n') + '\r\n';
    const [customersBefore, subscriptionsBefore] = [await customerCount(), await subscriptionCount()];

    const first = await importFile(file);
    expect(first).toMatchObject({ status: 'imported', totalRows: 1_001, failedRows: 0, customers: { created: 1_001, unchanged: 0 }, subscriptions: { created: 501, unchanged: 0 } });
    expect(await customerCount()).toBe(customersBefore + 1_001);
    expect(await subscriptionCount()).toBe(subscriptionsBefore + 501);
    const [linked] = (await system.admin(`/customers?email=linked-${id}@example.com`)).body.items;
    expect(await system.subscriptionsOf(linked.id)).toEqual([expect.objectContaining({ source: 'processor', status: 'active', priceId: digital })]);
    // The processor's account is the reader's now: the portal opens for them.
    expect((await system.api('/subscriptions/portal', { key: system.secretKey, body: { customerId: linked.id, returnUrl: 'https://billing.example/account' } })).status).toBe(201);
    // Nobody asked for email: none was queued for the imported readers.
    expect(await system.querySchema('identity', "SELECT id FROM email_messages WHERE to_address LIKE $1", [`%-${id}@example.com`])).toEqual([]);

    const exported = await exportOf();
    const again = await importFile(file);
    expect(again).toMatchObject({ status: 'imported', failedRows: 0, customers: { created: 0, unchanged: 1_001 }, subscriptions: { created: 0, unchanged: 501 } });
    expect(await customerCount()).toBe(customersBefore + 1_001);
    expect(await subscriptionCount()).toBe(subscriptionsBefore + 501);
    expect(await exportOf()).toBe(exported);
  });

  it("links a reader's processor account by its id, once the processor knows it", async () => {
    const [digital] = await catalogPrices();
    const { subscription } = await system.fake.createSubscription({ price: await system.processorPriceId(digital) });
    const id = randomUUID().slice(0, 8);
    const file = `email,name,processor_customer_id\naccount-${id}@example.com,Account Holder,${subscription.customer}\nnobody-${id}@example.com,Nobody,cus_doesnotexist\n`;
    const job = await importFile(file);
    expect(job).toMatchObject({ customers: { created: 1, unchanged: 0 }, subscriptions: { created: 0, unchanged: 0 } });
    expect(job.problems).toEqual([{ line: 3, reason: 'the processor has no customer cus_doesnotexist' }]);
    const [holder] = (await system.admin(`/customers?email=account-${id}@example.com`)).body.items;
    expect(await system.subscriptionsOf(holder.id)).toEqual([]);
    expect((await system.api('/subscriptions/portal', { key: system.secretKey, body: { customerId: holder.id, returnUrl: 'https://billing.example/account' } })).status).toBe(201);
    expect((await exportOf()).split('\r\n')).toContain(`account-${id}@example.com,Account Holder,,,,,,${subscription.customer},`);
  });

  it('sends the verification message to the new readers when asked, and only to them', async () => {
    const id = randomUUID().slice(0, 8);
    const existing = await system.reader();
    const file = `email,name\nnotified-${id}@example.com,Notified\n${existing.email},Already Here\n`;
    const job = await importFile(file, system.session, '?notifyReaders=true');
    expect(job).toMatchObject({ notifyReaders: true, customers: { created: 1, unchanged: 1 } });
    const mails = await system.querySchema('identity', 'SELECT to_address, kind FROM email_messages WHERE to_address = ANY($1)', [[`notified-${id}@example.com`, existing.email]]);
    expect(mails.filter((mail) => mail.to_address === `notified-${id}@example.com`)).toEqual([{ to_address: `notified-${id}@example.com`, kind: 'email_verification' }]);
    // The existing reader got only their own registration's message, nothing from the import.
    expect(mails.filter((mail) => mail.to_address === existing.email)).toHaveLength(1);
  });

  it('imports JSON Lines, reporting a bad line by its number', async () => {
    const id = randomUUID().slice(0, 8);
    const file = [
      JSON.stringify({ email: `json-${id}@example.com`, name: 'Json Reader', product: 'Print, weekend', interval: 'year', currency: 'EUR', amount: 9900 }),
      '',
      '{"email": "broken',
      JSON.stringify({ email: `other-${id}@example.com`, name: 'Other', colour: 'blue' }),
    ].join('\n');
    const uploaded = await upload(file, { headers: { 'Content-Type': 'application/x-ndjson' } });
    expect(uploaded.status).toBe(201);
    const report = await settled(uploaded.body.id);
    expect(report.problems).toEqual([
      { line: 3, reason: 'not valid JSON' },
      { line: 4, reason: `unknown keys colour; the keys are ${HEADER.split(',').join(', ')}` },
    ]);
    expect(report.subscriptions.created).toBe(1);
  });

  it('exports a publication that imports into a fresh one as the same customers and subscriptions', async () => {
    const source = await exportOf();
    expect(source.split('\r\n')[0]).toBe(HEADER);
    expect(source).toContain('"Lovelace, Ada\n(née Byron)"');
    const fresh = await system.otherPublicationSession();
    await system.api('/admin/processor', { method: 'PUT', session: fresh.session, body: { secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET } });
    await catalog(fresh.session);

    const job = await importFile(source, fresh.session);
    expect(job).toMatchObject({ status: 'imported', failedRows: 0 });
    expect(await exportOf(fresh.session)).toBe(source);
    expect(await customerCount(fresh.publicationId)).toBe(await customerCount());
  });

  it("keeps each publication's imports to itself", async () => {
    const uploaded = await upload(`email,name\nmine-${randomUUID()}@example.com,Mine\n`);
    const other = await system.otherPublication();
    const { session } = await system.otherPublicationSession();
    for (const call of [{ session }, { key: other.secretKey }]) {
      expect((await system.api(`/admin/imports/${uploaded.body.id}`, call)).status).toBe(404);
      expect((await system.api(`/admin/imports/${uploaded.body.id}/run`, { ...call, method: 'POST' })).status).toBe(404);
      expect((await system.api('/admin/imports', call)).body.items.map((job: { id: string }) => job.id)).not.toContain(uploaded.body.id);
      expect((await system.api('/admin/exports/customers', call)).body).toBe(`${HEADER}\r\n`);
    }
    // Its own staff still see it.
    expect((await system.admin(`/admin/imports/${uploaded.body.id}`)).status).toBe(200);
  });

  it('refuses bad uploads with problem details, changing nothing', async () => {
    const before = (await system.admin('/admin/imports?limit=100')).body.items.length;
    const refusals: Array<[Promise<any>, number, string, RegExp]> = [
      [upload('mail,name\nx@example.com,X\n'), 400, 'validation_failed', /columns the import does not know: mail/],
      [upload('email\nx@example.com\n'), 400, 'validation_failed', /lacks name/],
      [upload(''), 400, 'validation_failed', /empty/],
      [upload(`${HEADER}\n`), 400, 'validation_failed', /no rows/],
      [upload('email,name\nx@example.com,X\n', { query: '?notifyReaders=yes' }), 400, 'validation_failed', /true or false/],
      [system.admin('/admin/imports', { body: { email: 'x@example.com', name: 'X' } }), 415, 'unsupported_media_type', /text\/csv/],
      [upload(`email,name\n${'x'.repeat(33 * 1024 * 1024)}\n`), 413, 'payload_too_large', /32 MiB/],
      [system.api('/customers', { key: system.secretKey, body: 'email,name\n', headers: CSV }), 415, 'unsupported_media_type', /JSON/],
    ];
    for (const [answer, status, code, detail] of refusals) {
      const got = await answer;
      expect({ status: got.status, code: got.body.code }).toEqual({ status, code });
      expect(got.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(`${got.body.detail} ${JSON.stringify(got.body.errors ?? [])}`).toMatch(detail);
    }
    const viewer = await system.staffSession('viewer', system.publicationId);
    expect((await upload('email,name\nx@example.com,X\n', { session: viewer.session })).status).toBe(403);
    expect((await system.admin('/admin/imports?limit=100')).body.items).toHaveLength(before);
  });

  it('runs through the Node client with the secret key, and resumes after admin restarts mid-import', async () => {
    const client = new Gatehouse({ baseUrl: system.gateway.url, secretKey: system.secretKey });
    const id = randomUUID().slice(0, 8);
    const rows = Array.from({ length: 1_500 }, (_, i) => `resumed-${i}-${id}@example.com,Reader ${i},Digital,month,eur,900,,,`);
    const uploaded = await client.imports.upload([HEADER, ...rows].join('\n'));
    expect(uploaded.status).toBe('checking');
    await eventually(async () => ((await client.imports.get(uploaded.id)).status === 'checked' ? true : undefined), 60_000);
    expect((await client.imports.list()).items[0].id).toBe(uploaded.id);
    await client.imports.run(uploaded.id);
    const [admin] = system.replicasOf('admin');
    await system.stopReplica(admin);
    await system.startReplica('admin');
    const done = await eventually(async () => {
      const job = await client.imports.get(uploaded.id);
      return job.status === 'imported' ? job : undefined;
    }, 60_000);
    expect(done).toMatchObject({ processedRows: 1_500, failedRows: 0 });
    const imported = await system.querySchema('identity', 'SELECT id FROM customers WHERE email LIKE $1', [`resumed-%-${id}@example.com`]);
    expect(imported).toHaveLength(1_500);
    const granted = await system.query('SELECT customer_id FROM subscriptions WHERE customer_id = ANY($1)', [imported.map((row) => row.id)]);
    expect(granted).toHaveLength(1_500);
    expect(await client.imports.export()).toContain(`resumed-0-${id}@example.com,Reader 0,Digital,month,eur,900,,,`);
  });

  async function catalogPrices(): Promise<string[]> {
    const rows = await system.query<{ id: string }>(
      'SELECT pr.id FROM prices pr JOIN products p ON p.id = pr.product_id WHERE pr.publication_id = $1 ORDER BY p.name',
      [system.publicationId],
    );
    return rows.map((row) => row.id);
  }
});
