import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { IsOmittable, IsTimestamp } from '@gatehouse/platform';
import {
  MEMBERSHIP_ORIGINS,
  ORGANISATION_DOMAINS_MAX,
  ORGANISATION_IP_RANGES_MAX,
  ORGANISATION_MANAGERS_MAX,
  type MembershipOrigin,
  type NewOrganisation,
  type OrganisationChanges,
  type OrganisationInvitationView,
  type OrganisationMemberView,
  type OrganisationSeatsView,
  type OrganisationStats,
  type OrganisationView,
} from '@gatehouse/contracts';
import { ArrayMaxSize, IsArray, IsBoolean, IsInt, IsString, IsUUID, Length, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { PageOf } from '../../edge/api-views';
import { CustomerEmailDto } from '../../auth/dtos/customer-auth.dto';

/* Organisations (docs/organisations.md): staff keep them; managers and readers use their seats. */

const RANGES_DESCRIPTION =
  'IPv4 and IPv6 CIDR ranges (`81.2.69.0/24`, `2a02:1234::/32`, no host bits set), stored canonical. A check from an address in one is granted with `reason: organisation`, signed in or not. None may overlap a range of another organisation of the publication, and none may touch private or reserved space unless `allowReservedRanges`.';

export class CreateOrganisationDto implements NewOrganisation {
  @ApiProperty({ example: 'Acme University', minLength: 1, maxLength: 100, description: 'Shown to readers: "Access provided by Acme University".' })
  @IsString()
  @Length(1, 100)
  name: string;

  @ApiProperty({ format: 'uuid', description: 'The product whose paywalls the members and networks unlock.' })
  @IsUUID('all', { message: 'must be a product id (UUID)' })
  productId: string;

  @ApiPropertyOptional({ type: Number, nullable: true, minimum: 1, description: 'How many members it may have; null (the default): unlimited.' })
  @IsOmittable()
  @ValidateIf((_, value) => value !== null)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  seats?: number | null;

  @ApiPropertyOptional({ type: String, format: 'date-time', description: 'When its access begins; now by default.' })
  @IsOmittable()
  @IsTimestamp()
  startsAt?: string;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, description: 'When its access ends; null (the default): no end.' })
  @IsOmittable()
  @ValidateIf((_, value) => value !== null)
  @IsTimestamp()
  endsAt?: string | null;

  @ApiPropertyOptional({ type: [String], example: ['acme.edu'], description: 'A reader whose verified email is at one of them joins while seats are free, and leaves when the email changes. Not a domain of another organisation.' })
  @IsOmittable()
  @IsArray()
  @ArrayMaxSize(ORGANISATION_DOMAINS_MAX)
  @IsString({ each: true })
  @MaxLength(253, { each: true })
  domains?: string[];

  @ApiPropertyOptional({ type: [String], example: ['81.2.69.0/24', '2a02:1234::/32'], description: RANGES_DESCRIPTION })
  @IsOmittable()
  @IsArray()
  @ArrayMaxSize(ORGANISATION_IP_RANGES_MAX)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  ipRanges?: string[];

  @ApiPropertyOptional({ default: false, description: 'Admit private and reserved ranges (an intranet whose traffic reaches the gateway through the publisher’s own proxy).' })
  @IsOmittable()
  @IsBoolean()
  allowReservedRanges?: boolean;

  @ApiPropertyOptional({ type: [String], description: 'Customers of the publication who invite and remove members (the `<gatehouse-organisation>` element).' })
  @IsOmittable()
  @IsArray()
  @ArrayMaxSize(ORGANISATION_MANAGERS_MAX)
  @IsUUID('all', { each: true, message: 'each must be a customer id (UUID)' })
  managerIds?: string[];
}

/** Any field of the creation; what is absent stays as it is. */
export class UpdateOrganisationDto extends PartialType(CreateOrganisationDto) implements OrganisationChanges {}

export class OrganisationInvitationDto extends CustomerEmailDto {}

export class OrganisationInvitationTokenDto {
  @ApiProperty({ description: 'The token from the fragment of the invitation email’s link (`#gatehouse-join=`).' })
  @IsString()
  @Length(1, 128)
  token: string;
}

export class OrganisationViewDto implements OrganisationView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'Acme University' }) name: string;
  @ApiProperty({ format: 'uuid' }) productId: string;
  @ApiProperty({ type: Number, nullable: true, description: 'Null: unlimited.' }) seats: number | null;
  @ApiProperty({ description: 'Members holding a seat.' }) seatsUsed: number;
  @ApiProperty({ format: 'date-time' }) startsAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) endsAt: string | null;
  @ApiProperty({ type: [String] }) domains: string[];
  @ApiProperty({ type: [String], description: 'Canonical CIDR ranges.' }) ipRanges: string[];
  @ApiProperty() allowReservedRanges: boolean;
  @ApiProperty({ type: [String] }) managerIds: string[];
  @ApiProperty({ type: String, nullable: true, description: 'For an organisation bought at checkout: the processor subscription whose quantity is the seats.' })
  processorSubscriptionId: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export const OrganisationPageDto = PageOf(OrganisationViewDto, 'OrganisationPageDto');

export class OrganisationMemberViewDto implements OrganisationMemberView {
  @ApiProperty({ format: 'uuid' }) customerId: string;
  @ApiProperty({ description: 'The address the seat was taken with.' }) email: string;
  @ApiProperty({ enum: MEMBERSHIP_ORIGINS }) via: MembershipOrigin;
  @ApiProperty({ format: 'date-time' }) joinedAt: string;
}

export class OrganisationInvitationViewDto implements OrganisationInvitationView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() email: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
}

export class OrganisationSeatsViewDto implements OrganisationSeatsView {
  @ApiProperty({ type: OrganisationViewDto }) organisation: OrganisationViewDto;
  @ApiProperty({ type: [OrganisationMemberViewDto] }) members: OrganisationMemberViewDto[];
  @ApiProperty({ type: [OrganisationInvitationViewDto], description: 'Open invitations, oldest first.' }) invitations: OrganisationInvitationViewDto[];
}

export class ManagedOrganisationsDto {
  @ApiProperty({ type: [OrganisationSeatsViewDto] }) organisations: OrganisationSeatsViewDto[];
}

class JoinedOrganisationDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
}

export class JoinedSeatDto extends OrganisationMemberViewDto {
  @ApiProperty({ type: JoinedOrganisationDto }) organisation: JoinedOrganisationDto;
}

export class OrganisationStatsQueryDto {
  @ApiPropertyOptional({ description: 'ISO 8601 start, rounded down to its day (UTC). Default: 30 days before `to`.' })
  @IsOmittable()
  @IsTimestamp()
  from?: string;

  @ApiPropertyOptional({ description: 'ISO 8601 end, exclusive. Default: now.' })
  @IsOmittable()
  @IsTimestamp()
  to?: string;
}

class OrganisationReadersDto {
  @ApiProperty({ example: 18, description: 'Members holding a seat now.' }) members: number;
  @ApiProperty({ example: 240, description: 'Distinct readers the organisation let in within the range, by a seat or a network (a customer, or a visitor id of the site; an anonymous check counts as a read only).' })
  granted: number;
}

class OrganisationReadsDto {
  @ApiProperty({ example: 1250, description: 'Checks granted with `reason: organisation` for this organisation.' }) total: number;
  @ApiProperty({ example: 310, description: 'By a member’s seat.' }) bySeat: number;
  @ApiProperty({ example: 940, description: 'From one of its networks, anonymous readers included.' }) byNetwork: number;
}

export class OrganisationStatsDto implements OrganisationStats {
  @ApiProperty({ format: 'uuid' }) organisationId: string;
  @ApiProperty({ example: 'Acme University' }) name: string;
  @ApiProperty({ format: 'date-time', description: 'The start of the range: `from` rounded down to its day (UTC).' }) from: string;
  @ApiProperty({ format: 'date-time', description: 'Exclusive.' }) to: string;
  @ApiProperty({ type: Number, nullable: true, description: 'Null: unlimited.' }) seats: number | null;
  @ApiProperty({ description: 'Seats held now.' }) seatsUsed: number;
  @ApiProperty({ type: OrganisationReadersDto }) readers: OrganisationReadersDto;
  @ApiProperty({ type: OrganisationReadsDto }) reads: OrganisationReadsDto;
}
