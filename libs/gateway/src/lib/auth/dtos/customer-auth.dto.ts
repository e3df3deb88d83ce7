import { ApiProperty } from '@nestjs/swagger';
import type { CustomerAuthResult, CustomerProfile, CustomerView } from '@gatehouse/contracts';
import { Transform } from 'class-transformer';
import { IsByteLength, IsEmail, IsString, Length, MaxLength } from 'class-validator';

const normaliseEmail = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value);

export class CustomerCredentialsDto {
  @ApiProperty({ example: 'reader@example.com', maxLength: 254, description: 'Trimmed and lower-cased.' })
  @Transform(normaliseEmail)
  @IsEmail({}, { message: 'must be a valid email address' })
  @MaxLength(254)
  email: string;

  @ApiProperty({ example: 'correct horse battery', description: '8 to 72 bytes of UTF-8.' })
  @IsString()
  @IsByteLength(8, 72, { message: 'must be 8 to 72 bytes of UTF-8' })
  password: string;
}

export class RegisterCustomerDto extends CustomerCredentialsDto {
  @ApiProperty({ example: 'Ada Lovelace', minLength: 1, maxLength: 100 })
  @IsString()
  @Length(1, 100)
  name: string;
}

export class RefreshTokenDto {
  @ApiProperty({ description: 'The refresh token from the last auth result.' })
  @IsString()
  @Length(1, 512)
  refreshToken: string;
}

class CustomerDto implements CustomerView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() email: string;
  @ApiProperty() name: string;
}

export class CustomerAuthResultDto implements CustomerAuthResult {
  @ApiProperty({ description: 'ES256 JWT, valid 15 minutes.' }) accessToken: string;
  @ApiProperty({ description: 'Opaque, single use, valid 30 days.' }) refreshToken: string;
  @ApiProperty({ description: 'Access-token expiry, Unix epoch milliseconds.' }) expiresAt: number;
  @ApiProperty({ type: CustomerDto }) customer: CustomerDto;
}

export class CustomerProfileDto extends CustomerDto implements CustomerProfile {
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}
