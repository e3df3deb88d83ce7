import { Injectable } from '@nestjs/common';
import { compileNetworks, NO_NETWORKS, type NetworkTable } from '@gatehouse/access-decisions';
import { BillingRequests, InternalEvents, OrganisationRequests, type CustomerEntitlement } from '@gatehouse/contracts';
import { BusClient, on, ReadModels, type ReadModel } from '@gatehouse/bus';
import { AccessConfig } from '../access.config';

interface Customer {
  publicationId: string;
  customerId: string;
}

/**
 * Who is a subscriber (decisions E6), from billing's entitlements, kept on this replica. Billing
 * announces every change with `internal.entitlements.changed` in the transaction of the change,
 * and every replica forgets the customer's entitlements on hearing it; a minute's freshness is the
 * safety net. A check never fails for want of billing: past ENTITLEMENTS_TIMEOUT_MS it decides by
 * the last answer however old, or as for a non-subscriber, and asks billing again 5 s later.
 * The organisations' IP ranges (docs/organisations.md) are kept alike, per publication.
 */
@Injectable()
export class SubscribersService {
  private readonly entitlements: ReadModel<Customer, CustomerEntitlement[]>;
  private readonly networks: ReadModel<string, NetworkTable>;

  constructor(
    bus: BusClient,
    readModels: ReadModels,
    config: AccessConfig,
  ) {
    this.entitlements = readModels.define({
      name: 'entitlements',
      keyOf: ({ publicationId, customerId }) => `${publicationId}:${customerId}`,
      load: async (customer) => (await bus.request(BillingRequests.GetEntitlements, customer, config.ENTITLEMENTS_TIMEOUT_MS)).entitlements,
      max: 50_000,
      freshMs: 60_000,
      staleOnFailure: { retryMs: 5_000, fallback: () => [] },
      changedBy: [
        on(InternalEvents.EntitlementsChanged, ({ publicationId, data }, model) => publicationId && model.forget({ publicationId, customerId: data.customerId })),
      ],
    });
    this.networks = readModels.define({
      name: 'organisation-networks',
      load: async (publicationId) => compileNetworks((await bus.request(OrganisationRequests.Networks, { publicationId }, config.ENTITLEMENTS_TIMEOUT_MS)).networks),
      max: 10_000,
      freshMs: 60_000,
      staleOnFailure: { retryMs: 5_000, fallback: () => NO_NETWORKS },
      changedBy: [on(InternalEvents.OrganisationNetworksChanged, (event, model) => event.publicationId && model.forget(event.publicationId))],
    });
  }

  /** The publication's organisations' networks, compiled for the decision's look-up by address. */
  networksOf(publicationId: string): Promise<NetworkTable> {
    return this.networks.get(publicationId);
  }

  /** The customer's subscriptions that are not cancelled, each with the paywalls it unlocks (the decision weighs them: subscription-rules). */
  entitlementsOf(publicationId: string, customerId: string): Promise<CustomerEntitlement[]> {
    return this.entitlements.get({ publicationId, customerId });
  }
}
