import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { STAFF_ROLES, type StaffRole } from '@gatehouse/contracts';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsEmail, IsIn, IsOptional, IsString, IsUUID, Length, Matches, MaxLength } from 'class-validator';

const HOST = /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const trimLower = (v: unknown) => (typeof v === 'string' ? v.trim().toLowerCase() : v);
const lowerCase = ({ value }: { value: unknown }) => trimLower(value);
const lowerCaseAll = ({ value }: { value: unknown }) => (Array.isArray(value) ? value.map(trimLower) : value);

export class StaffLoginDto {
  @ApiProperty({ example: 'admin@example.com' })
  @Transform(lowerCase)
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

  @ApiPropertyOptional({ description: 'Whether readers may create their own accounts; when off, registration answers 403 `registration_closed` and existing readers still sign in.' })
  @IsOptional()
  @IsBoolean()
  selfRegistration?: boolean;
}

export class VerifyDomainDto {
  @ApiProperty({ example: '*.news.example', description: 'One of the publication’s domains, as claimed.' })
  @Transform(lowerCase)
  @IsString()
  @Matches(HOST, { message: 'must be a host name such as example.com or *.example.com' })
  domain: string;
}

export class CreateApiKeyPairDto {
  @ApiProperty({ example: 'production-site', description: 'Unique in the publication forever, revoked pairs included. Letters, digits, `_ . -`.' })
  @IsString()
  @Matches(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, { message: 'must be 1 to 64 letters, digits, _ . or -, starting with a letter or digit' })
  name: string;
}

const ROLE_MESSAGE = 'must be admin (owner), editor or viewer';

export class InviteStaffDto {
  @ApiProperty({ example: 'colleague@example.com' })
  @Transform(lowerCase)
  @IsEmail({}, { message: 'must be a valid email address' })
  @MaxLength(254)
  email: string;

  @ApiProperty({ enum: STAFF_ROLES, description: '`admin` is an owner; `editor` changes all but the team and the publication; `viewer` reads only.' })
  @IsIn(STAFF_ROLES, { message: ROLE_MESSAGE })
  role: StaffRole;
}

export class ChangeRoleDto {
  @ApiProperty({ enum: STAFF_ROLES })
  @IsIn(STAFF_ROLES, { message: ROLE_MESSAGE })
  role: StaffRole;
}

export class InvitationTokenDto {
  @ApiProperty({ description: 'The token of the invitation link.' })
  @IsString()
  @Length(1, 200)
  token: string;
}

export class AcceptInvitationDto extends InvitationTokenDto {
  @ApiPropertyOptional({ description: 'Your name, for a new account; not needed when signed in.', minLength: 1, maxLength: 100 })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  name?: string;

  @ApiPropertyOptional({ description: 'A new password (8 to 72 characters), for a new account; not needed when signed in.', minLength: 8, maxLength: 72 })
  @IsOptional()
  @IsString()
  @Length(8, 72, { message: 'must be 8 to 72 characters' })
  password?: string;
}
