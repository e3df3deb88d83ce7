import { Injectable } from '@nestjs/common';
import type { CreatedSession, ResolvedSession, SessionView } from '@gatehouse/contracts';
import { AppError, Clock } from '@gatehouse/platform';
import { randomUUID } from 'node:crypto';
import { DataSource, IsNull, LessThan } from 'typeorm';
import { PublicationsService } from '../publications/publications.service';
import { isActivityStale } from '../shared/activity';
import { randomToken, sha256Hex } from '@gatehouse/platform';
import { staffView } from '../staff/staff.entity';
import { StaffService } from '../staff/staff.service';
import { isSessionLive, sessionExpiry } from './session-lifetime';
import { Session } from './session.entity';

@Injectable()
export class SessionsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly staff: StaffService,
    private readonly publications: PublicationsService,
  ) {}

  /** Signs a staff member in, in the publication asked for if they are in it, else in their oldest one. */
  async create(email: string, password: string, publicationId?: string): Promise<CreatedSession> {
    const staff = await this.staff.authenticate(email, password);
    const asked = publicationId === undefined ? null : await this.publications.membership(staff.id, publicationId);
    const publication = asked ?? (await this.publications.listFor(staff.id))[0];
    if (!publication) throw new AppError('forbidden', 'This account is not a member of any publication.');
    const token = randomToken();
    const now = this.clock.now();
    const session = this.repository().create({
      id: randomUUID(),
      staffId: staff.id,
      tokenHash: sha256Hex(token),
      currentPublicationId: publication.id,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: sessionExpiry(now),
      revokedAt: null,
    });
    await this.repository().insert(session);
    return { token, expiresAt: session.expiresAt.toISOString(), staff: staffView(staff), publication };
  }

  /**
   * The session behind a cookie, or null when it is unknown, revoked or expired, or its staff member
   * no longer has a role in its current publication. Each use keeps it from idling out.
   */
  async resolve(tokenHash: string): Promise<ResolvedSession | null> {
    const now = this.clock.now();
    const session = await this.repository().findOneBy({ tokenHash });
    if (!session || !isSessionLive(session, now)) return null;
    const membership = await this.publications.membership(session.staffId, session.currentPublicationId);
    if (!membership) return null;
    if (isActivityStale(session.lastSeenAt, now)) {
      // The condition keeps a replica that resolved the same session a moment ago from moving the time back.
      await this.repository().update({ id: session.id, lastSeenAt: LessThan(now) }, { lastSeenAt: now });
    }
    return { sessionId: session.id, staffId: session.staffId, publicationId: membership.id, role: membership.role };
  }

  async view(sessionId: string): Promise<SessionView> {
    return this.viewOf(await this.requireLive(sessionId));
  }

  async switchPublication(sessionId: string, publicationId: string): Promise<SessionView> {
    const session = await this.requireLive(sessionId);
    await this.publications.requireMembership(session.staffId, publicationId);
    await this.repository().update(session.id, { currentPublicationId: publicationId });
    return this.viewOf({ ...session, currentPublicationId: publicationId });
  }

  /** Revoking is idempotent: an unknown or already revoked session is simply gone. */
  async revoke(sessionId: string): Promise<void> {
    await this.repository().update({ id: sessionId, revokedAt: IsNull() }, { revokedAt: this.clock.now() });
  }

  private async requireLive(sessionId: string): Promise<Session> {
    const session = await this.repository().findOneBy({ id: sessionId });
    if (!session || !isSessionLive(session, this.clock.now())) throw new AppError('session_required', 'Sign in again.');
    return session;
  }

  private async viewOf(session: Session): Promise<SessionView> {
    const [staff, publications] = await Promise.all([this.staff.get(session.staffId), this.publications.listFor(session.staffId)]);
    const publication = publications.find((p) => p.id === session.currentPublicationId);
    if (!publication) throw new AppError('session_required', 'Sign in again.');
    return { staff: staffView(staff), publication, publications };
  }

  private repository() {
    return this.dataSource.getRepository(Session);
  }
}
