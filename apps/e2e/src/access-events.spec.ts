import { AccessRequests, Events, type AccessStats, type EdgeCheckRecord, type PaywallView, type SegmentView } from '@gatehouse/contracts';
import { EdgeCheckRecorder } from '@gatehouse/gateway';
import { randomUUID } from 'node:crypto';
import { ACCESS_TIME, AccessSystem, SITE } from './support/access';
import { Client } from 'pg';
import { EventReader } from './support/events';

const EMITTED = [Events.NewsletterSubscribe, Events.DataSubmit, Events.PaywallShown, Events.PaywallDismissed, Events.PaywallConverted, Events.ExperimentAssigned];
const fieldsOf = (body: { errors?: Array<{ field: string }> }) => [...new Set((body.errors ?? []).map((e) => e.field))].sort();
const page = (path: string) => `${SITE}${path}`;

describe('track events through the gateway (decisions E8, spec 6.2)', () => {
  let system: AccessSystem;
  let reader: EventReader;
  let paywall: PaywallView;

  beforeAll(async () => {
    system = await AccessSystem.start();
    reader = await EventReader.start(system.namespace, EMITTED.map((e) => e.name));
    paywall = await system.paywall({ name: 'Events', type: 'hard', match: { include: ['/ev/**'] } });
  }, 60_000);

  afterAll(async () => {
    await reader?.close();
    await system?.close();
  });

  it('records a batch of gateway-answered checks once when the gateway sends it again after losing the answer', async () => {
    const third = (await system.admin<SegmentView>('/admin/segments', { body: { name: 'Third visit', match: 'all', conditions: [{ attribute: 'visit_count', operator: 'eq', value: 3 }] } })).body;
    await system.paywall({ name: 'On the third visit', type: 'hard', match: { include: ['/third/**'] }, segmentId: third.id });
    const visit: EdgeCheckRecord = { publicationId: system.publicationId, customerId: null, userId: 'resent', paywallId: null, experiment: null, counter: 'checks_granted' };
    const batch = { batchId: randomUUID(), checks: [visit, visit] };
    expect(await system.request(AccessRequests.RecordEdgeChecks, batch)).toEqual({ recorded: 2 });
    expect(await system.request(AccessRequests.RecordEdgeChecks, batch)).toEqual({ recorded: 0 });
    // Two visits recorded, not four: this check is the reader's third.
    expect(await system.decision({ url: '/third/a', userId: 'resent' })).toMatchObject({ granted: false, paywallRule: { name: 'On the third visit' } });
    expect(await system.decision({ url: '/third/a', userId: 'resent' })).toMatchObject({ granted: true, reason: 'no_rule' });
  });

  describe('intake', () => {
    it('accepts one event or a batch of up to 50 with 202 {accepted}', async () => {
      const one = await system.track({ type: 'page_view', url: page('/ev/a') });
      expect(one.status).toBe(202);
      expect(one.body).toEqual({ accepted: 1 });
      const fifty = Array.from({ length: 50 }, (_, i) => ({ type: 'page_view', url: page(`/ev/${i}`), userId: 'batch-reader' }));
      expect((await system.track({ events: fifty })).body).toEqual({ accepted: 50 });
      const tooMany = await system.track({ events: [...fifty, fifty[0]] });
      expect(tooMany.status).toBe(400);
      expect(fieldsOf(tooMany.body)).toEqual(['events']);
      expect(fieldsOf((await system.track({ events: [] })).body)).toEqual(['events']);
    });

    it('refuses data over 4 KiB as JSON, naming the field', async () => {
      const data = { note: 'x'.repeat(4096) };
      const single = await system.track({ type: 'data_submit', url: page('/ev/a'), data });
      expect(single.status).toBe(400);
      expect(fieldsOf(single.body)).toEqual(['data']);
      const batch = await system.track({ events: [{ type: 'page_view', url: page('/ev/a') }, { type: 'data_submit', url: page('/ev/a'), data }] });
      expect(fieldsOf(batch.body)).toEqual(['events[1].data']);
      const fits = { note: 'x'.repeat(4096 - '{"note":""}'.length) };
      expect((await system.track({ type: 'data_submit', url: page('/ev/a'), data: fits })).status).toBe(202);
    });

    it('refuses bad types, URLs, ids and times with 400 naming the field, and foreign URLs with 403', async () => {
      const refused = async (body: unknown) => {
        const answer = await system.track(body);
        expect(answer.status).toBe(400);
        expect(answer.body.code).toBe('validation_failed');
        return fieldsOf(answer.body);
      };
      expect(await refused({ type: 'page_click', url: page('/a') })).toEqual(['type']);
      expect(await refused({ type: 'page_view', url: '/relative' })).toEqual(['url']);
      expect(await refused({ events: [{ type: 'page_view', url: page('/a') }, { type: 'page_view', url: 'mailto:x@example.com' }] })).toEqual(['events[1].url']);
      expect(await refused({ type: 'page_view', url: page('/a'), data: ['not', 'an', 'object'] })).toEqual(['data']);
      expect(await refused({ type: 'page_view', url: page('/a'), extra: true })).toEqual(['extra']);
      expect(await refused({ type: 'paywall_shown', url: page('/ev/a') })).toEqual(['paywallId']);
      expect(await refused({ type: 'paywall_shown', url: page('/ev/a'), paywallId: randomUUID() })).toEqual(['paywallId']);
      expect(await refused({ type: 'paywall_shown', url: page('/ev/a'), paywallId: paywall.id, experimentId: randomUUID() })).toEqual(['variantId']);
      expect(await refused({ type: 'paywall_shown', url: page('/ev/a'), paywallId: paywall.id, experimentId: randomUUID(), variantId: randomUUID() })).toEqual([
        'experimentId',
      ]);
      const weekAgo = new Date(ACCESS_TIME.getTime() - 8 * 24 * 3600 * 1000).toISOString();
      expect(await refused({ type: 'page_view', url: page('/a'), occurredAt: weekAgo })).toEqual(['occurredAt']);
      expect(await refused({ type: 'page_view', url: page('/a'), occurredAt: 'yesterday' })).toEqual(['occurredAt']);
      expect(await refused([{ type: 'page_view', url: page('/a') }])).toEqual([]);
      expect(await refused('"page_view"')).toEqual([]);

      expect((await system.track({ type: 'page_view', url: 'https://elsewhere.example/a' })).body).toMatchObject({ status: 403, code: 'url_not_in_publication' });
      expect((await system.track({ type: 'page_view', url: page('/a') }, { key: system.secretKey })).body).toMatchObject({ status: 403, code: 'api_key_wrong_kind' });
    });

    it('records nothing of a batch it refuses', async () => {
      const newsletter = await system.paywall({ name: 'Newsletter', type: 'newsletter', match: { include: ['/nl/**'] } });
      const visitor = `visitor-${randomUUID()}`;
      const refused = await system.track({
        events: [
          { type: 'newsletter_subscribe', url: page('/nl/a'), userId: visitor, data: { email: 'refused@example.com' } },
          { type: 'page_view', url: 'not a url' },
        ],
      });
      expect(refused.status).toBe(400);
      expect(await system.decision({ url: '/nl/a', userId: visitor })).toMatchObject({ granted: false, paywallRule: { paywallId: newsletter.id } });
      expect(reader.all(Events.NewsletterSubscribe.name).some((e) => (e.data as { email: string }).email === 'refused@example.com')).toBe(false);
    });
  });

  describe('walls validate what opens them (issue 21)', () => {
    it('refuses a newsletter subscription without a valid email, and a data-wall submission missing or mistyping its fields, naming each; nothing recorded, the wall stays shut', async () => {
      const newsletter = await system.paywall({ name: 'Letters', type: 'newsletter', match: { include: ['/letters/**'] } });
      const data = await system.paywall({
        name: 'About you',
        type: 'data',
        config: {
          fields: [
            { name: 'work_email', label: 'Work email', type: 'email', required: true },
            { name: 'role', label: 'Role', type: 'text', required: true },
            { name: 'team_size', label: 'Team size', type: 'number', required: false },
          ],
        },
        match: { include: ['/about-you/**'] },
      });
      const visitor = `visitor-${randomUUID()}`;
      const refused = async (body: unknown) => {
        const answer = await system.track(body);
        expect(answer.status).toBe(400);
        expect(answer.body.code).toBe('validation_failed');
        return answer.body.errors as Array<{ field: string; message: string }>;
      };
      const subscribe = (email: unknown) => ({ type: 'newsletter_subscribe', url: page('/letters/a'), userId: visitor, paywallId: newsletter.id, data: { email } });
      for (const email of ['', '   ', 'not-an-email', 'a@', `${'x'.repeat(250)}@example.com`, 42, null]) {
        expect(await refused(subscribe(email))).toEqual([{ field: 'data.email', message: 'must be an email address' }]);
      }
      expect(await refused({ type: 'newsletter_subscribe', url: page('/letters/a'), userId: visitor })).toEqual([{ field: 'data.email', message: 'must be an email address' }]);
      expect(await refused({ events: [{ type: 'page_view', url: page('/letters/a') }, subscribe('')] })).toEqual([{ field: 'events[1].data.email', message: 'must be an email address' }]);

      const submit = (values: Record<string, unknown>) => ({ type: 'data_submit', url: page('/about-you/a'), userId: visitor, paywallId: data.id, data: values });
      expect(await refused(submit({ role: ' ' }))).toEqual([
        { field: 'data.work_email', message: 'is required' },
        { field: 'data.role', message: 'is required' },
      ]);
      expect(await refused(submit({ work_email: 'ada@', role: 'Editor', team_size: 'a dozen' }))).toEqual([
        { field: 'data.work_email', message: 'must be an email address' },
        { field: 'data.team_size', message: 'must be a number' },
      ]);

      // Nothing of it recorded: both walls still shut, no event went out.
      expect(await system.decision({ url: '/letters/a', userId: visitor })).toMatchObject({ granted: false, reason: 'blocked' });
      expect(await system.decision({ url: '/about-you/a', userId: visitor })).toMatchObject({ granted: false, reason: 'blocked' });
      expect(reader.all(Events.NewsletterSubscribe.name).some((e) => (e.data as { visitorId: string }).visitorId === visitor)).toBe(false);
      expect(reader.all(Events.DataSubmit.name).some((e) => (e.data as { visitorId: string }).visitorId === visitor)).toBe(false);

      // What is right opens them.
      expect((await system.track(subscribe(' ada@example.com '))).status).toBe(202);
      expect((await system.track(submit({ work_email: 'ada@example.com', role: 'Editor', team_size: '12' }))).status).toBe(202);
      expect(await system.decision({ url: '/letters/a', userId: visitor })).toMatchObject({ granted: true, reason: 'newsletter_passed' });
      expect(await system.decision({ url: '/about-you/a', userId: visitor })).toMatchObject({ granted: true, reason: 'data_passed' });
    });
  });

  describe('emitted events (docs/access.md)', () => {
    it('newsletter.subscribe carries the visitor, the page and the data; data.submit the names of the fields filled in, never their values', async () => {
      const customer = await system.reader();
      const visitor = `visitor-${randomUUID()}`;
      await system.track(
        { type: 'newsletter_subscribe', url: page('/ev/story'), userId: visitor, paywallId: paywall.id, data: { email: 'ada@example.com', list: 'daily' } },
        { token: customer.accessToken },
      );
      const subscribed = await reader.waitFor(Events.NewsletterSubscribe.name, (d: { visitorId: string }) => d.visitorId === visitor);
      expect(subscribed.publicationId).toBe(system.publicationId);
      expect(subscribed.data).toEqual({
        visitorId: visitor,
        customerId: customer.customer.id,
        url: page('/ev/story'),
        paywallId: paywall.id,
        occurredAt: ACCESS_TIME.toISOString(),
        email: 'ada@example.com',
        data: { email: 'ada@example.com', list: 'daily' },
      });

      const occurredAt = new Date(ACCESS_TIME.getTime() - 3600_000).toISOString();
      await system.track({ type: 'data_submit', url: page('/ev/form'), userId: visitor, data: { role: 'Managing Editor', phone: '+49 30 1234567', fax: '' }, occurredAt });
      const submitted = await reader.waitFor(Events.DataSubmit.name, (d: { visitorId: string }) => d.visitorId === visitor);
      expect(submitted.data).toEqual({ visitorId: visitor, customerId: null, url: page('/ev/form'), paywallId: null, occurredAt, fields: ['role', 'phone'] });
      // Nor does the outbox row (kept for a week, past what a reader's erasure reaches) hold them.
      const sql = new Client({ connectionString: system.databaseUrl });
      await sql.connect();
      try {
        const { rows } = await sql.query(`SELECT data::text AS data FROM access.outbox WHERE name = 'data.submit' AND data->>'visitorId' = $1`, [visitor]);
        expect(rows).toHaveLength(1);
        expect(rows[0].data).not.toMatch(/Managing Editor|1234567/);
      } finally {
        await sql.end();
      }
    });

    it('paywall.shown, .dismissed and .converted, and experiment.assigned for a shown variant', async () => {
      const meter = await system.paywall({ name: 'Meter', type: 'metered', config: { limit: 1, period: 'day' }, match: { include: ['/xp/**'] } });
      const experiment = await system.admin('/admin/experiments', {
        body: { name: 'Copy test', paywallId: meter.id, variants: [{ name: 'A', weight: 1 }, { name: 'B', weight: 1, overrides: { copy: { heading: 'B' } } }] },
      });
      await system.admin(`/admin/experiments/${experiment.body.id}/start`, { method: 'POST' });
      const visitor = `visitor-${randomUUID()}`;
      const { experiment: assignment } = await system.decision({ url: '/xp/a', userId: visitor });
      expect(assignment).toEqual({ experimentId: experiment.body.id, variantId: expect.any(String) });

      const common = { url: page('/xp/a'), userId: visitor, paywallId: meter.id, ...assignment };
      expect(
        (
          await system.track({
            events: [
              { type: 'paywall_shown', ...common },
              { type: 'paywall_dismissed', ...common },
              { type: 'paywall_converted', ...common },
            ],
          })
        ).body,
      ).toEqual({ accepted: 3 });
      const expected = {
        visitorId: visitor,
        customerId: null,
        url: page('/xp/a'),
        paywallId: meter.id,
        occurredAt: ACCESS_TIME.toISOString(),
        experimentId: assignment!.experimentId,
        variantId: assignment!.variantId,
      };
      for (const event of [Events.PaywallShown, Events.PaywallDismissed, Events.PaywallConverted]) {
        expect((await reader.waitFor(event.name, (d: { visitorId: string }) => d.visitorId === visitor)).data).toEqual(expected);
      }
      expect((await reader.waitFor(Events.ExperimentAssigned.name, (d: { visitorId: string }) => d.visitorId === visitor)).data).toEqual({
        experimentId: assignment!.experimentId,
        variantId: assignment!.variantId,
        paywallId: meter.id,
        visitorId: visitor,
        customerId: null,
      });

      // Without an experiment the ids are null, and nothing is assigned.
      const plain = `visitor-${randomUUID()}`;
      await system.track({ type: 'paywall_shown', url: page('/ev/a'), userId: plain, paywallId: paywall.id });
      expect((await reader.waitFor(Events.PaywallShown.name, (d: { visitorId: string }) => d.visitorId === plain)).data).toMatchObject({ experimentId: null, variantId: null });
      expect(reader.all(Events.ExperimentAssigned.name).some((e) => (e.data as { visitorId: string }).visitorId === plain)).toBe(false);
    });
  });

  describe('hourly rollups (AccessRequests.GetStats, for the stats view)', () => {
    it('counts checks granted and denied, shown, dismissed and converted, per paywall and per variant', async () => {
      const stats = (from: Date, to: Date, interval: 'day' | 'hour' = 'hour'): Promise<AccessStats> =>
        system.busClient.request(AccessRequests.GetStats, { publicationId: system.publicationId, from: from.toISOString(), to: to.toISOString(), interval });
      // An hour of its own, so the other tests' counts stay out.
      const hour = new Date('2031-03-16T08:00:00.000Z');
      system.clock.set(new Date(hour.getTime() + 15 * 60_000));
      try {
        const meter = await system.paywall({ name: 'Counted', type: 'metered', config: { limit: 1, period: 'month' }, match: { include: ['/st/**'] } });
        const experiment = await system.admin('/admin/experiments', {
          body: { name: 'Counted test', paywallId: meter.id, variants: [{ name: 'Only', weight: 1 }, { name: 'Never', weight: 0 }] },
        });
        await system.admin(`/admin/experiments/${experiment.body.id}/start`, { method: 'POST' });
        const only = experiment.body.variants[0].id;
        const visitor = `visitor-${randomUUID()}`;
        expect((await system.decision({ url: '/st/a', userId: visitor })).granted).toBe(true);
        expect((await system.decision({ url: '/st/b', userId: visitor })).granted).toBe(false);
        expect((await system.decision({ url: '/st/c', userId: visitor })).granted).toBe(false);
        expect((await system.decision({ url: '/free/a' })).reason).toBe('no_rule');
        const common = { url: page('/st/b'), userId: visitor, paywallId: meter.id, experimentId: experiment.body.id, variantId: only };
        await system.track({ events: [{ type: 'paywall_shown', ...common }, { type: 'paywall_shown', ...common }, { type: 'paywall_converted', ...common }] });
        await system.track({ type: 'paywall_dismissed', url: page('/ev/a'), paywallId: paywall.id });

        // The no-rule check was answered at the gateway, which hands its records to access in batches;
        // the stats route waits for them, and so does this request sent over the bus.
        await system.gateway.app.get(EdgeCheckRecorder).flush();
        const result = await stats(hour, new Date(hour.getTime() + 3 * 3600_000));
        expect(result.totals).toEqual({ checksGranted: 2, checksDenied: 2, crawlerChecks: 0, shown: 2, dismissed: 1, converted: 1 });
        expect(result.series).toEqual([
          { start: '2031-03-16T08:00:00.000Z', ...result.totals },
          { start: '2031-03-16T09:00:00.000Z', checksGranted: 0, checksDenied: 0, crawlerChecks: 0, shown: 0, dismissed: 0, converted: 0 },
          { start: '2031-03-16T10:00:00.000Z', checksGranted: 0, checksDenied: 0, crawlerChecks: 0, shown: 0, dismissed: 0, converted: 0 },
        ]);
        expect(result.paywalls).toEqual(
          expect.arrayContaining([
            { paywallId: meter.id, name: 'Counted', checksGranted: 1, checksDenied: 2, crawlerChecks: 0, shown: 2, dismissed: 0, converted: 1 },
            { paywallId: paywall.id, name: 'Events', checksGranted: 0, checksDenied: 0, crawlerChecks: 0, shown: 0, dismissed: 1, converted: 0 },
          ]),
        );
        expect(result.paywalls).toHaveLength(2);
        expect(result.variants).toEqual([
          {
            experimentId: experiment.body.id,
            variantId: only,
            paywallId: meter.id,
            experimentName: 'Counted test',
            variantName: 'Only',
            checksGranted: 1,
            checksDenied: 2,
            crawlerChecks: 0,
            shown: 2,
            dismissed: 0,
            converted: 1,
          },
          // Every variant of a counted experiment is listed, in its order, zeros included.
          {
            experimentId: experiment.body.id,
            variantId: experiment.body.variants[1].id,
            paywallId: meter.id,
            experimentName: 'Counted test',
            variantName: 'Never',
            checksGranted: 0,
            checksDenied: 0,
            crawlerChecks: 0,
            shown: 0,
            dismissed: 0,
            converted: 0,
          },
        ]);

        const daily = await stats(new Date('2031-03-16T13:00:00.000Z'), new Date('2031-03-18T00:00:00.000Z'), 'day');
        expect(daily.from).toBe('2031-03-16T00:00:00.000Z');
        expect(daily.series.map((b) => b.start)).toEqual(['2031-03-16T00:00:00.000Z', '2031-03-17T00:00:00.000Z']);
        expect(daily.series[0]).toMatchObject(result.totals);
        expect(daily.totals).toEqual(result.totals);

        await expect(stats(hour, hour)).rejects.toMatchObject({ code: 'validation_failed', problem: { errors: [{ field: 'to' }] } });
        await expect(stats(hour, new Date(hour.getTime() + 40 * 24 * 3600_000))).rejects.toMatchObject({ problem: { errors: [{ field: 'to' }] } });
      } finally {
        system.clock.set(ACCESS_TIME);
      }
    });
  });
});
