import { Controller } from '@nestjs/common';
import { AdminRequests, type CreatedSession, type RequestOf, type ResolvedSession, type SessionView } from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { SessionsService } from './sessions.service';

const { ResolveSession, CreateSession, GetSession, SwitchPublication, DeleteSession } = AdminRequests;

@Controller()
export class SessionsHandler {
  constructor(private readonly sessions: SessionsService) {}

  @Handles(CreateSession)
  create({ email, password, publicationId }: RequestOf<typeof CreateSession>): Promise<CreatedSession> {
    return this.sessions.create(email, password, publicationId);
  }

  @Handles(ResolveSession)
  resolve({ tokenHash }: RequestOf<typeof ResolveSession>): Promise<ResolvedSession | null> {
    return this.sessions.resolve(tokenHash);
  }

  @Handles(GetSession)
  get({ sessionId }: RequestOf<typeof GetSession>): Promise<SessionView> {
    return this.sessions.view(sessionId);
  }

  @Handles(SwitchPublication)
  switchPublication({ sessionId, publicationId }: RequestOf<typeof SwitchPublication>): Promise<SessionView> {
    return this.sessions.switchPublication(sessionId, publicationId);
  }

  @Handles(DeleteSession)
  async delete({ sessionId }: RequestOf<typeof DeleteSession>): Promise<{ deleted: true }> {
    await this.sessions.revoke(sessionId);
    return { deleted: true };
  }
}
