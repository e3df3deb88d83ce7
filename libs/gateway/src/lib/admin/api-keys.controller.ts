import { Body, Controller, Delete, Get, HttpCode, Param, Post, UseInterceptors } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AdminRequests, type ApiKeyView, type CreatedApiKeyPair } from '@gatehouse/contracts';
import { BusClient, ReadYourWritesInterceptor } from '@gatehouse/bus';
import { Auth } from '../edge/credentials';
import { IdParamPipe } from '../edge/id-param.pipe';
import { Caller, sessionOf, type Principal } from '../edge/principal';
import { CreateApiKeyPairDto } from './dtos/admin.dto';
import { ApiKeyViewDto, CreatedApiKeyPairDto } from './dtos/admin-views.dto';

@ApiTags('admin api keys')
@Controller('admin/api-keys')
// Its writes change what the gateway's read models hold: each is answered once this replica heard of it.
@UseInterceptors(ReadYourWritesInterceptor)
export class ApiKeysController {
  constructor(private readonly bus: BusClient) {}

  @Get()
  @Auth('session')
  @ApiOperation({ summary: "The publication's keys, revoked ones included: publishable keys whole (they are public), secret keys by their prefix only." })
  @ApiOkResponse({ type: [ApiKeyViewDto] })
  list(@Caller() caller: Principal): Promise<ApiKeyView[]> {
    return this.bus.request(AdminRequests.ListApiKeys, { publicationId: sessionOf(caller).publicationId });
  }

  @Post()
  @Auth('session')
  @ApiOperation({ summary: 'Create a key pair. The secret key is in this answer only and stored hashed; the publishable key, public by design, stays listed.' })
  @ApiCreatedResponse({ type: CreatedApiKeyPairDto })
  @ApiResponse({ status: 409, description: '`conflict`: the name was used before in this publication, even by a revoked pair' })
  create(@Caller() caller: Principal, @Body() body: CreateApiKeyPairDto): Promise<CreatedApiKeyPair> {
    return this.bus.request(AdminRequests.CreateApiKeyPair, { publicationId: sessionOf(caller).publicationId, name: body.name });
  }

  @Delete('pairs/:name')
  @HttpCode(204)
  @Auth('session')
  @ApiOperation({ summary: 'Revoke both keys of a pair, at once and for good.' })
  @ApiNoContentResponse()
  @ApiResponse({ status: 404, description: '`not_found`' })
  async revokePair(@Caller() caller: Principal, @Param('name') name: string): Promise<void> {
    await this.bus.request(AdminRequests.RevokeApiKeyPair, { publicationId: sessionOf(caller).publicationId, name });
  }

  @Delete(':id')
  @HttpCode(204)
  @Auth('session')
  @ApiOperation({ summary: 'Revoke one key; the other key of its pair keeps working.' })
  @ApiNoContentResponse()
  @ApiResponse({ status: 404, description: '`not_found`' })
  async revoke(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string): Promise<void> {
    await this.bus.request(AdminRequests.RevokeApiKey, { publicationId: sessionOf(caller).publicationId, keyId: id });
  }
}
