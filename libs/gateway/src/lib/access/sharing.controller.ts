import { Body, Controller, Get, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AccessRequests, IdentityRequests, type ShareLink, type ShareSettings } from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { Auth } from '../edge/credentials';
import { Caller, customerOf, keyPublicationOf, publicationOf, type Principal } from '../edge/principal';
import { CreateShareLinkDto, ShareLinkDto, ShareSettingsDto, UpdateShareSettingsDto } from './dtos/sharing.dto';

/** Shared articles (issue #25 item 3, docs/access.md#shared-articles). */
@ApiTags('access')
@Controller()
export class SharingController {
  constructor(private readonly bus: BusClient) {}

  @Post('access/share-links')
  @Auth('customer')
  @ApiOperation({
    summary: 'A subscriber shares a page',
    description:
      'A link that opens this page (and no other) for whoever holds it, as many times and for as long as the publication allows, within the subscriber\'s monthly allowance. The access check of the link\'s URL grants with `reason: shared_link` and `sharedBy`. Emits `share.created`.',
  })
  @ApiCreatedResponse({ type: ShareLinkDto })
  @ApiResponse({ status: 400, description: '`validation_failed`: `url` is not an absolute http(s) URL' })
  @ApiResponse({
    status: 403,
    description: '`share_not_subscriber` (the customer has no subscription that counts), `sharing_disabled` (staff turned sharing off), `url_not_in_publication`',
  })
  @ApiResponse({ status: 429, description: '`share_allowance_exceeded`: the monthly allowance is used up (`Retry-After`: until the next month), or `rate_limited`' })
  async create(@Caller() caller: Principal, @Body() body: CreateShareLinkDto): Promise<ShareLink> {
    const publicationId = keyPublicationOf(caller);
    const { customerId } = customerOf(caller);
    const profile = await this.bus.request(IdentityRequests.GetCustomer, { publicationId, customerId });
    return this.bus.request(AccessRequests.CreateShareLink, { publicationId, domains: caller.apiKey?.domains ?? [], customerId, firstName: profile.name, url: body.url });
  }

  @Get('admin/share-settings')
  @Auth('session-or-secret')
  @ApiTags('admin sharing')
  @ApiOperation({ summary: "Shared articles: whether subscribers may share, each link's opens and lifetime, and the monthly allowance; defaults until changed." })
  @ApiOkResponse({ type: ShareSettingsDto })
  get(@Caller() caller: Principal): Promise<ShareSettings> {
    return this.bus.request(AccessRequests.GetShareSettings, { publicationId: publicationOf(caller) });
  }

  @Put('admin/share-settings')
  @Auth('session-or-secret')
  @ApiTags('admin sharing')
  @ApiOperation({ summary: 'Change the sharing settings; omitted fields stay. Links already created keep their opens and end.' })
  @ApiOkResponse({ type: ShareSettingsDto })
  @ApiResponse({ status: 400, description: '`validation_failed` naming the field out of range' })
  update(@Caller() caller: Principal, @Body() body: UpdateShareSettingsDto): Promise<ShareSettings> {
    return this.bus.request(AccessRequests.UpdateShareSettings, { publicationId: publicationOf(caller), changes: body });
  }
}
