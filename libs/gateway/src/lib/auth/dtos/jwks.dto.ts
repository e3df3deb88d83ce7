import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { Jwks, PublicJwk } from '@gatehouse/contracts';

class PublicJwkDto implements PublicJwk {
  @ApiProperty({ example: 'EC' }) kty: string;
  @ApiProperty({ example: 'k1' }) kid: string;
  @ApiProperty({ example: 'ES256' }) alg: string;
  @ApiProperty({ enum: ['sig'] }) use: 'sig';
  @ApiPropertyOptional({ example: 'P-256' }) crv?: string;
  @ApiPropertyOptional() x?: string;
  @ApiPropertyOptional() y?: string;
}

/** RFC 7517 key set: the public keys customer access tokens are verified with. */
export class JwksDto implements Jwks {
  @ApiProperty({ type: [PublicJwkDto] }) keys: PublicJwkDto[];
}
