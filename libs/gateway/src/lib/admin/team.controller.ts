import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AdminRequests, type CreatedInvitation, type MembershipView, type ReplyOf, type StaffView, type TeamMemberView, type TeamView } from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { AppError, sha256Hex } from '@gatehouse/platform';
import type { FastifyReply } from 'fastify';
import { GatewayConfig } from '../gateway.config';
import { AuditedIn } from '../audit-log/audit-rules';
import { Auth } from '../edge/credentials';
import { IdParamPipe } from '../edge/id-param.pipe';
import { Caller, sessionOf, type Principal } from '../edge/principal';
import { sessionCookie } from '../edge/session-cookie';
import { AcceptInvitationDto, ChangeRoleDto, InvitationTokenDto, InviteStaffDto } from './dtos/admin.dto';
import { CreatedInvitationDto, InvitationPreviewDto, StaffLoginResultDto, TeamMemberViewDto, TeamViewDto } from './dtos/admin-views.dto';

const OWNERS_ONLY = '`forbidden`: only an owner (`admin`) changes the team';
const NO_INVITATION = '`not_found`: unknown, used, revoked or expired';

@ApiTags('admin team')
@Controller('admin/team')
export class TeamController {
  constructor(private readonly bus: BusClient) {}

  @Get()
  @Auth('session')
  @ApiOperation({ summary: "The current publication's members with their roles, open invitations and the log of changes." })
  @ApiOkResponse({ type: TeamViewDto })
  list(@Caller() caller: Principal): Promise<TeamView> {
    return this.bus.request(AdminRequests.ListTeam, { actor: sessionOf(caller) });
  }

  @Post('invitations')
  @Auth('session')
  @ApiOperation({ summary: 'Invite someone by email with a role: a single-use link valid 7 days. Its token is in this answer only.' })
  @ApiCreatedResponse({ type: CreatedInvitationDto, description: 'The invitation, with the token of its link (this answer only).' })
  @ApiResponse({ status: 409, description: '`conflict`: already a member' })
  @ApiResponse({ status: 403, description: OWNERS_ONLY })
  invite(@Caller() caller: Principal, @Body() body: InviteStaffDto): Promise<CreatedInvitation> {
    return this.bus.request(AdminRequests.InviteStaff, { actor: sessionOf(caller), email: body.email, role: body.role });
  }

  @Delete('invitations/:id')
  @HttpCode(204)
  @Auth('session')
  @ApiOperation({ summary: 'Revoke an open invitation: its link stops working.' })
  @ApiNoContentResponse({ description: 'Revoked.' })
  @ApiResponse({ status: 404, description: '`not_found`: no such open invitation' })
  @ApiResponse({ status: 403, description: OWNERS_ONLY })
  async revokeInvitation(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string): Promise<void> {
    await this.bus.request(AdminRequests.RevokeInvitation, { actor: sessionOf(caller), invitationId: id });
  }

  @Patch('members/:staffId')
  @Auth('session')
  @ApiOperation({ summary: "Change a member's role." })
  @ApiOkResponse({ type: TeamMemberViewDto, description: 'The member with the new role.' })
  @ApiResponse({ status: 404, description: '`not_found`: no such member of the publication' })
  @ApiResponse({ status: 409, description: '`conflict`: it would leave the publication without an owner' })
  @ApiResponse({ status: 403, description: OWNERS_ONLY })
  changeRole(@Caller() caller: Principal, @Param('staffId', IdParamPipe) staffId: string, @Body() body: ChangeRoleDto): Promise<TeamMemberView> {
    return this.bus.request(AdminRequests.ChangeRole, { actor: sessionOf(caller), staffId, role: body.role });
  }

  @Delete('members/:staffId')
  @HttpCode(204)
  @Auth('session')
  @ApiOperation({ summary: 'Remove a member from the publication; their sessions in it end at once.' })
  @ApiNoContentResponse({ description: 'Removed.' })
  @ApiResponse({ status: 404, description: '`not_found`: no such member of the publication' })
  @ApiResponse({ status: 409, description: '`conflict`: the last owner' })
  @ApiResponse({ status: 403, description: OWNERS_ONLY })
  async remove(@Caller() caller: Principal, @Param('staffId', IdParamPipe) staffId: string): Promise<void> {
    await this.bus.request(AdminRequests.RemoveMember, { actor: sessionOf(caller), staffId });
  }
}

/** The invitee's side: no session yet, the link's token is the credential (sent in a body, never in a logged URL). */
@ApiTags('admin team')
@Controller('admin/invitations')
export class InvitationsController {
  private readonly secureCookie: boolean;

  constructor(
    private readonly bus: BusClient,
    config: GatewayConfig,
  ) {
    this.secureCookie = (config.PUBLIC_BASE_URL ?? '').startsWith('https:');
  }

  @Post('preview')
  @HttpCode(200)
  @Auth('none')
  @ApiOperation({ summary: 'What an invitation link is for, before accepting it.' })
  @ApiOkResponse({ type: InvitationPreviewDto })
  @ApiResponse({ status: 404, description: NO_INVITATION })
  preview(@Body() body: InvitationTokenDto): Promise<ReplyOf<typeof AdminRequests.GetInvitation>> {
    return this.bus.request(AdminRequests.GetInvitation, { tokenHash: sha256Hex(body.token) });
  }

  @Post('accept')
  @HttpCode(200)
  @Auth('session-if-sent')
  @AuditedIn((_params, joined: { publication: MembershipView }) => joined.publication.id)
  @ApiOperation({
    summary:
      'Accept an invitation: signed in as the invited email, it joins that account (no password); otherwise it makes a new account with `name` and `password`. Either way you are signed in to the publication joined.',
  })
  @ApiOkResponse({
    type: StaffLoginResultDto,
    description: 'Signed in to the publication joined.',
    headers: { 'Set-Cookie': { description: 'The `service_session` cookie (HttpOnly, SameSite=Lax), for a new account.', schema: { type: 'string' } } },
  })
  @ApiResponse({ status: 404, description: NO_INVITATION })
  @ApiResponse({
    status: 401,
    description: '`invalid_credentials`: the email has an account: sign in as it, then accept (a password is never checked here; each try counts as a failed sign-in)',
  })
  @ApiResponse({ status: 403, description: '`forbidden`: signed in as another email' })
  @ApiResponse({ status: 429, description: '`rate_limited`: too many failed sign-ins for the email (shared with staff login)' })
  async accept(@Caller() caller: Principal, @Body() body: AcceptInvitationDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<{ staff: StaffView; publication: MembershipView }> {
    const tokenHash = sha256Hex(body.token);
    if (caller.session) {
      const { publicationId } = await this.bus.request(AdminRequests.AcceptInvitation, { tokenHash, staffId: caller.session.staffId });
      const { staff, publication } = await this.bus.request(AdminRequests.SwitchPublication, { sessionId: caller.session.sessionId, publicationId });
      return { staff, publication };
    }
    if (body.name === undefined || body.password === undefined) {
      throw new AppError('validation_failed', 'Sign in first to join with an existing account, or give a name and a password for a new one.', [
        ...(body.name === undefined ? [{ field: 'name', message: 'is required for a new account' }] : []),
        ...(body.password === undefined ? [{ field: 'password', message: 'is required for a new account' }] : []),
      ]);
    }
    const { email, publicationId } = await this.bus.request(AdminRequests.AcceptInvitation, { tokenHash, name: body.name, password: body.password });
    const { token, staff, publication } = await this.bus.request(AdminRequests.CreateSession, { email, password: body.password, publicationId });
    void reply.header('Set-Cookie', sessionCookie(token, this.secureCookie));
    return { staff, publication };
  }
}
