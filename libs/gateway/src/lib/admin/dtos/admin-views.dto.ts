import { ApiProperty } from '@nestjs/swagger';
import type { ApiKeyKind, ApiKeyView, CreatedApiKeyPair, MembershipView, SessionView, StaffRole, StaffView } from '@gatehouse/contracts';
import { PageOf } from '../../edge/api-views';

/* What the session, publication and API-key routes answer (decisions A4, H1). */

class StaffViewDto implements StaffView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'editor@news.example' }) email: string;
  @ApiProperty({ example: 'Ada Editor' }) name: string;
}

export class MembershipViewDto implements MembershipView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'The Daily Example' }) name: string;
  @ApiProperty({ type: [String], example: ['news.example', '*.news.example'], description: '`*.example.com` matches any subdomain.' }) domains: string[];
  @ApiProperty({ enum: ['admin', 'viewer'] satisfies StaffRole[], description: "The caller's role in it." }) role: StaffRole;
}

export const MembershipPageDto = PageOf(MembershipViewDto, 'MembershipPageDto');

export class StaffLoginResultDto implements Pick<SessionView, 'staff' | 'publication'> {
  @ApiProperty({ type: StaffViewDto }) staff: StaffViewDto;
  @ApiProperty({ type: MembershipViewDto, description: 'The publication the session acts on.' }) publication: MembershipViewDto;
}

export class SessionViewDto extends StaffLoginResultDto implements SessionView {
  @ApiProperty({ type: [MembershipViewDto] }) publications: MembershipViewDto[];
}

export class ApiKeyViewDto implements ApiKeyView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'website' }) name: string;
  @ApiProperty({ enum: ['publishable', 'secret'] satisfies ApiKeyKind[] }) kind: ApiKeyKind;
  @ApiProperty({ example: 'pk_4Hc8s1Lq9', description: 'The first 12 characters of the key.' }) prefix: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastUsedAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) revokedAt: string | null;
}

export class CreatedApiKeyPairDto implements CreatedApiKeyPair {
  @ApiProperty({ example: 'website' }) name: string;
  @ApiProperty({ example: 'pk_4Hc8s1Lq9…', description: 'Shown here only.' }) publishableKey: string;
  @ApiProperty({ example: 'sk_Jd02kQm1x…', description: 'Shown here only; keep it on your server.' }) secretKey: string;
}
