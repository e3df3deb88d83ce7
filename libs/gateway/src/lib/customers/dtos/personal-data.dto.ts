import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { PersonalDataExport } from '@gatehouse/contracts';
import { IsOmittable } from '@gatehouse/platform';
import { IsByteLength, IsString, Matches } from 'class-validator';

const rows = (description: string) => ({ type: 'array', items: { type: 'object', additionalProperties: true }, description }) as const;

/** Everything held about one customer (GDPR art. 15 and 20); the shapes of each part are in docs/customers.md. */
export class PersonalDataExportDto implements PersonalDataExport {
  @ApiProperty({ enum: ['gatehouse.personal-data.v1'] }) format: 'gatehouse.personal-data.v1';
  @ApiProperty({ format: 'date-time' }) exportedAt: string;
  @ApiProperty({ format: 'uuid' }) publicationId: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The customer record, with `language` and `emailVerifiedAt`.' })
  customer: PersonalDataExport['customer'];
  @ApiProperty(rows('Sign-in sessions (refresh-token families): created, revoked, last refreshed.')) sessions: PersonalDataExport['sessions'];
  @ApiProperty(rows('Account email sent to the customer.')) emailLog: PersonalDataExport['emailLog'];
  @ApiProperty(rows('Subscriptions, newest first.')) subscriptions: PersonalDataExport['subscriptions'];
  @ApiProperty(rows('Passes and single articles bought.')) purchases: PersonalDataExport['purchases'];
  @ApiProperty(rows('Checkouts started at the payment processor.')) checkoutSessions: PersonalDataExport['checkoutSessions'];
  @ApiProperty(rows('Gifts the customer bought or was given, with what the buyer wrote.')) gifts: PersonalDataExport['gifts'];
  @ApiProperty(rows('Organisations the customer holds a seat in or manages.')) organisations: PersonalDataExport['organisations'];
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, description: "The customer's account at the payment processor." })
  processorCustomer: PersonalDataExport['processorCustomer'];
  @ApiProperty(rows('Events the payment processor sent about the customer.')) processorEvents: PersonalDataExport['processorEvents'];
  @ApiProperty(rows("The site's visitor ids linked to the customer.")) visitorIds: PersonalDataExport['visitorIds'];
  @ApiProperty(rows('Visit counts.')) visits: PersonalDataExport['visits'];
  @ApiProperty(rows('Metered articles read.')) meterViews: PersonalDataExport['meterViews'];
  @ApiProperty(rows('Newsletter sign-ups that opened a wall.')) newsletterSignups: PersonalDataExport['newsletterSignups'];
  @ApiProperty(rows('Data-wall submissions that opened a wall (field names).')) dataWallSubmissions: PersonalDataExport['dataWallSubmissions'];
  @ApiProperty(rows('The days an organisation let the customer in (its stats count each reader once a day).')) organisationDays: PersonalDataExport['organisationDays'];
  @ApiProperty(rows("Outbound webhook deliveries about the customer, with what was sent.")) webhookDeliveries: PersonalDataExport['webhookDeliveries'];
  @ApiProperty(rows('Every event recorded about the customer, oldest first.')) events: PersonalDataExport['events'];
}

/** The reader confirms the erasure of their own account: with their password, or a sign-in code emailed to them. */
export class DeleteMyAccountDto {
  @ApiPropertyOptional({ description: "The reader's password (8 to 72 bytes of UTF-8). Give this or `code`." })
  @IsOmittable()
  @IsString()
  @IsByteLength(1, 72, { message: 'must be at most 72 bytes of UTF-8' })
  password?: string;

  @ApiPropertyOptional({ example: '042917', description: 'The 6 digits of a sign-in code (POST /api/v1/auth/customers/login-code). Give this or `password`.' })
  @IsOmittable()
  @IsString()
  @Matches(/^\d{6}$/, { message: 'must be 6 digits' })
  code?: string;
}
