import type { Session } from './session.entity';

/** Decisions A4: 12 hours without a request ends a session, and none outlives 7 days. */
export const SESSION_IDLE_TIMEOUT_MS = 12 * 60 * 60_000;
export const SESSION_MAX_LIFETIME_MS = 7 * 24 * 60 * 60_000;

export function sessionExpiry(createdAt: Date): Date {
  return new Date(createdAt.getTime() + SESSION_MAX_LIFETIME_MS);
}

export function isSessionLive(session: Session, now: Date): boolean {
  const idleMs = now.getTime() - session.lastSeenAt.getTime();
  return session.revokedAt === null && idleMs <= SESSION_IDLE_TIMEOUT_MS && now < session.expiresAt;
}
