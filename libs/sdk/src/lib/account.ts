import type {
  CancellationOptions,
  CancellationReason,
  CustomerProfile,
  CustomerPurchaseView,
  OrganisationInvitationView,
  OrganisationSeatsView,
  SaveAcceptance,
  SubscriptionView,
} from '@gatehouse/contracts';
import type { Gatehouse } from './gatehouse';

/** How a reader confirms the deletion of their account: their password, or a code emailed to them. */
export type AccountDeletionProof = { password: string } | { code: string };

/**
 * What the reader does with their own account (the `<gatehouse-account>` element's calls). Kept
 * out of gatehouse.js, whose size every page pays: `/sdk/v1/account.js` adds them to the page's
 * client, and a bundler's `installAccount(gatehouse)` does the same.
 */
export interface AccountMethods {
  /** The reader as the service knows them now (name, email, whether it is verified). */
  getProfile(): Promise<CustomerProfile>;
  /** Changes the name or email; a new email is unverified until the link sent to it (leading to `returnUrl`) is opened. */
  updateProfile(changes: { name?: string; email?: string; returnUrl?: string }): Promise<CustomerProfile>;
  /** The reader's subscriptions, newest first, cancelled ones included. */
  getSubscriptions(): Promise<SubscriptionView[]>;
  /** The reader's passes and single articles, newest first, ended passes included, each with its product's name. */
  getPurchases(): Promise<CustomerPurchaseView[]>;
  /** Cancels one of the reader's own subscriptions at the end of the period, with the reason they picked. */
  cancelSubscription(subscriptionId: string, reason?: CancellationReason): Promise<SubscriptionView>;
  /** The reasons to pick from when cancelling, each with the save offer it brings for this subscription. */
  getCancellationOptions(subscriptionId: string): Promise<CancellationOptions>;
  /** Accepts the save offer of the picked reason instead of cancelling. */
  acceptSaveOffer(subscriptionId: string, reason: CancellationReason): Promise<SaveAcceptance>;
  /** Everything the service holds about the reader, as one JSON document (GDPR art. 15 and 20). */
  exportMyData(): Promise<unknown>;
  /** Deletes the reader's account for good (GDPR art. 17) and signs them out everywhere. */
  deleteMyAccount(proof: AccountDeletionProof): Promise<void>;
  /** The organisations the reader manages, with their members and open invitations (docs/organisations.md). */
  getManagedOrganisations(): Promise<OrganisationSeatsView[]>;
  /** A manager invites an address to a seat; the email's link opens `returnUrl` (a page of the site). */
  inviteToOrganisation(organisationId: string, email: string, returnUrl?: string): Promise<OrganisationInvitationView>;
  /** A manager frees a member's seat. */
  removeOrganisationMember(organisationId: string, customerId: string): Promise<void>;
  /** The reader takes the seat of an invitation (the `#gatehouse-join=` token of its email's link). */
  acceptOrganisationInvitation(token: string): Promise<{ organisation: { id: string; name: string } }>;
}

/** Adds the account methods to a client (once); returns it typed with them. */
export function installAccount(gatehouse: Gatehouse): Gatehouse & AccountMethods {
  const client = gatehouse as Gatehouse & AccountMethods;
  if (typeof client.getProfile === 'function') return client;
  const methods: AccountMethods = {
    getProfile: () => gatehouse.authorized('/auth/customers/me'),
    updateProfile: (changes) => gatehouse.authorized('/auth/customers/me', { method: 'PATCH', body: changes }),
    getSubscriptions: async () => (await gatehouse.authorized<{ subscriptions: SubscriptionView[] }>('/subscriptions/me')).subscriptions,
    getPurchases: async () => (await gatehouse.authorized<{ purchases: CustomerPurchaseView[] }>('/subscriptions/purchases')).purchases,
    cancelSubscription: (subscriptionId, reason) => gatehouse.authorized('/subscriptions/cancel', { body: { subscriptionId, atPeriodEnd: true, reason } }),
    getCancellationOptions: (subscriptionId) => gatehouse.authorized(`/subscriptions/cancellation-options?subscriptionId=${encodeURIComponent(subscriptionId)}`),
    acceptSaveOffer: (subscriptionId, reason) => gatehouse.authorized('/subscriptions/cancel/save', { body: { subscriptionId, reason } }),
    exportMyData: () => gatehouse.authorized('/auth/customers/me/export'),
    deleteMyAccount: async (proof) => {
      await gatehouse.authorized('/auth/customers/me', { method: 'DELETE', body: proof });
      await gatehouse.logout();
    },
    getManagedOrganisations: async () => (await gatehouse.authorized<{ organisations: OrganisationSeatsView[] }>('/organisations/managed')).organisations,
    inviteToOrganisation: (organisationId, email, returnUrl) =>
      gatehouse.authorized(`/organisations/${encodeURIComponent(organisationId)}/invitations`, { body: { email, returnUrl } }),
    removeOrganisationMember: (organisationId, customerId) =>
      gatehouse.authorized(`/organisations/${encodeURIComponent(organisationId)}/members/${encodeURIComponent(customerId)}`, { method: 'DELETE' }),
    acceptOrganisationInvitation: (token) => gatehouse.authorized('/organisations/invitations/accept', { body: { token } }),
  };
  return Object.assign(client, methods);
}
