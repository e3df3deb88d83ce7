import { requestPattern } from './patterns';

/*
 * Admin: staff, their sessions, publications and API keys (decisions A1-A4, H1). The gateway
 * resolves keys and sessions through these requests; the dashboard's routes map onto the rest.
 */

export type StaffRole = 'admin' | 'viewer';
export type ApiKeyKind = 'publishable' | 'secret';

export interface PublicationView {
  id: string;
  name: string;
  /** Host names; `*.example.com` matches any subdomain. */
  domains: string[];
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
}

export interface ApiKeyView {
  id: string;
  name: string;
  kind: ApiKeyKind;
  /** The first 12 characters of the key. */
  prefix: string;
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

export const AdminRequests = {
  /** `keyHash` is the SHA-256 hex of the presented key; null when unknown or revoked. Records lastUsedAt. */
  ResolveApiKey: requestPattern<{ keyHash: string }, ResolvedApiKey | null>('admin.api-keys.resolve'),
  /** null when unknown, revoked or expired (12 h idle, 7 days at most); extends the idle window. */
  ResolveSession: requestPattern<{ tokenHash: string }, ResolvedSession | null>('admin.sessions.resolve'),
  /** 401 invalid_credentials for an unknown email or a wrong password, alike. */
  CreateSession: requestPattern<{ email: string; password: string }, CreatedSession>('admin.sessions.create'),
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
  UpdatePublication: requestPattern<{ staffId: string; publicationId: string; name?: string; domains?: string[] }, MembershipView>(
    'admin.publications.update',
  ),

  ListApiKeys: requestPattern<{ publicationId: string }, ApiKeyView[]>('admin.api-keys.list'),
  /** 409 conflict when the name was ever used in the publication, revoked or not. */
  CreateApiKeyPair: requestPattern<{ publicationId: string; name: string }, CreatedApiKeyPair>('admin.api-keys.create-pair'),
  /** 404 when no pair of that name exists in the publication. */
  RevokeApiKeyPair: requestPattern<{ publicationId: string; name: string }, RevokedApiKeys>('admin.api-keys.revoke-pair'),
  RevokeApiKey: requestPattern<{ publicationId: string; keyId: string }, RevokedApiKeys>('admin.api-keys.revoke'),
} as const;
