import { BusClient, InProcessClient, InProcessHub, InProcessServer, JetStreamEventTransport, ReadModels, deleteEventStream, type BusOptions } from '@gatehouse/bus';
import { pageAddressOf } from '@gatehouse/access-decisions';
import { AccessRequests, BillingRequests, InternalEvents, OrganisationRequests, type AccessCheckRequest, type DecisionRules, type PaywallRule, type PaywallSettings } from '@gatehouse/contracts';
import { testNatsUrl, uniqueNamespace } from '@gatehouse/testing';
import { randomUUID } from 'node:crypto';
import { EdgeCheckRecorder } from '../edge-check-recorder.service';
import { EdgeDecisions } from '../edge-decisions.service';

jest.setTimeout(20_000);

const PUBLICATION = 'pub-1';

function rulesWith(settings: PaywallSettings): DecisionRules {
  return {
    paywalls: [
      {
        rule: { paywallId: 'pw-1', name: 'Premium', ...settings, presentation: 'modal', copy: null, oneTimePriceIds: [] } as PaywallRule,
        includeGlobs: ['/premium/**'],
        excludeGlobs: [],
        segment: null,
        experiment: null,
      },
    ],
    crawlerPolicy: { searchEngines: 'meter', aiCrawlers: 'meter', updatedAt: null },
  };
}

const check = (customerId: string): AccessCheckRequest => ({
  publicationId: PUBLICATION,
  domains: ['news.example.com'],
  page: { hostname: 'news.example.com', path: '/premium/story' },
  customerId,
  userId: null,
  attributes: {},
  client: { userAgent: null, ip: null },
});

/**
 * The gateway decides a check from its models before it waits for them to catch up (a check it
 * sends to access goes at once); an answer is given only once the models heard every change
 * notice the broker accepted before the check, over the real NATS server.
 */
describe("the gateway's edge decision and the change notices in flight", () => {
  const namespace = uniqueNamespace('edge');
  const hub = new InProcessHub();
  const options: BusOptions = { service: 'gateway', namespace, transport: { kind: 'in-process', hub } };
  const responders = new InProcessServer(hub.requests, namespace);
  let listening: JetStreamEventTransport;
  let writer: JetStreamEventTransport;
  let readModels: ReadModels;
  let edge: EdgeDecisions;
  let rules = rulesWith({ type: 'hard', config: {} });
  /** Billing's answer for a customer's entitlements; a write may ride on it (as one made while the check is decided). */
  let onEntitlements: () => Promise<void> = async () => undefined;

  beforeAll(async () => {
    listening = await JetStreamEventTransport.connect({ servers: [testNatsUrl()] }, namespace);
    writer = await JetStreamEventTransport.connect({ servers: [testNatsUrl()] }, namespace);
    responders.addHandler(AccessRequests.GetDecisionRules.pattern, async () => rules);
    responders.addHandler(BillingRequests.GetEntitlements.pattern, async () => {
      await onEntitlements();
      return { entitlements: [] };
    });
    responders.addHandler(OrganisationRequests.Networks.pattern, async () => ({ networks: [] }));
    responders.listen(() => undefined);
    const bus = new BusClient(options, new InProcessClient(hub.requests, namespace));
    readModels = new ReadModels(listening);
    edge = new EdgeDecisions(bus, readModels, new EdgeCheckRecorder(bus));
    await readModels.onModuleInit();
  });
  afterAll(async () => {
    await readModels.onModuleDestroy();
    await Promise.all([listening.close(), writer.close()]);
    responders.close();
    await deleteEventStream([testNatsUrl()], namespace);
  });

  const answer = (customerId: string) => {
    const request = check(customerId);
    return edge.answer(request, pageAddressOf(request.page));
  };

  it('decides again when a rules change the broker accepted before the answer reached the models meanwhile', async () => {
    expect(await answer('reader-1')).toMatchObject({ granted: false, reason: 'blocked' });

    // While the gateway decides the next check from the rules it holds, the paywall turns soft
    // and access's notice of it is accepted by the broker: the answer must be the new rules'.
    onEntitlements = async () => {
      onEntitlements = async () => undefined;
      rules = rulesWith({ type: 'soft', config: {} });
      await writer.publish({ id: randomUUID(), name: InternalEvents.AccessRulesChanged.name, publicationId: PUBLICATION, occurredAt: new Date().toISOString(), data: {} });
    };
    expect(await answer('reader-2')).toMatchObject({ granted: true, reason: 'soft' });
    expect(await answer('reader-3')).toMatchObject({ granted: true, reason: 'soft' });
  });

  it('sends a check its models cannot answer to access without waiting for them', async () => {
    rules = rulesWith({ type: 'metered', config: { limit: 3, period: 'month' } });
    await writer.publish({ id: randomUUID(), name: InternalEvents.AccessRulesChanged.name, publicationId: PUBLICATION, occurredAt: new Date().toISOString(), data: {} });
    await readModels.caughtUp();
    const waits = jest.spyOn(readModels, 'caughtUp');
    expect(await answer('reader-4')).toBeNull();
    expect(waits).not.toHaveBeenCalled();
    waits.mockRestore();
  });
});
