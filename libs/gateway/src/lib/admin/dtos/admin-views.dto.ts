import { ApiProperty } from '@nestjs/swagger';
import {
  STAFF_ROLES,
  type AdminRequests,
  type ApiKeyKind,
  type ApiKeyView,
  type CreatedApiKeyPair,
  type CreatedInvitation,
  type DomainProofView,
  type InvitationView,
  type MembershipView,
  type ReplyOf,
  type SessionView,
  type StaffRole,
  type StaffView,
  type TeamChangeAction,
  type TeamChangeView,
  type TeamMemberView,
  type TeamView,
} from '@gatehouse/contracts';
import { PageOf } from '../../edge/api-views';

/* What the session, publication, API-key and team routes answer (decisions A4, H1). */

class StaffViewDto implements StaffView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'editor@news.example' }) email: string;
  @ApiProperty({ example: 'Ada Editor' }) name: string;
}

export class MembershipViewDto implements MembershipView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'The Daily Example' }) name: string;
  @ApiProperty({ type: [String], example: ['news.example', '*.news.example'], description: '`*.example.com` matches any subdomain.' }) domains: string[];
  @ApiProperty({ description: 'Whether readers may create their own accounts (`POST /auth/customers/register`).' }) selfRegistration: boolean;
  @ApiProperty({
    type: [String],
    example: ['news.example'],
    description: 'The domains account email links may lead to: those proven by their owner (`/domains/verify`), and loopback hosts, which need no proof.',
  })
  verifiedDomains: string[];
  @ApiProperty({ enum: STAFF_ROLES, description: "The caller's role in it." }) role: StaffRole;
}

export const MembershipPageDto = PageOf(MembershipViewDto, 'MembershipPageDto');

export class DomainProofViewDto implements DomainProofView {
  @ApiProperty({ example: '*.news.example' }) domain: string;
  @ApiProperty({ example: 'gatehouse-verification=6f1c0d9e2b7a4c1f8e3d5a9b0c7e2f14', description: 'Publish this, as the TXT record or as the whole file.' }) token: string;
  @ApiProperty({ example: '_gatehouse.news.example', description: 'The TXT record to create; a wildcard is proven on its base domain.' }) txtRecord: string;
  @ApiProperty({ example: 'https://news.example/.well-known/gatehouse-verification.txt', description: 'Or the file to serve (200, the token as a line of its body; no redirect).' })
  fileUrl: string;
  @ApiProperty({ description: 'Proven, or a loopback host (no proof needed). Account email links lead only to verified domains.' }) verified: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the proof was found; null when never, or for a loopback host.' })
  verifiedAt: string | null;
}

export class DomainProofListDto {
  @ApiProperty({ type: [DomainProofViewDto] }) items: DomainProofViewDto[];
}

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
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The whole publishable key, public like the pages that carry it; null for a secret key (shown only at creation) and for a publishable key made before keys were kept.',
  })
  publishableKey: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastUsedAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) revokedAt: string | null;
}

export class CreatedApiKeyPairDto implements CreatedApiKeyPair {
  @ApiProperty({ example: 'website' }) name: string;
  @ApiProperty({ example: 'pk_4Hc8s1Lq9…', description: 'Shown here only.' }) publishableKey: string;
  @ApiProperty({ example: 'sk_Jd02kQm1x…', description: 'Shown here only; keep it on your server.' }) secretKey: string;
}

const ROLE = { enum: STAFF_ROLES, description: '`admin` is an owner; `editor` changes all but the team and the publication; `viewer` reads only.' };

export class TeamMemberViewDto extends StaffViewDto implements TeamMemberView {
  @ApiProperty(ROLE) role: StaffRole;
  @ApiProperty({ format: 'date-time' }) joinedAt: string;
}

export class InvitationViewDto implements InvitationView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'colleague@news.example' }) email: string;
  @ApiProperty(ROLE) role: StaffRole;
  @ApiProperty({ example: 'editor@news.example', description: 'The email of the owner who invited.' }) invitedBy: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time', description: '7 days after `createdAt`.' }) expiresAt: string;
}

export class CreatedInvitationDto extends InvitationViewDto implements CreatedInvitation {
  @ApiProperty({ example: 'k3Jd9sQ0v…', description: 'The token of the invitation link; shown here only (only its hash is stored).' }) token: string;
  @ApiProperty({ description: "The invitation's email is queued (sent to the invitee with the link); false when it could not be: pass the link on yourself." })
  emailed: boolean;
}

const TEAM_CHANGE_ACTIONS = ['invited', 'invitation_revoked', 'joined', 'role_changed', 'removed'] as const satisfies readonly TeamChangeAction[];

class TeamChangeViewDto implements TeamChangeView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: TEAM_CHANGE_ACTIONS }) action: TeamChangeAction;
  @ApiProperty({ example: 'editor@news.example', description: 'Who made the change (the new member for `joined`).' }) actor: string;
  @ApiProperty({ example: 'colleague@news.example', description: 'The email the change concerns.' }) subject: string;
  @ApiProperty({ ...ROLE, nullable: true }) role: StaffRole | null;
  @ApiProperty({ format: 'date-time' }) at: string;
}

export class TeamViewDto implements TeamView {
  @ApiProperty({ type: [TeamMemberViewDto] }) members: TeamMemberViewDto[];
  @ApiProperty({ type: [InvitationViewDto], description: 'Open invitations: not accepted, revoked or expired.' }) invitations: InvitationViewDto[];
  @ApiProperty({ type: [TeamChangeViewDto], description: 'The newest changes first (at most 50).' }) log: TeamChangeViewDto[];
}

export class InvitationPreviewDto implements ReplyOf<typeof AdminRequests.GetInvitation> {
  @ApiProperty({ example: 'colleague@news.example', description: 'The email the invitation is for; it becomes the sign-in email.' }) email: string;
  @ApiProperty(ROLE) role: StaffRole;
  @ApiProperty({ example: 'The Daily Example' }) publicationName: string;
}
