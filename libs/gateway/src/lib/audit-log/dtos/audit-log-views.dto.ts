import { ApiProperty } from '@nestjs/swagger';
import type { AuditChanges, AuditEntryView } from '@gatehouse/contracts';
import { PageOf } from '../../edge/api-views';

class AuditActorDto {
  @ApiProperty({ format: 'uuid' }) staffId: string;
  @ApiProperty({ example: 'ada@news.example', description: 'As it was when the write was made.' }) email: string;
  @ApiProperty({ example: 'Ada Editor' }) name: string;
}

export class AuditEntryViewDto implements AuditEntryView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'date-time', description: 'When the write was answered.' }) at: string;
  @ApiProperty({ type: AuditActorDto }) actor: AuditActorDto;
  @ApiProperty({ example: 'AdminProductsController_update', description: "The route's operation id in this document." }) action: string;
  @ApiProperty({ enum: ['POST', 'PUT', 'PATCH', 'DELETE'] }) method: string;
  @ApiProperty({ example: '/api/v1/admin/products/:id' }) route: string;
  @ApiProperty({ example: '/api/v1/admin/products/5b0e7c1e-4a35-4c1b-9a53-3f0f6d1f2a11' }) path: string;
  @ApiProperty({ type: String, nullable: true, description: "The resource written: the answer's id (a creation), else the path's last parameter." })
  resourceId: string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    example: { name: 'Digital', secretKey: '[redacted]' },
    description: 'The request body: passwords, keys, tokens and secrets `[redacted]`, text over 1000 characters cut; a body over 4 KiB is kept as its field names.',
  })
  changes: AuditChanges | null;
  @ApiProperty({ example: '203.0.113.7', description: 'The client address (`X-Forwarded-For` only behind `TRUST_PROXY`).' }) address: string;
  @ApiProperty({ description: 'The `X-Request-Id` of the write; the logs carry it.' }) requestId: string;
}

export const AuditEntryPageDto = PageOf(AuditEntryViewDto, 'AuditEntryPageDto');
