import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  BRANDING_COPY_MAX_CHARS,
  BRANDING_CUSTOM_CSS_MAX_BYTES,
  BRANDING_MODES,
  type BrandingChanges,
  type BrandingConfiguration,
  type BrandingMode,
} from '@gatehouse/contracts';
import { IsByteLength, IsIn, IsOptional, IsString, IsUrl, Matches, MaxLength, ValidateIf } from 'class-validator';

const HEX_COLOUR = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const WHOLE_PIXELS = /^(0|[1-9][0-9]{0,3})$/;
/** A font-family value cannot end its declaration or rule, so it stays a font-family when the components set it. */
const FONT_FAMILY = /^[^;{}<>\\\r\n]*$/;
const FONT_FAMILY_MAX_CHARS = 200;
const URL_MAX_CHARS = 2000;

const colour = { message: 'must be a hex colour, #RGB or #RRGGBB' };
const copy = (soft: number, description: string) => ({
  type: String,
  nullable: true,
  maxLength: BRANDING_COPY_MAX_CHARS,
  description: `${description} Soft limit ${soft} characters (a dashboard warning, not enforced).`,
});

/** PUT /branding/admin: any subset of the fields; omitted ones stay, `null` clears one. */
export class UpdateBrandingDto implements BrandingChanges {
  @ApiPropertyOptional({ enum: BRANDING_MODES, description: 'Cannot be null.' })
  @ValidateIf((_, value) => value !== undefined)
  @IsIn(BRANDING_MODES, { message: `must be one of ${BRANDING_MODES.join(', ')}` })
  brandingMode?: BrandingMode;

  @ApiPropertyOptional({ type: String, nullable: true, example: '#6C5CE7', description: 'Primary colour, #RGB or #RRGGBB.' })
  @IsOptional()
  @Matches(HEX_COLOUR, colour)
  brandColor?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: '#5A4BD1', description: 'Hover colour, #RGB or #RRGGBB.' })
  @IsOptional()
  @Matches(HEX_COLOUR, colour)
  brandColorHover?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'https://cdn.example.com/logo.svg', description: 'An http(s) URL of an SVG or PNG image.' })
  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false }, { message: 'must be an http(s) URL' })
  @MaxLength(URL_MAX_CHARS)
  logoUrl?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: '8', description: 'A whole number of pixels, as a string.' })
  @IsOptional()
  @Matches(WHOLE_PIXELS, { message: 'must be a whole number of pixels as a string, such as "8"' })
  borderRadius?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'Georgia, serif', maxLength: FONT_FAMILY_MAX_CHARS, description: 'A CSS font-family value.' })
  @IsOptional()
  @IsString()
  @MaxLength(FONT_FAMILY_MAX_CHARS)
  @Matches(FONT_FAMILY, { message: 'must be a CSS font-family value, without ; { } < > \\ or line breaks' })
  fontFamily?: string | null;

  @ApiPropertyOptional(copy(40, 'Sign-in heading.'))
  @IsOptional()
  @IsString()
  @MaxLength(BRANDING_COPY_MAX_CHARS)
  authHeading?: string | null;

  @ApiPropertyOptional(copy(120, 'Sign-in description.'))
  @IsOptional()
  @IsString()
  @MaxLength(BRANDING_COPY_MAX_CHARS)
  authDescription?: string | null;

  @ApiPropertyOptional(copy(40, 'Create-account heading.'))
  @IsOptional()
  @IsString()
  @MaxLength(BRANDING_COPY_MAX_CHARS)
  authRegisterHeading?: string | null;

  @ApiPropertyOptional(copy(120, 'Create-account description.'))
  @IsOptional()
  @IsString()
  @MaxLength(BRANDING_COPY_MAX_CHARS)
  authRegisterDescription?: string | null;

  @ApiPropertyOptional(copy(40, 'Paywall heading.'))
  @IsOptional()
  @IsString()
  @MaxLength(BRANDING_COPY_MAX_CHARS)
  paywallHeading?: string | null;

  @ApiPropertyOptional(copy(120, 'Paywall description.'))
  @IsOptional()
  @IsString()
  @MaxLength(BRANDING_COPY_MAX_CHARS)
  paywallDescription?: string | null;

  @ApiPropertyOptional(copy(24, 'Paywall call-to-action button text.'))
  @IsOptional()
  @IsString()
  @MaxLength(BRANDING_COPY_MAX_CHARS)
  paywallCtaText?: string | null;

  @ApiPropertyOptional(copy(40, 'Soft paywall heading.'))
  @IsOptional()
  @IsString()
  @MaxLength(BRANDING_COPY_MAX_CHARS)
  softHeading?: string | null;

  @ApiPropertyOptional(copy(120, 'Soft paywall description.'))
  @IsOptional()
  @IsString()
  @MaxLength(BRANDING_COPY_MAX_CHARS)
  softDescription?: string | null;

  @ApiPropertyOptional(copy(24, 'Soft paywall call-to-action button text.'))
  @IsOptional()
  @IsString()
  @MaxLength(BRANDING_COPY_MAX_CHARS)
  softCtaText?: string | null;

  @ApiPropertyOptional(copy(40, 'Registration wall heading.'))
  @IsOptional()
  @IsString()
  @MaxLength(BRANDING_COPY_MAX_CHARS)
  registrationHeading?: string | null;

  @ApiPropertyOptional(copy(120, 'Registration wall description.'))
  @IsOptional()
  @IsString()
  @MaxLength(BRANDING_COPY_MAX_CHARS)
  registrationDescription?: string | null;

  @ApiPropertyOptional(copy(24, 'Registration wall call-to-action button text.'))
  @IsOptional()
  @IsString()
  @MaxLength(BRANDING_COPY_MAX_CHARS)
  registrationCtaText?: string | null;

  @ApiPropertyOptional(copy(40, 'Newsletter wall heading.'))
  @IsOptional()
  @IsString()
  @MaxLength(BRANDING_COPY_MAX_CHARS)
  newsletterHeading?: string | null;

  @ApiPropertyOptional(copy(120, 'Newsletter wall description.'))
  @IsOptional()
  @IsString()
  @MaxLength(BRANDING_COPY_MAX_CHARS)
  newsletterDescription?: string | null;

  @ApiPropertyOptional(copy(24, 'Newsletter wall call-to-action button text.'))
  @IsOptional()
  @IsString()
  @MaxLength(BRANDING_COPY_MAX_CHARS)
  newsletterCtaText?: string | null;

  @ApiPropertyOptional(copy(40, 'Data wall heading.'))
  @IsOptional()
  @IsString()
  @MaxLength(BRANDING_COPY_MAX_CHARS)
  dataHeading?: string | null;

  @ApiPropertyOptional(copy(120, 'Data wall description.'))
  @IsOptional()
  @IsString()
  @MaxLength(BRANDING_COPY_MAX_CHARS)
  dataDescription?: string | null;

  @ApiPropertyOptional(copy(24, 'Data wall call-to-action button text.'))
  @IsOptional()
  @IsString()
  @MaxLength(BRANDING_COPY_MAX_CHARS)
  dataCtaText?: string | null;

  @ApiPropertyOptional(copy(60, 'Meter notice while free articles are left; `{remaining}` is their number, `{limit}` the allowance.'))
  @IsOptional()
  @IsString()
  @MaxLength(BRANDING_COPY_MAX_CHARS)
  meterNoticeText?: string | null;

  @ApiPropertyOptional(copy(40, "Meter notice's link to create an account, for a reader not signed in."))
  @IsOptional()
  @IsString()
  @MaxLength(BRANDING_COPY_MAX_CHARS)
  meterRegisterText?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'CSS injected into every UI component in `custom` mode; at most 20 KiB of UTF-8.' })
  @IsOptional()
  @IsString()
  @IsByteLength(0, BRANDING_CUSTOM_CSS_MAX_BYTES, { message: `must be at most ${BRANDING_CUSTOM_CSS_MAX_BYTES / 1024} KiB of UTF-8` })
  customCss?: string | null;
}

/** The whole configuration (spec 2.7): every field, `null` where unset. */
export class BrandingConfigurationDto implements BrandingConfiguration {
  @ApiProperty({ enum: BRANDING_MODES, description: '`generic` (the default) until changed.' }) brandingMode: BrandingMode;
  @ApiProperty({ type: String, nullable: true }) brandColor: string | null;
  @ApiProperty({ type: String, nullable: true }) brandColorHover: string | null;
  @ApiProperty({ type: String, nullable: true }) logoUrl: string | null;
  @ApiProperty({ type: String, nullable: true }) borderRadius: string | null;
  @ApiProperty({ type: String, nullable: true }) fontFamily: string | null;
  @ApiProperty({ type: String, nullable: true }) authHeading: string | null;
  @ApiProperty({ type: String, nullable: true }) authDescription: string | null;
  @ApiProperty({ type: String, nullable: true }) authRegisterHeading: string | null;
  @ApiProperty({ type: String, nullable: true }) authRegisterDescription: string | null;
  @ApiProperty({ type: String, nullable: true }) paywallHeading: string | null;
  @ApiProperty({ type: String, nullable: true }) paywallDescription: string | null;
  @ApiProperty({ type: String, nullable: true }) paywallCtaText: string | null;
  @ApiProperty({ type: String, nullable: true }) softHeading: string | null;
  @ApiProperty({ type: String, nullable: true }) softDescription: string | null;
  @ApiProperty({ type: String, nullable: true }) softCtaText: string | null;
  @ApiProperty({ type: String, nullable: true }) registrationHeading: string | null;
  @ApiProperty({ type: String, nullable: true }) registrationDescription: string | null;
  @ApiProperty({ type: String, nullable: true }) registrationCtaText: string | null;
  @ApiProperty({ type: String, nullable: true }) newsletterHeading: string | null;
  @ApiProperty({ type: String, nullable: true }) newsletterDescription: string | null;
  @ApiProperty({ type: String, nullable: true }) newsletterCtaText: string | null;
  @ApiProperty({ type: String, nullable: true }) dataHeading: string | null;
  @ApiProperty({ type: String, nullable: true }) dataDescription: string | null;
  @ApiProperty({ type: String, nullable: true }) dataCtaText: string | null;
  @ApiProperty({ type: String, nullable: true }) meterNoticeText: string | null;
  @ApiProperty({ type: String, nullable: true }) meterRegisterText: string | null;
  @ApiProperty({ type: String, nullable: true }) customCss: string | null;
}
