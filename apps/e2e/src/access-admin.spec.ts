import type { ExperimentView, PaywallView, SegmentView } from '@gatehouse/contracts';
import { randomUUID } from 'node:crypto';
import { AccessSystem } from './support/access';
import { call } from './support/http';

const fieldsOf = (body: { errors?: Array<{ field: string }> }) => [...new Set((body.errors ?? []).map((e) => e.field))].sort();

describe('paywalls, segments and experiments in the dashboard (decisions E4, E7, H2, H4)', () => {
  let system: AccessSystem;

  beforeAll(async () => {
    system = await AccessSystem.start();
  }, 60_000);

  afterAll(() => system?.close());

  describe('paywalls', () => {
    it('creates with defaults, reads, changes and deletes', async () => {
      const created = await system.admin<PaywallView>('/admin/paywalls', { body: { name: 'Premium', type: 'hard', match: { include: ['/premium/**'] } } });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.any(String),
        name: 'Premium',
        type: 'hard',
        config: {},
        oneTimePriceIds: [],
        match: { include: ['/premium/**'], exclude: [] },
        segmentId: null,
        priority: 100,
        enabled: true,
        presentation: 'modal',
        copy: null,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      const path = `/admin/paywalls/${created.body.id}`;
      expect((await system.admin(path)).body).toEqual(created.body);

      const changed = await system.admin<PaywallView>(path, {
        method: 'PATCH',
        body: { type: 'metered', config: { limit: 5, period: 'week' }, presentation: 'inline', copy: { heading: 'Keep reading', description: null } },
      });
      expect(changed.status).toBe(200);
      expect(changed.body).toMatchObject({ name: 'Premium', type: 'metered', config: { limit: 5, period: 'week' }, presentation: 'inline', copy: { heading: 'Keep reading' } });
      expect((await system.admin(path)).body).toEqual(changed.body);
      expect((await system.admin(path, { method: 'PATCH', body: { copy: null, match: { include: ['/a/**'], exclude: ['/a/free/**'] } } })).body).toMatchObject({
        copy: null,
        match: { include: ['/a/**'], exclude: ['/a/free/**'] },
      });

      expect((await system.admin(path, { method: 'DELETE' })).status).toBe(204);
      expect((await system.admin(path)).body).toMatchObject({ status: 404, code: 'not_found' });
      expect((await system.admin(path, { method: 'DELETE' })).status).toBe(404);
    });

    it('refuses what makes no sense with 400 naming the field', async () => {
      const refused = async (body: object, method = 'POST', path = '/admin/paywalls') => {
        const answer = await system.admin(path, { method, body });
        expect(answer.status).toBe(400);
        expect(answer.body.code).toBe('validation_failed');
        return fieldsOf(answer.body);
      };
      const valid = { name: 'P', type: 'hard', match: { include: ['/p/**'] } };
      expect(await refused({ ...valid, match: { include: ['premium/**', '/ok/**'], exclude: ['/a**'] } })).toEqual(['match.exclude[0]', 'match.include[0]']);
      expect(await refused({ ...valid, match: { include: [] } })).toEqual(['match.include']);
      expect(await refused({ ...valid, type: 'metered' })).toEqual(['config.limit', 'config.period']);
      expect(await refused({ ...valid, type: 'metered', config: { limit: 0, period: 'fortnight' } })).toEqual(['config.limit', 'config.period']);
      expect(await refused({ ...valid, config: { limit: 3 } })).toEqual(['config.limit']);
      expect(await refused({ ...valid, type: 'data', config: { fields: [{ name: 'e mail', label: 'Email', type: 'email' }] } })).toEqual(['config.fields[0].name']);
      expect(await refused({ ...valid, type: 'paywall', priority: -1, presentation: 'popup', enabled: 'yes' })).toEqual(['enabled', 'presentation', 'priority', 'type']);
      expect(await refused({ ...valid, segmentId: randomUUID() })).toEqual(['segmentId']);
      expect(await refused({ ...valid, copy: { heading: 42, colour: 'red' } })).toEqual(['copy.colour', 'copy.heading']);
      expect(await refused({ ...valid, owner: 'me' })).toEqual(['owner']);
      expect(await refused({ name: 'P', type: 'hard' })).toEqual(['match']);

      const paywall = await system.paywall(valid as never);
      expect(await refused({ type: 'metered' }, 'PATCH', `/admin/paywalls/${paywall.id}`)).toEqual(['config.limit', 'config.period']);
      expect((await system.admin(`/admin/paywalls/${paywall.id}`)).body).toMatchObject({ type: 'hard', config: {} });
    });

    it('lists in priority order, a page at a time', async () => {
      const fresh = await anotherPublication();
      for (const priority of [30, 10, 50, 20, 40]) {
        expect((await fresh.admin('/admin/paywalls', { body: { name: `P${priority}`, type: 'soft', priority, match: { include: ['/**'] } } })).status).toBe(201);
      }
      const names: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page: { status: number; body: { items: PaywallView[]; nextCursor: string | null } } = await fresh.admin(
          `/admin/paywalls?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
        );
        expect(page.status).toBe(200);
        expect(page.body.items.length).toBeLessThanOrEqual(2);
        names.push(...page.body.items.map((p) => p.name));
        cursor = page.body.nextCursor;
        pages += 1;
      } while (cursor);
      expect(names).toEqual(['P10', 'P20', 'P30', 'P40', 'P50']);
      expect(pages).toBe(3);
      expect((await fresh.admin('/admin/paywalls')).body.items).toHaveLength(5);
      expect(fieldsOf((await fresh.admin('/admin/paywalls?limit=0')).body)).toEqual(['limit']);
      expect(fieldsOf((await fresh.admin('/admin/paywalls?limit=101')).body)).toEqual(['limit']);
      expect(fieldsOf((await fresh.admin('/admin/paywalls?cursor=not-a-cursor')).body)).toEqual(['cursor']);
      const forged = Buffer.from(JSON.stringify(['x', 'y', 'z'])).toString('base64url');
      expect(fieldsOf((await fresh.admin(`/admin/paywalls?cursor=${forged}`)).body)).toEqual(['cursor']);
    });
  });

  describe('segments', () => {
    it('creates, reads, lists, changes and deletes; refuses deleting one a paywall uses', async () => {
      const created = await system.admin<SegmentView>('/admin/segments', {
        body: { name: 'Mobile from search', match: 'all', conditions: [{ attribute: 'device', operator: 'eq', value: 'mobile' }] },
      });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.any(String),
        name: 'Mobile from search',
        match: 'all',
        conditions: [{ attribute: 'device', operator: 'eq', value: 'mobile' }],
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      const path = `/admin/segments/${created.body.id}`;
      const changed = await system.admin(path, { method: 'PATCH', body: { match: 'any', conditions: [{ attribute: 'visit_count', operator: 'gt', value: 3 }] } });
      expect(changed.body).toMatchObject({ name: 'Mobile from search', match: 'any', conditions: [{ attribute: 'visit_count', operator: 'gt', value: 3 }] });
      expect((await system.admin('/admin/segments')).body.items.map((s: SegmentView) => s.id)).toContain(created.body.id);
      expect((await system.admin(path, { method: 'PATCH', body: { name: null, conditions: null } })).body).toEqual(changed.body);

      const paywall = await system.paywall({ name: 'Segmented', type: 'hard', match: { include: ['/seg/**'] }, segmentId: created.body.id });
      expect(paywall.segmentId).toBe(created.body.id);
      expect((await system.admin(path, { method: 'DELETE' })).body).toMatchObject({ status: 409, code: 'conflict' });
      await system.admin(`/admin/paywalls/${paywall.id}`, { method: 'PATCH', body: { segmentId: null } });
      expect((await system.admin(path, { method: 'DELETE' })).status).toBe(204);
      expect((await system.admin(path)).status).toBe(404);
    });

    it('refuses conditions that could not be evaluated, naming the field', async () => {
      const answer = await system.admin('/admin/segments', {
        body: {
          name: 'Bad',
          match: 'some',
          conditions: [
            { attribute: 'device', operator: 'gt', value: 'mobile' },
            { attribute: 'country', operator: 'eq', value: 'Germany' },
            { attribute: 'visit_count', operator: 'in', value: 3 },
            { attribute: 'shoe_size', operator: 'eq', value: 42 },
          ],
        },
      });
      expect(answer.status).toBe(400);
      expect(fieldsOf(answer.body)).toEqual(['conditions[3].attribute', 'match']);
      const semantic = await system.admin('/admin/segments', {
        body: {
          name: 'Bad',
          match: 'all',
          conditions: [
            { attribute: 'device', operator: 'gt', value: 'mobile' },
            { attribute: 'country', operator: 'eq', value: 'Germany' },
            { attribute: 'visit_count', operator: 'in', value: 3 },
          ],
        },
      });
      expect(fieldsOf(semantic.body)).toEqual(['conditions[0].operator', 'conditions[1].value', 'conditions[2].value']);
      expect(fieldsOf((await system.admin('/admin/segments', { body: { name: 'Empty', match: 'all', conditions: [] } })).body)).toEqual(['conditions']);
    });
  });

  describe('experiments', () => {
    it('goes from draft to running to stopped, one running experiment per paywall', async () => {
      const paywall = await system.paywall({ name: 'Meter', type: 'metered', config: { limit: 3, period: 'month' }, match: { include: ['/exp/**'] } });
      const body = {
        name: 'Limits',
        paywallId: paywall.id,
        variants: [
          { name: 'Three', weight: 50 },
          { name: 'Five', weight: 50, overrides: { config: { limit: 5 } } },
        ],
      };
      const created = await system.admin<ExperimentView>('/admin/experiments', { body });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.any(String),
        name: 'Limits',
        paywallId: paywall.id,
        status: 'draft',
        variants: [
          { id: expect.any(String), name: 'Three', weight: 50, overrides: {} },
          { id: expect.any(String), name: 'Five', weight: 50, overrides: { config: { limit: 5 } } },
        ],
        startedAt: null,
        stoppedAt: null,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      const path = `/admin/experiments/${created.body.id}`;
      const [three, five] = created.body.variants;
      // A draft's variants change; kept ids stay.
      const edited = await system.admin<ExperimentView>(path, {
        method: 'PATCH',
        body: { variants: [{ id: three.id, name: 'Three', weight: 70 }, { id: five.id, name: 'Five', weight: 30, overrides: { config: { limit: 5 } } }] },
      });
      expect((await system.admin(path, { method: 'PATCH', body: { name: null, variants: null } })).body).toMatchObject({ name: 'Limits', variants: edited.body.variants });
      expect(edited.body.variants.map((v) => [v.id, v.weight])).toEqual([
        [three.id, 70],
        [five.id, 30],
      ]);

      const started = await system.admin(`${path}/start`, { method: 'POST' });
      expect(started.status).toBe(200);
      expect(started.body).toMatchObject({ status: 'running', startedAt: expect.any(String), stoppedAt: null });
      expect((await system.admin(`${path}/start`, { method: 'POST' })).body).toMatchObject({ status: 409, code: 'conflict' });
      expect((await system.admin(path, { method: 'PATCH', body: { variants: body.variants } })).body).toMatchObject({ status: 409, code: 'conflict' });
      expect((await system.admin(path, { method: 'PATCH', body: { name: 'Limits, renamed' } })).body).toMatchObject({ name: 'Limits, renamed', status: 'running' });
      expect((await system.admin(path, { method: 'DELETE' })).body).toMatchObject({ status: 409, code: 'conflict' });
      expect((await system.admin(`/admin/paywalls/${paywall.id}`, { method: 'DELETE' })).body).toMatchObject({ status: 409, code: 'conflict' });

      system.clock.advance(1_000);
      const rival = await system.admin('/admin/experiments', { body: { ...body, name: 'Rival' } });
      expect((await system.admin(`/admin/experiments/${rival.body.id}/start`, { method: 'POST' })).body).toMatchObject({ status: 409, code: 'conflict' });

      const stopped = await system.admin(`${path}/stop`, { method: 'POST' });
      expect(stopped.body).toMatchObject({ status: 'stopped', stoppedAt: expect.any(String) });
      expect((await system.admin(`${path}/stop`, { method: 'POST' })).body).toMatchObject({ status: 409 });
      expect((await system.admin(`${path}/start`, { method: 'POST' })).body).toMatchObject({ status: 409 });
      expect((await system.admin(`/admin/experiments/${rival.body.id}/start`, { method: 'POST' })).status).toBe(200);
      expect((await system.admin('/admin/experiments?limit=1')).body).toMatchObject({ items: [{ id: rival.body.id }], nextCursor: expect.any(String) });

      expect((await system.admin(path, { method: 'DELETE' })).status).toBe(204);
      expect((await system.admin(path)).status).toBe(404);
    });

    it('refuses bad weights, unknown paywalls and overrides that do not suit the paywall, naming the field', async () => {
      const paywall = await system.paywall({ name: 'Meter', type: 'metered', config: { limit: 3, period: 'month' }, match: { include: ['/exp2/**'] } });
      const refused = async (body: object) => {
        const answer = await system.admin('/admin/experiments', { body });
        expect(answer.status).toBe(400);
        return fieldsOf(answer.body);
      };
      const variant = (weight: number, overrides?: object) => ({ name: `V${Math.random()}`, weight, overrides });
      expect(await refused({ name: 'E', paywallId: paywall.id, variants: [variant(0), variant(0)] })).toEqual(['variants']);
      expect(await refused({ name: 'E', paywallId: paywall.id, variants: [variant(-1), variant(1001)] })).toEqual(['variants[0].weight', 'variants[1].weight']);
      expect(await refused({ name: 'E', paywallId: paywall.id, variants: [variant(1)] })).toEqual(['variants']);
      expect(await refused({ name: 'E', paywallId: randomUUID(), variants: [variant(1), variant(1)] })).toEqual(['paywallId']);
      expect(await refused({ name: 'E', paywallId: paywall.id, variants: [variant(1), variant(1, { config: { limit: 0, colour: 'red' } })] })).toEqual([
        'variants[1].overrides.config.colour',
        'variants[1].overrides.config.limit',
      ]);
      expect(await refused({ name: 'E', paywallId: paywall.id, variants: [variant(1), variant(1, { presentation: 'popup' })] })).toEqual([
        'variants[1].overrides.presentation',
      ]);
      expect(await refused({ name: 'E', paywallId: paywall.id, variants: [{ name: 'Same', weight: 1 }, { name: 'same', weight: 1 }] })).toEqual(['variants[1].name']);
      expect(await refused({ name: 'E', paywallId: paywall.id, variants: [{ id: randomUUID(), name: 'A', weight: 1 }, variant(1)] })).toEqual(['variants[0].id']);
    });
  });

  describe('tenancy', () => {
    it("answers another publication's ids with 404 and never lists them", async () => {
      const paywall = await system.paywall({ name: 'Mine', type: 'hard', match: { include: ['/mine/**'] } });
      const segment = await system.admin('/admin/segments', { body: { name: 'Mine', match: 'all', conditions: [{ attribute: 'authenticated', operator: 'eq', value: true }] } });
      const experiment = await system.admin('/admin/experiments', {
        body: { name: 'Mine', paywallId: paywall.id, variants: [{ name: 'A', weight: 1 }, { name: 'B', weight: 1 }] },
      });
      const other = await anotherPublication();
      for (const path of [`/admin/paywalls/${paywall.id}`, `/admin/segments/${segment.body.id}`, `/admin/experiments/${experiment.body.id}`]) {
        expect((await other.admin(path)).body).toMatchObject({ status: 404, code: 'not_found' });
        expect((await other.admin(path, { method: 'PATCH', body: { name: 'Taken' } })).body).toMatchObject({ status: 404, code: 'not_found' });
        expect((await other.admin(path, { method: 'DELETE' })).body).toMatchObject({ status: 404, code: 'not_found' });
      }
      expect((await other.admin(`/admin/experiments/${experiment.body.id}/start`, { method: 'POST' })).status).toBe(404);
      for (const list of ['/admin/paywalls', '/admin/segments', '/admin/experiments']) expect((await other.admin(list)).body.items).toEqual([]);
      // Nor can another publication's rows be referred to.
      expect(fieldsOf((await other.admin('/admin/paywalls', { body: { name: 'P', type: 'hard', match: { include: ['/**'] }, segmentId: segment.body.id } })).body)).toEqual([
        'segmentId',
      ]);
      expect(fieldsOf((await other.admin('/admin/experiments', { body: { name: 'E', paywallId: paywall.id, variants: [{ name: 'A', weight: 1 }, { name: 'B', weight: 1 }] } })).body)).toEqual([
        'paywallId',
      ]);
      expect((await system.admin(`/admin/paywalls/${paywall.id}`)).body.name).toBe('Mine');
      expect((await system.admin('/admin/paywalls/not-a-uuid')).body).toMatchObject({ status: 404, code: 'not_found' });
    });

    it('needs a dashboard session', async () => {
      expect((await system.api('/admin/paywalls')).body).toMatchObject({ status: 401, code: 'session_required' });
      expect((await system.api('/admin/segments', { key: system.secretKey })).body).toMatchObject({ status: 401, code: 'session_required' });
    });

    it('documents every route in /docs', async () => {
      const doc = (await call(system.url, '/docs/json')).body as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
      const paths = Object.keys(doc.paths);
      for (const path of ['/api/v1/access/check', '/api/v1/events', '/api/v1/admin/paywalls/{id}', '/api/v1/admin/segments', '/api/v1/admin/experiments/{id}/start']) {
        expect(paths).toContain(path);
      }
      expect(Object.keys(doc.paths['/api/v1/access/check']['get'].responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '429']));
      expect(Object.keys(doc.paths['/api/v1/events']['post'].responses)).toEqual(expect.arrayContaining(['202', '400', '403']));
    });
  });

  /** A new publication of the same admin, in a session of its own, so the main session stays where it is. */
  async function anotherPublication(): Promise<{ admin: AccessSystem['admin'] }> {
    const { session } = await system.otherPublicationSession();
    return { admin: (path, options = {}) => system.api(path, { session, ...options }) };
  }
});
