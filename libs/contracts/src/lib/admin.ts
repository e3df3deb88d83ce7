import { requestPattern } from './patterns';

/*
 * Admin: staff, their sessions, publications and API keys (decisions A1-A4, H1). The gateway
 * resolves keys and sessions through these requests; the dashboard's routes map onto the rest.
 */

/**
 * A staff member's role in a publication. `admin` is the publication's owner (team and
 * publication settings included); `editor` changes everything else; `viewer` reads only.
 */
export type StaffRole = 'admin' | 'editor' | 'viewer';
export const STAFF_ROLES: readonly StaffRole[] = ['admin', 'editor', 'viewer'];
export type ApiKeyKind = 'publishable' | 'secret';

export interface PublicationView {
  id: string;
  name: string;
  /** Host names; `*.example.com` matches any subdomain. */
  domains: string[];
  /**
   * Whether readers may create their own accounts (`POST /auth/customers/register`); when off,
   * that answers 403 `registration_closed`, and existing readers still sign in.
   */
  selfRegistration: boolean;
  /**
   * The domains account email links may lead to: those whose owner proved them (a DNS TXT record
   * or a well-known file), and loopback hosts (`localhost`, `*.localhost`, `127.0.0.1`), which need no proof.
   */
  verifiedDomains: string[];
}

/** Where the DNS TXT record of a domain's proof lives: a wildcard claim is proven on its base domain. */
export const DOMAIN_PROOF_TXT_PREFIX = '_gatehouse.';
export const DOMAIN_PROOF_FILE_PATH = '/.well-known/gatehouse-verification.txt';

/** `GET /api/v1/admin/publications/{id}/domains`: how to prove each domain, and whether it is. */
export interface DomainProofView {
  domain: string;
  /** The value to publish, in the TXT record or as the whole file. */
  token: string;
  /** `_gatehouse.<domain>` (the base domain for `*.<domain>`). */
  txtRecord: string;
  /** `https://<domain>/.well-known/gatehouse-verification.txt` (the base domain for `*.<domain>`). */
  fileUrl: string;
  /** True once proven, and always for a loopback host. */
  verified: boolean;
  /** ISO time the proof was found; null when never, or for a loopback host. */
  verifiedAt: string | null;
}

export interface MembershipView extends PublicationView {
  role: StaffRole;
}

export interface StaffView {
  id: string;
  email: string;
  name: string;
}

/** Who an admin request acts as: the session's staff member in its current publication. */
export interface StaffActor {
  staffId: string;
  publicationId: string;
  role: StaffRole;
}

/** What the gateway learns from a valid session cookie. */
export interface ResolvedSession extends StaffActor {
  sessionId: string;
}

/** `GET /api/v1/admin/session` (decisions A4). */
export interface SessionView {
  staff: StaffView;
  publication: MembershipView;
  publications: MembershipView[];
}

export interface CreatedSession {
  /** The opaque cookie value; only its hash is stored. */
  token: string;
  /** ISO time the session ends at the latest (absolute expiry). */
  expiresAt: string;
  staff: StaffView;
  publication: MembershipView;
}

/** What the gateway learns from a valid API key. */
export interface ResolvedApiKey {
  keyId: string;
  kind: ApiKeyKind;
  publicationId: string;
  /** The publication's domains, for the access-check URL rule. */
  domains: string[];
  /** Whether the publication lets readers register themselves. */
  selfRegistration: boolean;
}

export interface ApiKeyView {
  id: string;
  name: string;
  kind: ApiKeyKind;
  /** The first 12 characters of the key. */
  prefix: string;
  /**
   * The whole publishable key, which is public (every page of the site carries it), for the
   * dashboard's snippet; null for secret keys, which are shown once, and for keys made before it was kept.
   */
  publishableKey: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** Returned once, at creation: the full keys are never shown again. */
export interface CreatedApiKeyPair {
  name: string;
  publishableKey: string;
  secretKey: string;
}

export interface RevokedApiKeys {
  /** SHA-256 (hex) of each key revoked, so the caller can drop them from its cache at once. */
  keyHashes: string[];
}

export interface TeamMemberView extends StaffView {
  role: StaffRole;
  joinedAt: string;
}

export interface InvitationView {
  id: string;
  email: string;
  role: StaffRole;
  invitedBy: string;
  createdAt: string;
  expiresAt: string;
}

/** Returned once, to the inviter: only the token's hash is stored. */
export interface CreatedInvitation extends InvitationView {
  token: string;
  /** Whether the invitation's email is queued (identity's email queue); false when identity did not answer: pass the link on. */
  emailed: boolean;
}

export interface InvitationPreview {
  email: string;
  role: StaffRole;
  publicationName: string;
}

export type InvitationAcceptance = { tokenHash: string } & ({ staffId: string } | { name: string; password: string });

export type TeamChangeAction = 'invited' | 'invitation_revoked' | 'joined' | 'role_changed' | 'removed';

/** One line of a publication's team log: who changed what. */
export interface TeamChangeView {
  id: string;
  action: TeamChangeAction;
  /** The email of the staff member who made the change (the new member for `joined`). */
  actor: string;
  /** The email the change concerns. */
  subject: string;
  role: StaffRole | null;
  at: string;
}

export interface TeamView {
  members: TeamMemberView[];
  /** Open invitations: not accepted, revoked or expired. */
  invitations: InvitationView[];
  /** The newest changes first (at most 50). */
  log: TeamChangeView[];
}

export const AdminRequests = {
  /** `keyHash` is the SHA-256 hex of the presented key; null when unknown or revoked. Records lastUsedAt. */
  ResolveApiKey: requestPattern<{ keyHash: string }, ResolvedApiKey | null>('admin.api-keys.resolve'),
  /** null when unknown, revoked or expired (12 h idle, 7 days at most); extends the idle window. */
  ResolveSession: requestPattern<{ tokenHash: string }, ResolvedSession | null>('admin.sessions.resolve'),
  /** 401 invalid_credentials for an unknown email or a wrong password, alike. */
  /** Starts in `publicationId` when given and the staff member is in it, else in their oldest publication. */
  CreateSession: requestPattern<{ email: string; password: string; publicationId?: string }, CreatedSession>('admin.sessions.create'),
  GetSession: requestPattern<{ sessionId: string }, SessionView>('admin.sessions.get'),
  /** 404 not_found when the staff member has no role in that publication. */
  SwitchPublication: requestPattern<{ sessionId: string; publicationId: string }, SessionView>('admin.sessions.switch-publication'),
  DeleteSession: requestPattern<{ sessionId: string }, { deleted: true }>('admin.sessions.delete'),

  /** For services that write on a publication's behalf (account email); 404 when unknown. */
  GetPublication: requestPattern<{ publicationId: string }, PublicationView>('admin.publications.get'),
  ListPublications: requestPattern<{ staffId: string }, { publications: MembershipView[] }>('admin.publications.list'),
  /** The caller becomes the new publication's admin. */
  CreatePublication: requestPattern<{ staffId: string; name: string; domains: string[] }, MembershipView>('admin.publications.create'),
  /** 404 unless the caller is a member; 403 forbidden unless an admin of it. */
  UpdatePublication: requestPattern<{ staffId: string; publicationId: string; name?: string; domains?: string[]; selfRegistration?: boolean }, MembershipView>(
    'admin.publications.update',
  ),
  /** Owners only (404 unless a member, 403 otherwise). */
  ListDomainProofs: requestPattern<{ staffId: string; publicationId: string }, { items: DomainProofView[] }>('admin.publications.domain-proofs'),
  /**
   * Owners only. Looks the token up (DNS TXT, then the well-known file) and records `verifiedAt`;
   * 404 for a domain the publication does not claim, 409 conflict when neither holds the token.
   */
  VerifyDomain: requestPattern<{ staffId: string; publicationId: string; domain: string }, DomainProofView>('admin.publications.verify-domain'),

  ListApiKeys: requestPattern<{ publicationId: string }, ApiKeyView[]>('admin.api-keys.list'),
  /** 409 conflict when the name was ever used in the publication, revoked or not. */
  CreateApiKeyPair: requestPattern<{ publicationId: string; name: string }, CreatedApiKeyPair>('admin.api-keys.create-pair'),
  /** 404 when no pair of that name exists in the publication. */
  RevokeApiKeyPair: requestPattern<{ publicationId: string; name: string }, RevokedApiKeys>('admin.api-keys.revoke-pair'),
  RevokeApiKey: requestPattern<{ publicationId: string; keyId: string }, RevokedApiKeys>('admin.api-keys.revoke'),

  ListTeam: requestPattern<{ actor: StaffActor }, TeamView>('admin.team.list'),
  /** Owners (`admin`) only; valid 7 days, single use. 409 conflict when the email is already a member. */
  InviteStaff: requestPattern<{ actor: StaffActor; email: string; role: StaffRole }, CreatedInvitation>('admin.team.invite'),
  RevokeInvitation: requestPattern<{ actor: StaffActor; invitationId: string }, { revoked: true }>('admin.team.revoke-invitation'),
  /** Owners only; 409 conflict when it would leave the publication without an owner. */
  ChangeRole: requestPattern<{ actor: StaffActor; staffId: string; role: StaffRole }, TeamMemberView>('admin.team.change-role'),
  RemoveMember: requestPattern<{ actor: StaffActor; staffId: string }, { removed: true }>('admin.team.remove'),
  /**
   * What an invitation is for, before it is accepted; 404 when unknown, used, revoked or expired.
   * It does not say whether the email has an account: the link would tell whoever holds it.
   */
  GetInvitation: requestPattern<{ tokenHash: string }, InvitationPreview>('admin.team.get-invitation'),
  /**
   * Joins the invitation's publication, as the signed-in staff member whose email it is
   * (`staffId`), or as a new account made with `name` and `password`. A password never admits an
   * existing account here: that answers 401 invalid_credentials whatever the password, and counts
   * as a failed sign-in of that email (the staff login throttle).
   */
  AcceptInvitation: requestPattern<InvitationAcceptance, { email: string; publicationId: string }>('admin.team.accept-invitation'),
} as const;
