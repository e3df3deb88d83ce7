import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsEmail, IsOptional, IsString, IsUUID, Length, Matches, MaxLength } from 'class-validator';

const HOST = /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const lowerCaseAll = ({ value }: { value: unknown }) =>
  Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v)) : value;

export class StaffLoginDto {
  @ApiProperty({ example: 'admin@example.com' })
  @Transform(({ value }) => (typeof value === 'string' ? value.trim().toLowerCase() : value))
  @IsEmail({}, { message: 'must be a valid email address' })
  @MaxLength(254)
  email: string;

  @ApiProperty()
  @IsString()
  @Length(1, 200)
  password: string;
}

export class SwitchPublicationDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: 'must be a UUID' })
  publicationId: string;
}

export class CreatePublicationDto {
  @ApiProperty({ example: 'The Daily Planet', minLength: 1, maxLength: 200 })
  @IsString()
  @Length(1, 200)
  name: string;

  @ApiProperty({ example: ['dailyplanet.com', '*.dailyplanet.com'], description: 'Host names; `*.example.com` matches any subdomain.' })
  @Transform(lowerCaseAll)
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @Matches(HOST, { each: true, message: 'each domain must be a host name such as example.com or *.example.com' })
  domains: string[];
}

export class UpdatePublicationDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 200 })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  name?: string;

  @ApiPropertyOptional({ example: ['dailyplanet.com'] })
  @IsOptional()
  @Transform(lowerCaseAll)
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @Matches(HOST, { each: true, message: 'each domain must be a host name such as example.com or *.example.com' })
  domains?: string[];
}

export class CreateApiKeyPairDto {
  @ApiProperty({ example: 'production-site', description: 'Unique in the publication forever, revoked pairs included. Letters, digits, `_ . -`.' })
  @IsString()
  @Matches(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, { message: 'must be 1 to 64 letters, digits, _ . or -, starting with a letter or digit' })
  name: string;
}
