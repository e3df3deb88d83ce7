import { Body, Controller, Get, Headers, Put, Res } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { BrandingRequests, type BrandingConfiguration } from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import type { FastifyReply } from 'fastify';
import { Auth } from '../edge/credentials';
import { Caller, keyPublicationOf, sessionOf, type Principal } from '../edge/principal';
import { BrandingConfigurationDto, UpdateBrandingDto } from './dtos/branding.dto';
import { entityTagOf, ifMatchRevisions, ifNoneMatchHits } from './entity-tag';
import { reviewCustomCss } from '@gatehouse/platform';

@ApiTags('branding')
@Controller('branding')
export class BrandingController {
  constructor(private readonly bus: BusClient) {}

  @Get()
  @Auth('publishable')
  @ApiOperation({
    summary: "The key's publication's branding, for the UI components.",
    description:
      'Cacheable for 60 s (`Cache-Control: public, max-age=60`, `Vary: X-API-Key`) with a strong `ETag`; a request whose `If-None-Match` names the current tag answers 304 without a body.',
  })
  @ApiHeader({ name: 'If-None-Match', required: false, description: 'The ETag of a copy the client holds.' })
  @ApiOkResponse({ type: BrandingConfigurationDto, headers: { ETag: { description: 'Strong entity tag of the body', schema: { type: 'string', example: '"9c1f0e2a"' } } } })
  @ApiResponse({ status: 304, description: 'Not modified: the copy named in If-None-Match is current' })
  async get(
    @Caller() caller: Principal,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<BrandingConfiguration | undefined> {
    const stored = await this.bus.request(BrandingRequests.Get, { publicationId: keyPublicationOf(caller) });
    // What an earlier version stored unchecked reaches readers confined too (docs/branding.md, "Custom CSS").
    const customCss = stored.configuration.customCss;
    const branding = customCss ? { ...stored, configuration: { ...stored.configuration, customCss: reviewCustomCss(customCss, caller.apiKey?.domains ?? []).confined } } : stored;
    const entityTag = entityTagOf(branding);
    // Shared caches must keep one copy per key: each key belongs to one publication.
    void reply.header('Cache-Control', 'public, max-age=60').header('Vary', 'Origin, X-API-Key').header('ETag', entityTag);
    if (!ifNoneMatchHits(ifNoneMatch, entityTag)) return branding.configuration;
    void reply.status(304);
    return undefined;
  }

  @Get('admin')
  @Auth('session')
  @ApiOperation({ summary: "The current publication's branding, for the dashboard." })
  @ApiOkResponse({
    type: BrandingConfigurationDto,
    description: 'Not cached (`Cache-Control: no-store`).',
    headers: { ETag: { description: 'Strong entity tag, for `If-Match` on the next PUT', schema: { type: 'string', example: '"9c1f0e2a"' } } },
  })
  async getForStaff(@Caller() caller: Principal, @Res({ passthrough: true }) reply: FastifyReply): Promise<BrandingConfiguration> {
    const branding = await this.bus.request(BrandingRequests.Get, { publicationId: sessionOf(caller).publicationId });
    void reply.header('Cache-Control', 'no-store').header('ETag', entityTagOf(branding));
    return branding.configuration;
  }

  @Put('admin')
  @Auth('session')
  @ApiOperation({ summary: 'Change the branding: omitted fields stay as they are, `null` clears one. Answers the whole configuration.' })
  @ApiHeader({ name: 'If-Match', required: false, description: 'The ETag of the configuration the change was made on; another tag answers 412.', schema: { type: 'string' } })
  @ApiOkResponse({
    type: BrandingConfigurationDto,
    headers: { ETag: { description: 'Strong entity tag of the new configuration', schema: { type: 'string', example: '"9c1f0e2a"' } } },
  })
  @ApiResponse({ status: 400, description: '`validation_failed`, naming each invalid or unknown field in `errors`' })
  @ApiResponse({ status: 412, description: '`precondition_failed`: someone changed the branding since the `If-Match` copy was read' })
  async update(
    @Caller() caller: Principal,
    @Body() body: UpdateBrandingDto,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<BrandingConfiguration> {
    const publicationId = sessionOf(caller).publicationId;
    const ifRevisions = ifMatch === undefined ? undefined : ifMatchRevisions(ifMatch);
    const branding = await this.bus.request(BrandingRequests.Update, { publicationId, changes: body, ifRevisions });
    void reply.header('ETag', entityTagOf(branding));
    return branding.configuration;
  }
}
