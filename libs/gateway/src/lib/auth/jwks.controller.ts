import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { GetJwks, type Jwks } from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { Auth } from '../edge/credentials';
import { JwksDto } from './dtos/jwks.dto';

@ApiTags('customer auth')
@Controller('auth/.well-known')
export class JwksController {
  constructor(private readonly bus: BusClient) {}

  @Get('jwks.json')
  @Auth('none')
  @Header('Cache-Control', 'public, max-age=300')
  @ApiOperation({ summary: 'Public keys that verify customer access tokens (JWKS). No credentials.' })
  @ApiOkResponse({ type: JwksDto })
  @ApiServiceUnavailableResponse({ description: '`service_unavailable`: identity did not answer within 5 s.' })
  jwks(): Promise<Jwks> {
    return this.bus.request(GetJwks, {});
  }
}
