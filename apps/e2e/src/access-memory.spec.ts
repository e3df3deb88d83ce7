import { AccessRequests, type SegmentView } from '@gatehouse/contracts';
import { EdgeCheckRecorder } from '@gatehouse/gateway';
import { ACCESS_TIME, AccessSystem } from './support/access';

/**
 * Checks answer from memory (issue 10): what that must not change. Meters stay exact under
 * concurrency; counters kept in memory reach the stats by a graceful stop. (That every write is
 * seen by the next check on every replica: access-read-after-write.spec.ts.)
 */
describe('access checks from memory', () => {
  let system: AccessSystem;

  beforeAll(async () => {
    system = await AccessSystem.start();
    await system.startReplica('access');
  }, 120_000);
  afterAll(() => system?.close());

  it('grants exactly the limit when 50 checks of distinct pages of one reader arrive at once, over two replicas', async () => {
    await system.paywall({ name: 'Ten', type: 'metered', config: { limit: 10, period: 'month' }, match: { include: ['/ten/**'] } });
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => system.decision({ url: `/ten/story-${i}`, userId: 'racer' })));
    expect(answers.filter((answer) => answer.granted)).toHaveLength(10);
    expect(answers.filter((answer) => !answer.granted).every((answer) => answer.reason === 'blocked' && answer.meter?.used === 10)).toBe(true);
    // The ten granted pages are the ones counted: each is granted again, any other is not.
    const granted = answers.flatMap((answer, i) => (answer.granted ? [i] : []));
    expect((await system.decision({ url: `/ten/story-${granted[0]}`, userId: 'racer' })).granted).toBe(true);
    expect(await system.decision({ url: '/ten/another', userId: 'racer' })).toMatchObject({ granted: false, meter: { used: 10, remaining: 0 } });
  });

  it('has the visits and rollups counted in memory in the stats after a graceful stop and a restart', async () => {
    const counted = await system.paywall({ name: 'Counted', type: 'hard', match: { include: ['/counted/**'] } });
    const visits = (await system.admin<SegmentView>('/admin/segments', { body: { name: 'Eighth visit', match: 'all', conditions: [{ attribute: 'visit_count', operator: 'eq', value: 8 }] } })).body;
    await system.paywall({ name: 'On the eighth visit', type: 'hard', match: { include: ['/eighth/**'] }, segmentId: visits.id });
    for (let i = 0; i < 7; i++) expect((await system.decision({ url: `/counted/${i}`, userId: 'regular' })).reason).toBe('blocked');

    // The gateway answered these checks itself and hands access their records in batches: all taken before access stops.
    await system.gateway.app.get(EdgeCheckRecorder).flush();
    // Every replica stops as SIGTERM stops it, then a fresh one starts: only what was written survives.
    for (const service of system.accessReplicas) await system.stopReplica(service);
    await system.startReplica('access');

    const stats = await system.busClient.request(AccessRequests.GetStats, {
      publicationId: system.publicationId,
      from: new Date(ACCESS_TIME.getTime() - 3600_000).toISOString(),
      to: new Date(ACCESS_TIME.getTime() + 3600_000).toISOString(),
      interval: 'hour',
    });
    expect(stats.paywalls.find((paywall) => paywall.paywallId === counted.id)).toMatchObject({ checksDenied: 7, checksGranted: 0 });
    // The eighth check of the reader: visit_count 8 only if the seven before it were kept.
    expect(await system.decision({ url: '/eighth/a', userId: 'regular' })).toMatchObject({ granted: false, paywallRule: { name: 'On the eighth visit' } });
    expect(await system.decision({ url: '/eighth/a', userId: 'regular' })).toMatchObject({ granted: true, reason: 'no_rule' });
  });
});
