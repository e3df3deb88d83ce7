import { Injectable, Logger } from '@nestjs/common';
import {
  aiCrawlerOf,
  checkFactsOf,
  checkResultOf,
  compileNetworks,
  compileRules,
  decideAccess,
  NO_NETWORKS,
  Unheld,
  type NetworkTable,
  type Outcome,
  type PageAddress,
  type CandidatePaywall,
  type PublicationRules,
  searchEngineOf,
  usesAttribute,
} from '@gatehouse/access-decisions';
import {
  AccessRequests,
  BillingRequests,
  InternalEvents,
  OrganisationRequests,
  type AccessCheckRequest,
  type AccessCheckResult,
  type CustomerEntitlement,
  type EdgeCheckRecord,
} from '@gatehouse/contracts';
import { BusClient, on, ReadModels, type ReadModel } from '@gatehouse/bus';
import { edgeMetrics } from '@gatehouse/platform';
import { EdgeCheckRecorder } from './edge-check-recorder.service';

/** Why a check goes to access: what it needs that the gateway does not hold, or cannot be sure of. */
export type ForwardReason = 'share' | 'meter' | 'pass' | 'visit_count' | 'crawler' | 'past_due' | 'time_pass' | 'rules' | 'entitlements' | 'networks' | 'not_caught_up' | 'error';

/**
 * Why the check must go to access: answered by `decideAtEdge` (for a source the gateway does not
 * hold, the decision's `Unheld`), thrown by a read model that cannot load or an entitlement only
 * access's clock can weigh.
 */
export class Forward {
  constructor(readonly reason: ForwardReason) {}
}
const forward = (reason: ForwardReason) => (): never => {
  throw new Forward(reason);
};

/** As access waits for billing before deciding without it; past it, access decides. */
const ENTITLEMENTS_TIMEOUT_MS = 1_000;

/**
 * The access check decided at the gateway when nothing but the rules and entitlements is needed
 * (issue 29, docs/performance.md#deciding-at-the-gateway): the same decision function access runs
 * (`decideAccess`), over read models of access's rules, billing's entitlements and organisations' networks fed by the
 * change notices access's own copies hear. A share link to open, a meter to count, a pass or a visit count to read, a
 * search crawler to verify, a past_due subscription (its grace is a matter of access's clock), a
 * time pass (its end is too), a model that cannot be loaded or not known to be caught up, a URL
 * access would refuse: the check goes to access.
 */
@Injectable()
export class EdgeDecisions {
  private readonly logger = new Logger(EdgeDecisions.name);
  private readonly rules: ReadModel<string, PublicationRules>;
  private readonly entitlements: ReadModel<{ publicationId: string; customerId: string }, CustomerEntitlement[]>;
  private readonly networks: ReadModel<string, NetworkTable>;

  constructor(
    bus: BusClient,
    private readonly readModels: ReadModels,
    private readonly recorder: EdgeCheckRecorder,
  ) {
    this.rules = readModels.define({
      name: 'gateway-access-rules',
      load: async (publicationId) => compileRules(await bus.request(AccessRequests.GetDecisionRules, { publicationId })),
      max: 10_000,
      freshMs: 60_000,
      // No stale stand-in: rules that cannot be loaded send the check to access.
      changedBy: [on(InternalEvents.AccessRulesChanged, (event, model) => event.publicationId && model.forget(event.publicationId))],
    });
    this.entitlements = readModels.define({
      name: 'gateway-entitlements',
      keyOf: ({ publicationId, customerId }) => `${publicationId}:${customerId}`,
      load: async (customer) => (await bus.request(BillingRequests.GetEntitlements, customer, ENTITLEMENTS_TIMEOUT_MS)).entitlements,
      max: 50_000,
      freshMs: 60_000,
      changedBy: [
        on(InternalEvents.EntitlementsChanged, ({ publicationId, data }, model) => publicationId && model.forget({ publicationId, customerId: data.customerId })),
      ],
    });
    this.networks = readModels.define({
      name: 'gateway-organisation-networks',
      load: async (publicationId) => compileNetworks((await bus.request(OrganisationRequests.Networks, { publicationId }, ENTITLEMENTS_TIMEOUT_MS)).networks),
      max: 10_000,
      freshMs: 60_000,
      // As access's own copy: while billing cannot be asked, the last networks, else none (so the
      // two decide alike, and a billing outage does not send every check to access).
      staleOnFailure: { retryMs: 5_000, fallback: () => NO_NETWORKS },
      changedBy: [on(InternalEvents.OrganisationNetworksChanged, (event, model) => event.publicationId && model.forget(event.publicationId))],
    });
  }

  /** Access's answer to the check of `page` (read from the request's) when the gateway can give it from memory (and access is told of it); null: access must decide. */
  async answer(request: AccessCheckRequest, page: PageAddress): Promise<AccessCheckResult | null> {
    const { publicationId } = request;
    let decided: AccessCheckResult | Forward | null = forwardAtOnce(request, page, this.rules.peek(publicationId), () => this.networks.peek(publicationId));
    if (decided === null) {
      try {
        decided = await this.decide(request, page);
      } catch (err) {
        if (!(err instanceof Forward)) this.logger.warn(`Access check sent to access after an error at the gateway: ${String(err)}`);
        decided = err instanceof Forward ? err : new Forward('error');
      }
    }
    if (!(decided instanceof Forward)) {
      edgeMetrics.checks.inc({ decided_by: 'gateway', reason: decided.reason });
      return decided;
    }
    edgeMetrics.checks.inc({ decided_by: 'access', reason: decided.reason });
    // A visit count read at access includes the visits this gateway answered before.
    if (decided.reason === 'visit_count') await this.recorder.flush();
    return null;
  }

  private async decide(request: AccessCheckRequest, page: PageAddress): Promise<AccessCheckResult | Forward> {
    // Decided first from the models as they are: a check they send to access goes at once (access
    // waits for its own copies to catch up), without waiting here as well.
    const heard = this.readModels.heard;
    let outcome = this.readModels.listening() ? await this.outcomeOf(request, page) : null;
    if (outcome instanceof Forward) return outcome;
    // An answer stands once every change notice the broker accepted before this check arrived has
    // reached the models; one that reached them meanwhile has the check decided again. A broker that
    // is reachable but did not confirm it in time: access decides (it waits on its own). With the
    // bus down no notice can arrive and access cannot be asked: the models answer.
    if (!(await this.readModels.caughtUp()) && this.readModels.connected()) return new Forward('not_caught_up');
    if (outcome === null || this.readModels.heard !== heard) outcome = await this.outcomeOf(request, page);
    if (outcome instanceof Forward) return outcome;
    this.recorder.record({
      publicationId: request.publicationId,
      customerId: request.customerId,
      userId: request.userId,
      paywallId: outcome.paywall?.rule.paywallId ?? null,
      experiment: outcome.decision.experiment ?? null,
      counter: outcome.counter,
      organisation: organisationGrantOf(outcome),
    });
    return checkResultOf(outcome, request.customerId);
  }

  private async outcomeOf(request: AccessCheckRequest, page: PageAddress): Promise<Outcome | Forward> {
    const { publicationId } = request;
    const rules = await this.rules.get(publicationId).catch(forward('rules'));
    return decideAtEdge(rules, request, page, {
      now: new Date(),
      entitlementsOf: (customerId) => this.entitlements.get({ publicationId, customerId }).catch(forward('entitlements')),
      networks: () => this.networks.get(publicationId).catch(forward('networks')),
    });
  }
}

/**
 * A check that goes to access whatever else the gateway holds, told without a wait from what it
 * holds fresh (`rules` undefined, `networks()` undefined: not held): a share link (only access holds
 * the links, and counts the open), a page whose first covering paywall's segment weighs the visit
 * count, or one whose first covering paywall ends at the meter for this visitor (only access holds
 * both). Null: the decision is attempted. It only ever forwards what the decision would forward
 * (edge-parity.spec holds the two together); one it does not recognise is decided as before.
 */
export function forwardAtOnce(request: AccessCheckRequest, page: PageAddress, rules: PublicationRules | undefined, networks: () => NetworkTable | undefined): Forward | null {
  if (request.shareToken !== undefined) return new Forward('share');
  const [first] = rules?.covering(page.matchPath) ?? [];
  if (!first) return null;
  // The decision weighs the first covering paywall's segment first.
  if (first.segment) return weighsVisitCount(first) ? new Forward('visit_count') : null;
  return endsAtMeter(first, request, networks) ? new Forward('meter') : null;
}

/**
 * A paywall that applies to everyone and is metered in every variant, for a visitor the decision
 * learns nothing more of on the way (no customer, so no entitlements; no crawler's User-Agent; no
 * organisation's network holding the address): the decision ends at the meter.
 */
function endsAtMeter(paywall: CandidatePaywall, { customerId, client }: AccessCheckRequest, networks: () => NetworkTable | undefined): boolean {
  if (customerId !== null || paywall.rule.type !== 'metered') return false;
  if (paywall.experiment?.variants.some((variant) => variant.rule.type !== 'metered')) return false;
  if (client?.userAgent && (aiCrawlerOf(client.userAgent) !== undefined || searchEngineOf(client.userAgent) !== undefined)) return false;
  if (!client?.ip) return true;
  const table = networks();
  return table !== undefined && table.organisationAt(client.ip) === null;
}

/** Whether the paywall's segment looks at the visit count, which only access holds. */
function weighsVisitCount(paywall: CandidatePaywall | undefined): boolean {
  return paywall?.segment ? usesAttribute(paywall.segment, 'visit_count') : false;
}

/** The organisation that let the reader in, and how, for its stats; null for any other answer. */
export function organisationGrantOf({ decision }: Outcome): EdgeCheckRecord['organisation'] {
  return decision.organisation ? { organisationId: decision.organisation.organisationId, via: decision.organisation.via } : null;
}

/** What the gateway holds beyond the rules: the customer's entitlements and the organisations' networks, and its time. */
export interface EdgeSources {
  /** An organisation's term is compared with it: its start or end takes effect at the next check, whatever the copy's age. */
  now: Date;
  entitlementsOf(customerId: string): Promise<readonly CustomerEntitlement[]>;
  networks(): Promise<NetworkTable>;
}

/** What the gateway answers for the sources only access holds: the decision stops there, and the check goes to access. */
const UNHELD = {
  visitCount: Promise.resolve(new Unheld('visit_count')),
  crawler: Promise.resolve(new Unheld('crawler')),
  pass: Promise.resolve(new Unheld('pass')),
  meter: Promise.resolve(new Unheld('meter')),
  share: Promise.resolve(new Unheld('share')),
};

/**
 * The access decision with what the gateway holds: the rules, the customer's entitlements and the organisations' networks.
 * A Forward when the decision needs anything else (a meter, a pass, a visit count, a crawler's
 * verified address), a past_due subscription's grace or a time pass's end, which are matters of
 * access's clock. A single article bought is decided here: it does not end.
 */
export async function decideAtEdge(
  rules: PublicationRules,
  request: AccessCheckRequest,
  page: PageAddress,
  { now, entitlementsOf, networks }: EdgeSources,
): Promise<Outcome | Forward> {
  // The decision weighs the first covering paywall's segment first: without an attempt here when
  // it looks at the visit count (forwardAtOnce tells it earlier when the rules were held).
  if (weighsVisitCount(rules.covering(page.matchPath)[0])) return new Forward('visit_count');
  try {
    const outcome = await decideAccess<Unheld>(
      rules,
      checkFactsOf(request, page),
      {
        // An organisation's term is compared with the gateway's time (its clock is access's, the system's);
        // a past_due subscription's grace and a time pass depend on access's, and those go to access.
        now,
        pastDueGraceDays: 0,
        entitlements: async (customerId) => {
          const entitlements = await entitlementsOf(customerId);
          if (entitlements.some((entitlement) => entitlement.kind === 'subscription' && entitlement.status === 'past_due')) throw new Forward('past_due');
          if (entitlements.some((entitlement) => entitlement.kind === 'pass')) throw new Forward('time_pass');
          return entitlements;
        },
        visits: () => UNHELD.visitCount,
        crawlerVerified: () => UNHELD.crawler,
        passed: () => UNHELD.pass,
        consumeMeter: () => UNHELD.meter,
        openSharedLink: () => UNHELD.share,
        networks,
      },
    );
    return outcome instanceof Unheld ? new Forward(outcome.source) : outcome;
  } catch (err) {
    if (err instanceof Forward) return err;
    throw err;
  }
}
