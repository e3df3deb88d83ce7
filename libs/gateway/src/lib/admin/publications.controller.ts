import { Body, Controller, Get, HttpCode, Param, Patch, Post, UseInterceptors } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AdminRequests, type DomainProofView, type MembershipView } from '@gatehouse/contracts';
import { BusClient, ReadYourWritesInterceptor } from '@gatehouse/bus';
import { AuditedIn } from '../audit-log/audit-rules';
import { Auth } from '../edge/credentials';
import { IdParamPipe } from '../edge/id-param.pipe';
import { Caller, sessionOf, type Principal } from '../edge/principal';
import { CreatePublicationDto, UpdatePublicationDto, VerifyDomainDto } from './dtos/admin.dto';
import { DomainProofListDto, DomainProofViewDto, MembershipPageDto, MembershipViewDto } from './dtos/admin-views.dto';

const PUBLIC_SUFFIX = '`validation_failed`: a domain is a public suffix (`com`, `co.uk`, `github.io`) or a wildcard over one (`*.com`)';

@ApiTags('admin publications')
@Controller('admin/publications')
// Its writes change what the gateway's read models hold: each is answered once this replica heard of it.
@UseInterceptors(ReadYourWritesInterceptor)
export class PublicationsController {
  constructor(private readonly bus: BusClient) {}

  @Get()
  @Auth('session')
  @ApiOperation({ summary: "The caller's publications with the caller's role in each." })
  @ApiOkResponse({ type: MembershipPageDto, description: 'Every publication of the caller, on one page.' })
  async list(@Caller() caller: Principal): Promise<{ items: MembershipView[]; nextCursor: null }> {
    const { publications } = await this.bus.request(AdminRequests.ListPublications, { staffId: sessionOf(caller).staffId });
    return { items: publications, nextCursor: null };
  }

  @Post()
  @Auth('session', { viewerMayWrite: true })
  @AuditedIn((_params, created: MembershipView) => created.id)
  @ApiOperation({ summary: 'Create a publication; the caller becomes its admin.' })
  @ApiCreatedResponse({ type: MembershipViewDto, description: 'The caller is its `admin`.' })
  @ApiResponse({ status: 400, description: PUBLIC_SUFFIX })
  @ApiResponse({ status: 409, description: '`conflict`: a domain overlaps one of another publication (the same, under its wildcard, or a wildcard over it)' })
  create(@Caller() caller: Principal, @Body() body: CreatePublicationDto): Promise<MembershipView> {
    return this.bus.request(AdminRequests.CreatePublication, { staffId: sessionOf(caller).staffId, ...body });
  }

  @Patch(':id')
  @Auth('session', { viewerMayWrite: true })
  @AuditedIn(({ id }) => id)
  @ApiOperation({ summary: 'Rename a publication, change its domains, or open or close self-registration (admins of it only).' })
  @ApiOkResponse({ type: MembershipViewDto })
  @ApiResponse({ status: 404, description: '`not_found`' })
  @ApiResponse({ status: 400, description: PUBLIC_SUFFIX })
  @ApiResponse({ status: 409, description: '`conflict`: a domain overlaps one of another publication (the same, under its wildcard, or a wildcard over it)' })
  async update(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string, @Body() body: UpdatePublicationDto): Promise<MembershipView> {
    return this.bus.request(AdminRequests.UpdatePublication, { staffId: sessionOf(caller).staffId, publicationId: id, ...body });
  }

  @Get(':id/domains')
  @Auth('session')
  @ApiOperation({ summary: "How to prove each of the publication's domains, and which are (admins of it only)." })
  @ApiOkResponse({ type: DomainProofListDto })
  @ApiResponse({ status: 403, description: '`forbidden`: not an admin of the publication' })
  @ApiResponse({ status: 404, description: '`not_found`' })
  domains(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string): Promise<{ items: DomainProofView[] }> {
    return this.bus.request(AdminRequests.ListDomainProofs, { staffId: sessionOf(caller).staffId, publicationId: id });
  }

  @Post(':id/domains/verify')
  @HttpCode(200)
  @Auth('session', { viewerMayWrite: true })
  @AuditedIn(({ id }) => id)
  @ApiOperation({
    summary: 'Look up a domain’s proof (its token in the DNS TXT record, else the well-known file) and record it (admins of it only).',
    description: 'Account email links lead only to verified domains. A wildcard claim is proven on its base domain.',
  })
  @ApiOkResponse({ type: DomainProofViewDto, description: 'The domain is verified.' })
  @ApiResponse({ status: 403, description: '`forbidden`: not an admin of the publication' })
  @ApiResponse({ status: 404, description: '`not_found`: no such publication, or it does not claim the domain' })
  @ApiResponse({ status: 409, description: '`conflict`: neither the TXT record nor the file holds the token (yet)' })
  verify(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string, @Body() body: VerifyDomainDto): Promise<DomainProofView> {
    return this.bus.request(AdminRequests.VerifyDomain, { staffId: sessionOf(caller).staffId, publicationId: id, domain: body.domain });
  }
}
