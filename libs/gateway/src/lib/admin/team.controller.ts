import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AdminRequests, type CreatedInvitation, type MembershipView, type StaffRole, type StaffView, type TeamMemberView, type TeamView } from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { sha256Hex } from '@gatehouse/platform';
import type { FastifyReply } from 'fastify';
import { GatewayConfig } from '../gateway.config';
import { Auth } from '../edge/credentials';
import { IdParamPipe } from '../edge/id-param.pipe';
import { Caller, sessionOf, type Principal } from '../edge/principal';
import { sessionCookie } from '../edge/session-cookie';
import { AcceptInvitationDto, ChangeRoleDto, InvitationTokenDto, InviteStaffDto } from './dtos/admin.dto';

const OWNERS_ONLY = '`forbidden`: only an owner (`admin`) changes the team';

@ApiTags('admin team')
@Controller('admin/team')
export class TeamController {
  constructor(private readonly bus: BusClient) {}

  @Get()
  @Auth('session')
  @ApiOperation({ summary: "The current publication's members with their roles, open invitations and the log of changes." })
  @ApiOkResponse({ description: '`{members: [{id, email, name, role, joinedAt}], invitations: [...], log: [{action, actor, subject, role, at}]}`' })
  list(@Caller() caller: Principal): Promise<TeamView> {
    return this.bus.request(AdminRequests.ListTeam, { actor: sessionOf(caller) });
  }

  @Post('invitations')
  @Auth('session')
  @ApiOperation({ summary: 'Invite someone by email with a role: a single-use link valid 7 days. Its token is in this answer only.' })
  @ApiCreatedResponse({ description: '`{id, email, role, invitedBy, createdAt, expiresAt, token}`' })
  @ApiResponse({ status: 409, description: '`conflict`: already a member' })
  @ApiResponse({ status: 403, description: OWNERS_ONLY })
  invite(@Caller() caller: Principal, @Body() body: InviteStaffDto): Promise<CreatedInvitation> {
    return this.bus.request(AdminRequests.InviteStaff, { actor: sessionOf(caller), email: body.email, role: body.role });
  }

  @Delete('invitations/:id')
  @HttpCode(204)
  @Auth('session')
  @ApiOperation({ summary: 'Revoke an open invitation: its link stops working.' })
  @ApiNoContentResponse()
  async revokeInvitation(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string): Promise<void> {
    await this.bus.request(AdminRequests.RevokeInvitation, { actor: sessionOf(caller), invitationId: id });
  }

  @Patch('members/:staffId')
  @Auth('session')
  @ApiOperation({ summary: "Change a member's role." })
  @ApiOkResponse({ description: '`{id, email, name, role, joinedAt}`' })
  @ApiResponse({ status: 409, description: '`conflict`: it would leave the publication without an owner' })
  changeRole(@Caller() caller: Principal, @Param('staffId', IdParamPipe) staffId: string, @Body() body: ChangeRoleDto): Promise<TeamMemberView> {
    return this.bus.request(AdminRequests.ChangeRole, { actor: sessionOf(caller), staffId, role: body.role });
  }

  @Delete('members/:staffId')
  @HttpCode(204)
  @Auth('session')
  @ApiOperation({ summary: 'Remove a member from the publication; their sessions in it end at once.' })
  @ApiNoContentResponse()
  @ApiResponse({ status: 409, description: '`conflict`: the last owner' })
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
  @ApiOkResponse({ description: '`{email, role, publicationName, accountExists}`' })
  @ApiResponse({ status: 404, description: '`not_found`: unknown, used, revoked or expired' })
  preview(@Body() body: InvitationTokenDto): Promise<{ email: string; role: StaffRole; publicationName: string; accountExists: boolean }> {
    return this.bus.request(AdminRequests.GetInvitation, { tokenHash: sha256Hex(body.token) });
  }

  @Post('accept')
  @HttpCode(200)
  @Auth('none')
  @ApiOperation({ summary: 'Accept an invitation by setting a password (or giving your existing one); signs you in to that publication.' })
  @ApiOkResponse({ description: '`{staff, publication}`, with the `service_session` cookie set' })
  @ApiResponse({ status: 404, description: '`not_found`: unknown, used, revoked or expired' })
  @ApiResponse({ status: 401, description: '`invalid_credentials`: the email has an account and the password is not its own' })
  async accept(@Body() body: AcceptInvitationDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<{ staff: StaffView; publication: MembershipView }> {
    const { email, publicationId } = await this.bus.request(AdminRequests.AcceptInvitation, { tokenHash: sha256Hex(body.token), name: body.name, password: body.password });
    const { token, staff, publication } = await this.bus.request(AdminRequests.CreateSession, { email, password: body.password, publicationId });
    void reply.header('Set-Cookie', sessionCookie(token, this.secureCookie));
    return { staff, publication };
  }
}
