import { Controller } from '@nestjs/common';
import { AdminRequests, type CreatedInvitation, type RequestOf, type TeamMemberView, type TeamView } from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { TeamService } from './team.service';

const { ListTeam, InviteStaff, RevokeInvitation, ChangeRole, RemoveMember, GetInvitation, AcceptInvitation } = AdminRequests;

@Controller()
export class TeamHandler {
  constructor(private readonly team: TeamService) {}

  @Handles(ListTeam)
  list({ actor }: RequestOf<typeof ListTeam>): Promise<TeamView> {
    return this.team.view(actor);
  }

  @Handles(InviteStaff)
  invite({ actor, email, role }: RequestOf<typeof InviteStaff>): Promise<CreatedInvitation> {
    return this.team.invite(actor, email, role);
  }

  @Handles(RevokeInvitation)
  async revokeInvitation({ actor, invitationId }: RequestOf<typeof RevokeInvitation>): Promise<{ revoked: true }> {
    await this.team.revokeInvitation(actor, invitationId);
    return { revoked: true };
  }

  @Handles(ChangeRole)
  changeRole({ actor, staffId, role }: RequestOf<typeof ChangeRole>): Promise<TeamMemberView> {
    return this.team.changeRole(actor, staffId, role);
  }

  @Handles(RemoveMember)
  async remove({ actor, staffId }: RequestOf<typeof RemoveMember>): Promise<{ removed: true }> {
    await this.team.remove(actor, staffId);
    return { removed: true };
  }

  @Handles(GetInvitation)
  describe({ tokenHash }: RequestOf<typeof GetInvitation>) {
    return this.team.describe(tokenHash);
  }

  @Handles(AcceptInvitation)
  accept(acceptance: RequestOf<typeof AcceptInvitation>): Promise<{ email: string; publicationId: string }> {
    return this.team.accept(acceptance);
  }
}
