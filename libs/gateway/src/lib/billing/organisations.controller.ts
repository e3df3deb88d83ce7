import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  OrganisationRequests,
  StatsRequests,
  type OrganisationInvitationView,
  type OrganisationMemberView,
  type OrganisationSeatsView,
  type OrganisationStats,
  type OrganisationView,
  type Page,
} from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { EdgeCheckRecorder } from '../access/edge-check-recorder.service';
import { EmailWithReturnUrlDto } from '../auth/dtos/account-email.dto';
import { Auth, RateLimit } from '../edge/credentials';
import { IdParamPipe } from '../edge/id-param.pipe';
import { Idempotent } from '../edge/idempotency.service';
import { PageQueryDto } from '../edge/page-query.dto';
import { Caller, customerOf, keyPublicationOf, publicationOf, type Principal } from '../edge/principal';
import { requirePublicationPages } from '../edge/publication-pages';
import { DAY_MS, statsRange } from '../stats/stats-range';
import {
  CreateOrganisationDto,
  OrganisationInvitationTokenDto,
  JoinedSeatDto,
  ManagedOrganisationsDto,
  OrganisationInvitationDto,
  OrganisationInvitationViewDto,
  OrganisationPageDto,
  OrganisationSeatsViewDto,
  OrganisationStatsDto,
  OrganisationStatsQueryDto,
  OrganisationViewDto,
  UpdateOrganisationDto,
} from './dtos/organisations.dto';

const STAFF = { staff: true } as const;
/** An organisation's stats cover at most a year and a day; 30 days unless told. */
const STATS_MAX_RANGE_MS = 366 * DAY_MS;
const STATS_DEFAULT_RANGE_MS = 30 * DAY_MS;
const FULL = '`organisation_full`: every seat is taken';

@ApiTags('admin organisations')
@Controller('admin/organisations')
export class AdminOrganisationsController {
  constructor(
    private readonly bus: BusClient,
    private readonly edgeChecks: EdgeCheckRecorder,
  ) {}

  @Get()
  @Auth('session-or-secret')
  @ApiOperation({ summary: "The publication's organisations, newest first, cursor paginated, with the seats each uses." })
  @ApiOkResponse({ type: OrganisationPageDto })
  @ApiResponse({ status: 400, description: '`validation_failed`: a bad `limit`, or a `cursor` this list did not issue' })
  list(@Caller() caller: Principal, @Query() query: PageQueryDto): Promise<Page<OrganisationView>> {
    return this.bus.request(OrganisationRequests.List, { publicationId: publicationOf(caller), ...query });
  }

  @Post()
  @Auth('session-or-secret')
  @Idempotent()
  @ApiOperation({ summary: 'Create an organisation: group access to a product by seats, email domains and IP ranges, for a term. Emits `organisation.created`.' })
  @ApiCreatedResponse({ type: OrganisationViewDto })
  @ApiResponse({
    status: 400,
    description: '`validation_failed` naming the field: a product or manager not of the publication, a range that is not CIDR, overlaps another organisation’s or is reserved without `allowReservedRanges`, a domain of another organisation',
  })
  create(@Caller() caller: Principal, @Body() body: CreateOrganisationDto): Promise<OrganisationView> {
    return this.bus.request(OrganisationRequests.Create, { publicationId: publicationOf(caller), organisation: body });
  }

  @Get(':id')
  @Auth('session-or-secret')
  @ApiOperation({ summary: 'One organisation.' })
  @ApiOkResponse({ type: OrganisationViewDto })
  @ApiResponse({ status: 404, description: '`not_found`' })
  get(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string): Promise<OrganisationView> {
    return this.bus.request(OrganisationRequests.Get, { publicationId: publicationOf(caller), organisationId: id });
  }

  @Patch(':id')
  @Auth('session-or-secret')
  @Idempotent()
  @ApiOperation({ summary: 'Change an organisation; what is absent stays as it is. Members and networks follow at the next check. Emits `organisation.updated`.' })
  @ApiOkResponse({ type: OrganisationViewDto })
  @ApiResponse({ status: 400, description: '`validation_failed`: as for creation, or fewer seats than members' })
  @ApiResponse({ status: 404, description: '`not_found`' })
  update(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string, @Body() changes: UpdateOrganisationDto): Promise<OrganisationView> {
    return this.bus.request(OrganisationRequests.Update, { publicationId: publicationOf(caller), organisationId: id, changes });
  }

  @Delete(':id')
  @HttpCode(204)
  @Auth('session-or-secret')
  @ApiOperation({ summary: 'Delete an organisation: its members and networks lose access at their next check. Emits `organisation.deleted`.' })
  @ApiNoContentResponse()
  @ApiResponse({ status: 404, description: '`not_found`' })
  async delete(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string): Promise<void> {
    await this.bus.request(OrganisationRequests.Delete, { publicationId: publicationOf(caller), organisationId: id });
  }

  @Get(':id/seats')
  @Auth('session-or-secret')
  @ApiOperation({ summary: 'Who holds a seat, and the open invitations.' })
  @ApiOkResponse({ type: OrganisationSeatsViewDto })
  @ApiResponse({ status: 404, description: '`not_found`' })
  seats(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string): Promise<OrganisationSeatsView> {
    return this.bus.request(OrganisationRequests.Seats, { publicationId: publicationOf(caller), organisationId: id, actor: STAFF });
  }

  @Get(':id/stats')
  @Auth('session-or-secret')
  @ApiOperation({
    summary:
      'An organisation’s readers (members holding a seat; distinct readers it let in within the range), reads (checks granted with `reason: organisation`, by seat and by network, anonymous ones included) and seats.',
  })
  @ApiOkResponse({ type: OrganisationStatsDto })
  @ApiResponse({ status: 400, description: '`validation_failed`: `from` not before `to`, or a range over 366 days' })
  @ApiResponse({ status: 404, description: '`not_found`' })
  async stats(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string, @Query() query: OrganisationStatsQueryDto): Promise<OrganisationStats> {
    const range = statsRange(query, STATS_DEFAULT_RANGE_MS, STATS_MAX_RANGE_MS);
    // The checks this gateway answered itself count before their figures are read.
    await this.edgeChecks.flush();
    return this.bus.request(StatsRequests.GetOrganisationStats, { publicationId: publicationOf(caller), organisationId: id, ...range });
  }

  @Post(':id/invitations')
  @Auth('session-or-secret')
  @Idempotent()
  @ApiOperation({
    summary:
      "Invite an address to a seat: a branded email whose link (valid 14 days, on the publication's first domain) lets the reader sign in or up and join. A second invitation of the address replaces the first. Emits `organisation.member_invited`.",
  })
  @ApiCreatedResponse({ type: OrganisationInvitationViewDto })
  @ApiResponse({ status: 400, description: '`validation_failed`: not an email address' })
  @ApiResponse({ status: 404, description: '`not_found`' })
  @ApiResponse({ status: 409, description: `${FULL}; \`conflict\`: the address already holds a seat` })
  invite(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string, @Body() body: OrganisationInvitationDto): Promise<OrganisationInvitationView> {
    return this.bus.request(OrganisationRequests.Invite, { publicationId: publicationOf(caller), organisationId: id, actor: STAFF, email: body.email });
  }

  @Delete(':id/invitations/:invitationId')
  @HttpCode(204)
  @Auth('session-or-secret')
  @ApiOperation({ summary: 'Withdraw an open invitation: its link stops working.' })
  @ApiNoContentResponse()
  @ApiResponse({ status: 404, description: '`not_found`' })
  async cancelInvitation(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string, @Param('invitationId', IdParamPipe) invitationId: string): Promise<void> {
    await this.bus.request(OrganisationRequests.CancelInvitation, { publicationId: publicationOf(caller), organisationId: id, actor: STAFF, invitationId });
  }

  @Delete(':id/members/:customerId')
  @HttpCode(204)
  @Auth('session-or-secret')
  @ApiOperation({ summary: "Free a member's seat: their access ends at their next check. Emits `organisation.member_removed`." })
  @ApiNoContentResponse()
  @ApiResponse({ status: 404, description: '`not_found`' })
  async removeMember(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string, @Param('customerId', IdParamPipe) customerId: string): Promise<void> {
    await this.bus.request(OrganisationRequests.RemoveMember, { publicationId: publicationOf(caller), organisationId: id, actor: STAFF, customerId });
  }
}

/** The routes of the `<gatehouse-organisation>` element: a manager's seats, and a reader accepting an invitation. */
@ApiTags('organisations')
@Controller('organisations')
export class OrganisationsController {
  constructor(private readonly bus: BusClient) {}

  @Get('managed')
  @Auth('customer')
  @ApiOperation({ summary: 'The organisations the signed-in reader manages, with their members and open invitations.' })
  @ApiOkResponse({ type: ManagedOrganisationsDto })
  managed(@Caller() caller: Principal): Promise<{ organisations: OrganisationSeatsView[] }> {
    return this.bus.request(OrganisationRequests.Managed, { publicationId: keyPublicationOf(caller), customerId: customerOf(caller).customerId });
  }

  @Post('invitations/accept')
  @HttpCode(200)
  @Auth('customer')
  @ApiOperation({ summary: "The signed-in reader takes the invitation's seat (from the email link's `#gatehouse-join=` token). Emits `organisation.member_joined`." })
  @ApiOkResponse({ type: JoinedSeatDto })
  @ApiResponse({ status: 400, description: '`validation_failed`' })
  @ApiResponse({ status: 409, description: FULL })
  @ApiResponse({ status: 410, description: '`invitation_invalid`: unknown, used, withdrawn or expired' })
  accept(@Caller() caller: Principal, @Body() body: OrganisationInvitationTokenDto): Promise<OrganisationMemberView & { organisation: { id: string; name: string } }> {
    return this.bus.request(OrganisationRequests.AcceptInvitation, { publicationId: keyPublicationOf(caller), customerId: customerOf(caller).customerId, token: body.token });
  }

  @Post(':id/invitations')
  @Auth('customer')
  // It sends mail: limited as the account email routes are.
  @RateLimit('account-email')
  @ApiOperation({ summary: "A manager invites an address to a seat; the email's link opens `returnUrl` (a page of the publication's site). Emits `organisation.member_invited`." })
  @ApiCreatedResponse({ type: OrganisationInvitationViewDto })
  @ApiResponse({ status: 400, description: '`validation_failed`' })
  @ApiResponse({ status: 403, description: "`url_not_in_publication`: `returnUrl` is not on the publication's domains" })
  @ApiResponse({ status: 404, description: '`not_found`: no organisation the reader manages' })
  @ApiResponse({ status: 409, description: `${FULL}; \`conflict\`: the address already holds a seat` })
  invite(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string, @Body() body: EmailWithReturnUrlDto): Promise<OrganisationInvitationView> {
    const { email, returnUrl } = requirePublicationPages(caller, body, ['returnUrl']);
    return this.bus.request(OrganisationRequests.Invite, {
      publicationId: keyPublicationOf(caller),
      organisationId: id,
      actor: { managerId: customerOf(caller).customerId },
      email,
      returnUrl,
    });
  }

  @Delete(':id/invitations/:invitationId')
  @HttpCode(204)
  @Auth('customer')
  @ApiOperation({ summary: 'A manager withdraws an open invitation.' })
  @ApiNoContentResponse()
  @ApiResponse({ status: 404, description: '`not_found`' })
  async cancelInvitation(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string, @Param('invitationId', IdParamPipe) invitationId: string): Promise<void> {
    const actor = { managerId: customerOf(caller).customerId };
    await this.bus.request(OrganisationRequests.CancelInvitation, { publicationId: keyPublicationOf(caller), organisationId: id, actor, invitationId });
  }

  @Delete(':id/members/:customerId')
  @HttpCode(204)
  @Auth('customer')
  @ApiOperation({ summary: "A manager frees a member's seat: the member's access ends at their next check. Emits `organisation.member_removed`." })
  @ApiNoContentResponse()
  @ApiResponse({ status: 404, description: '`not_found`' })
  async removeMember(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string, @Param('customerId', IdParamPipe) customerId: string): Promise<void> {
    const actor = { managerId: customerOf(caller).customerId };
    await this.bus.request(OrganisationRequests.RemoveMember, { publicationId: keyPublicationOf(caller), organisationId: id, actor, customerId });
  }
}
