import { ApiProperty, ApiPropertyOptional, PartialType, PickType } from '@nestjs/swagger';
import type { CustomerRecord, Page } from '@gatehouse/contracts';
import { IsByteLength, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { RegisterCustomerDto } from '../../auth/dtos/customer-auth.dto';
import { PageQueryDto } from '../../edge/page-query.dto';

export class ListCustomersQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Only the customer with this email (exact match; case and surrounding spaces ignored).' })
  @IsOptional()
  @IsString()
  @MaxLength(254)
  email?: string;
}

/** Decisions H3: email and name as at registration (D1); the password is optional. */
export class CreateCustomerDto extends PickType(RegisterCustomerDto, ['email', 'name'] as const) {
  @ApiPropertyOptional({ description: '8 to 72 bytes of UTF-8. Without one the customer can be granted access but cannot log in.' })
  @ValidateIf((_, value) => value !== undefined)
  @IsString()
  @IsByteLength(8, 72, { message: 'must be 8 to 72 bytes of UTF-8' })
  password?: string;
}

/** Any of the fields; none may be null. A new password ends the customer's sessions. */
export class UpdateCustomerDto extends PartialType(CreateCustomerDto, { skipNullProperties: false }) {}

export class CustomerRecordDto implements CustomerRecord {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() email: string;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'True once the customer proved the address theirs (docs/email.md); false again after it changes.' }) emailVerified: boolean;
  @ApiProperty({ description: 'False when created without a password: such a customer cannot log in.' }) hasPassword: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class CustomerPageDto implements Page<CustomerRecord> {
  @ApiProperty({ type: [CustomerRecordDto], description: 'Newest first.' }) items: CustomerRecordDto[];
  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null on the last page.' })
  nextCursor: string | null;
}
