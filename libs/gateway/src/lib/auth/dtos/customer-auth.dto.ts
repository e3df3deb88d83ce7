import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { CustomerAuthResult, CustomerProfile, CustomerView } from '@gatehouse/contracts';
import { Transform } from 'class-transformer';
import { IsOmittable } from '@gatehouse/platform';
import { IsBoolean, IsByteLength, IsEmail, IsString, IsUrl, Length, Matches, MaxLength } from 'class-validator';

const normaliseEmail = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value);

/** An address to send account email to (docs/email.md). */
export class CustomerEmailDto {
  @ApiProperty({ example: 'reader@example.com', maxLength: 254, description: 'Trimmed and lower-cased.' })
  @Transform(normaliseEmail)
  @IsEmail({}, { message: 'must be a valid email address' })
  @MaxLength(254)
  email: string;
}

/**
 * The page an account email's link opens (docs/email.md, "Links and the confirm step"): an absolute
 * https URL (http on a loopback host), without credentials, at most 2000 characters. The gateway
 * also requires its host to be one of the publication's domains (`requirePublicationPages`).
 */
function IsEmailLinkPage(): PropertyDecorator {
  return applyDecorators(
    IsOmittable(),
    IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true, disallow_auth: true }, { message: 'must be an absolute http(s) URL without a user name or password' }),
    MaxLength(2000),
  );
}

const RETURN_URL_DESCRIPTION =
  "The page of the publication's site the email's link opens, port, path and query kept, the token in its fragment: the page the reader asked from (the browser SDK sends it). " +
  "Its host must be one of the publication's domains (403 `url_not_in_publication`); https, or http on a loopback host; no user name or password; at most 2000 characters (400 `validation_failed`). " +
  "On a domain the owner has not proved yet, or when absent, the link opens `https://<first proven domain>/`.";

/** Where the link of an account email leads. */
export class ReturnUrlDto {
  @ApiPropertyOptional({ example: 'https://news.example:8443/members/account?tab=profile', maxLength: 2000, description: RETURN_URL_DESCRIPTION })
  @IsEmailLinkPage()
  returnUrl?: string;
}

export class CustomerCredentialsDto extends CustomerEmailDto {

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

  @ApiPropertyOptional({ example: 'de-DE', description: "The reader's locale, which picks the language of account email (English or German); `Accept-Language` when absent." })
  @IsOmittable()
  @Matches(/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/, { message: 'must be a language tag such as de or en-GB' })
  locale?: string;

  @ApiPropertyOptional({ example: 'https://news.example:8443/members/account?tab=profile', maxLength: 2000, description: `Where the link of the verification email leads. ${RETURN_URL_DESCRIPTION}` })
  @IsEmailLinkPage()
  returnUrl?: string;
}

export class RefreshTokenDto {
  @ApiProperty({ description: 'The refresh token from the last auth result.' })
  @IsString()
  @Length(1, 512)
  refreshToken: string;
}

export class LogoutDto extends RefreshTokenDto {
  @ApiPropertyOptional({ default: false, description: "true: every session of the token's customer ends (all devices), when the token is live; otherwise only the token's own." })
  @IsOmittable()
  @IsBoolean({ message: 'must be true or false' })
  everywhere?: boolean;
}

export class UpdateProfileDto {
  @ApiPropertyOptional({ example: 'Ada Lovelace', minLength: 1, maxLength: 100 })
  @IsOmittable()
  @IsString()
  @Length(1, 100, { message: 'must be 1 to 100 characters' })
  name?: string;

  @ApiPropertyOptional({ example: 'reader@example.com', maxLength: 254, description: 'Trimmed and lower-cased. A new address is unverified until the link sent to it is opened.' })
  @IsOmittable()
  @Transform(normaliseEmail)
  @IsEmail({}, { message: 'must be a valid email address' })
  @MaxLength(254)
  email?: string;

  @ApiPropertyOptional({ description: 'Where the link of the verification email for a new address leads (see ReturnUrl).' })
  @IsOmittable()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true }, { message: 'must be an absolute http(s) URL' })
  @MaxLength(2000)
  returnUrl?: string;
}

class CustomerDto implements CustomerView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() email: string;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'True once the reader proved the address theirs: a verification link, a password reset or a sign-in code.' })
  emailVerified: boolean;
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
