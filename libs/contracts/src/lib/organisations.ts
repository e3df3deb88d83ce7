import type { Page, PageRequest } from './pagination';
import { requestPattern } from './patterns';

/*
 * Organisations (issue #26): group access to a product for a publication's readers, by seat
 * (members invited by email or joining by their email's domain) and by IP range. Billing owns
 * them; docs/organisations.md describes the behaviour.
 */

/** How a member came to hold a seat. */
export const MEMBERSHIP_ORIGINS = ['invitation', 'domain'] as const;
export type MembershipOrigin = (typeof MEMBERSHIP_ORIGINS)[number];

/** The most domains and IP ranges one organisation lists. */
export const ORGANISATION_DOMAINS_MAX = 50;
export const ORGANISATION_IP_RANGES_MAX = 1_000;
export const ORGANISATION_MANAGERS_MAX = 20;

/** How long an invitation, and the link its email carries, stays valid. */
export const ORGANISATION_INVITATION_TTL_DAYS = 14;

/** The fragment parameter of the link an invitation email carries, on a page of the publication's site. */
export const ORGANISATION_INVITATION_PARAMETER = 'gatehouse-join';

export interface OrganisationView {
  id: string;
  name: string;
  /** The product whose paywalls the members and networks unlock. */
  productId: string;
  /** Null: unlimited. */
  seats: number | null;
  seatsUsed: number;
  /** ISO; the term. `endsAt` null: no end. */
  startsAt: string;
  endsAt: string | null;
  /** Lower-case host names: a reader whose verified email is at one of them joins. */
  domains: string[];
  /** Canonical CIDR ranges (IPv4 and IPv6): a check from an address in one is granted. */
  ipRanges: string[];
  /** Staff allowed private or reserved ranges (an intranet behind the publisher's own proxy). */
  allowReservedRanges: boolean;
  /** Customers of the publication who manage the seats. */
  managerIds: string[];
  /** The processor subscription whose quantity is the seats, for an organisation bought at checkout. */
  processorSubscriptionId: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface NewOrganisation {
  name: string;
  productId: string;
  seats?: number | null;
  startsAt?: string;
  endsAt?: string | null;
  domains?: string[];
  ipRanges?: string[];
  allowReservedRanges?: boolean;
  managerIds?: string[];
}

/** What is absent stays as it is. */
export type OrganisationChanges = Partial<NewOrganisation>;

export interface OrganisationMemberView {
  customerId: string;
  email: string;
  via: MembershipOrigin;
  joinedAt: string;
}

export interface OrganisationInvitationView {
  id: string;
  email: string;
  createdAt: string;
  expiresAt: string;
}

/** Who uses the seats and who is invited to. */
export interface OrganisationSeatsView {
  organisation: OrganisationView;
  members: OrganisationMemberView[];
  invitations: OrganisationInvitationView[];
}

/** An organisation's networks as access decisions need them: organisations whose term has not ended, with the term (the decision compares it with the check's time). */
export interface OrganisationNetwork extends OrganisationTerm {
  organisationId: string;
  name: string;
  /** What its product unlocks; empty: every paywall. */
  paywallIds: string[];
  ranges: string[];
}

/** When an organisation grants: from `startsAt` (ISO) until `endsAt` (ISO, exclusive; null: no end). */
export interface OrganisationTerm {
  startsAt: string;
  endsAt: string | null;
}

/** Who acts on an organisation's seats: staff of the publication, or a customer who manages it. */
export type SeatsActor = { staff: true } | { managerId: string };

export interface InvitationRequest {
  publicationId: string;
  organisationId: string;
  actor: SeatsActor;
  email: string;
  /** The page of the publication's site the email's link opens; the publication's first domain when absent. */
  returnUrl?: string;
}

export const OrganisationRequests = {
  List: requestPattern<{ publicationId: string } & PageRequest, Page<OrganisationView>>('billing.organisations.list'),
  Get: requestPattern<{ publicationId: string; organisationId: string }, OrganisationView>('billing.organisations.get'),
  /** 400 validation_failed naming the field: a range overlapping another organisation's, a reserved one without `allowReservedRanges`, a product or manager not of the publication. */
  Create: requestPattern<{ publicationId: string; organisation: NewOrganisation }, OrganisationView>('billing.organisations.create'),
  Update: requestPattern<{ publicationId: string; organisationId: string; changes: OrganisationChanges }, OrganisationView>('billing.organisations.update'),
  /** Its members lose access at their next check. */
  Delete: requestPattern<{ publicationId: string; organisationId: string }, { deleted: true }>('billing.organisations.delete'),
  /** Members and open invitations; 404 for a manager of another organisation. */
  Seats: requestPattern<{ publicationId: string; organisationId: string; actor: SeatsActor }, OrganisationSeatsView>('billing.organisations.seats'),
  /** The organisations the customer manages, with their seats. */
  Managed: requestPattern<{ publicationId: string; customerId: string }, { organisations: OrganisationSeatsView[] }>('billing.organisations.managed'),
  /** Queues the branded invitation email (identity); 409 organisation_full when every seat is taken. */
  Invite: requestPattern<InvitationRequest, OrganisationInvitationView>('billing.organisations.invite'),
  /** Frees the member's seat; access ends at their next check. */
  RemoveMember: requestPattern<{ publicationId: string; organisationId: string; actor: SeatsActor; customerId: string }, { removed: true }>(
    'billing.organisations.members.remove',
  ),
  /** Withdraws an open invitation. */
  CancelInvitation: requestPattern<{ publicationId: string; organisationId: string; actor: SeatsActor; invitationId: string }, { cancelled: true }>(
    'billing.organisations.invitations.cancel',
  ),
  /**
   * The signed-in reader takes the invitation's seat: 410 invitation_invalid for an unknown, used
   * or expired token, 409 organisation_full when no seat is free.
   */
  AcceptInvitation: requestPattern<{ publicationId: string; customerId: string; token: string }, OrganisationMemberView & { organisation: { id: string; name: string } }>(
    'billing.organisations.invitations.accept',
  ),
  /** The networks of the publication's organisations whose term has not ended (those yet to start included), for the access decision. */
  Networks: requestPattern<{ publicationId: string }, { networks: OrganisationNetwork[] }>('billing.organisations.networks'),
} as const;
