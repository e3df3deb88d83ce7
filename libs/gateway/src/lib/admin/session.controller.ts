import { Body, Controller, Delete, Get, HttpCode, Post, Put, Res } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AdminRequests, type MembershipView, type SessionView, type StaffView } from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import type { FastifyReply } from 'fastify';
import { GatewayConfig } from '../gateway.config';
import { NotAudited } from '../audit-log/audit-rules';
import { Auth } from '../edge/credentials';
import { Caller, sessionOf, type Principal } from '../edge/principal';
import { clearedSessionCookie, sessionCookie } from '../edge/session-cookie';
import { StaffLoginDto, SwitchPublicationDto } from './dtos/admin.dto';
import { SessionViewDto, StaffLoginResultDto } from './dtos/admin-views.dto';

@ApiTags('admin session')
@Controller('admin/session')
export class SessionController {
  private readonly secureCookie: boolean;

  constructor(
    private readonly bus: BusClient,
    config: GatewayConfig,
  ) {
    this.secureCookie = (config.PUBLIC_BASE_URL ?? '').startsWith('https:');
  }

  @Post()
  @HttpCode(200)
  @Auth('none')
  @ApiOperation({ summary: 'Log a staff member in; sets the `service_session` cookie (HttpOnly, SameSite=Lax).' })
  @ApiOkResponse({ type: StaffLoginResultDto })
  @ApiResponse({ status: 401, description: '`invalid_credentials`' })
  async login(@Body() body: StaffLoginDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<{ staff: StaffView; publication: MembershipView }> {
    const { token, staff, publication } = await this.bus.request(AdminRequests.CreateSession, body);
    void reply.header('Set-Cookie', sessionCookie(token, this.secureCookie));
    return { staff, publication };
  }

  @Get()
  @Auth('session')
  @ApiOperation({ summary: 'The session: staff member, current publication with role, and all publications.' })
  @ApiOkResponse({ type: SessionViewDto })
  current(@Caller() caller: Principal): Promise<SessionView> {
    return this.bus.request(AdminRequests.GetSession, { sessionId: sessionOf(caller).sessionId });
  }

  @Put('publication')
  @Auth('session', { viewerMayWrite: true })
  @NotAudited()
  @ApiOperation({ summary: 'Switch the publication every admin route acts on.' })
  @ApiOkResponse({ type: SessionViewDto, description: 'The session after the switch.' })
  @ApiResponse({ status: 404, description: '`not_found`: not a publication of yours' })
  switchPublication(@Caller() caller: Principal, @Body() body: SwitchPublicationDto): Promise<SessionView> {
    return this.bus.request(AdminRequests.SwitchPublication, { sessionId: sessionOf(caller).sessionId, publicationId: body.publicationId });
  }

  @Delete()
  @HttpCode(204)
  @Auth('session', { viewerMayWrite: true })
  @NotAudited()
  @ApiOperation({ summary: 'Log out: the session is revoked server side.' })
  @ApiNoContentResponse()
  async logout(@Caller() caller: Principal, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    await this.bus.request(AdminRequests.DeleteSession, { sessionId: sessionOf(caller).sessionId });
    void reply.header('Set-Cookie', clearedSessionCookie(this.secureCookie));
  }
}
