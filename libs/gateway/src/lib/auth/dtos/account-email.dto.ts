import { ApiProperty, IntersectionType } from '@nestjs/swagger';
import { EMAIL_LANGUAGES, MESSAGE_KINDS, TEMPLATE_KINDS, type EmailCopy, type TemplateKind, type EmailLanguage, type MessageKind, type EmailMessageStatus, type EmailMessageSummary, type EmailMessageView, type EmailTemplateView, type Page } from '@gatehouse/contracts';
import { IsByteLength, IsIn, IsString, Length, Matches } from 'class-validator';
import { CustomerEmailDto, ReturnUrlDto } from './customer-auth.dto';

export class EmailWithReturnUrlDto extends IntersectionType(CustomerEmailDto, ReturnUrlDto) {}

export class EmailTokenDto {
  @ApiProperty({ description: "The token from the fragment of the email's link." })
  @IsString()
  @Length(1, 512)
  token: string;
}

export class PasswordResetConfirmDto extends EmailTokenDto {
  @ApiProperty({ example: 'correct horse battery', description: '8 to 72 bytes of UTF-8.' })
  @IsString()
  @IsByteLength(8, 72, { message: 'must be 8 to 72 bytes of UTF-8' })
  password: string;
}

export class LoginCodeDto extends CustomerEmailDto {
  @ApiProperty({ example: '042917', description: 'The 6 digits from the email.' })
  @IsString()
  @Matches(/^\d{6}$/, { message: 'must be 6 digits' })
  code: string;
}

export class EmailRequestAcceptedDto {
  @ApiProperty({ enum: [true] }) accepted: true;
}

export class EmailCopyDto implements EmailCopy {
  @ApiProperty({ example: 'Reset your {{publication}} password', description: 'One line; `{{name}}`, `{{publication}}`, `{{code}}`, `{{minutes}}` are filled in.' })
  @IsString()
  @Length(1, 200)
  subject: string;

  @ApiProperty({ description: 'Paragraphs separated by blank lines, with the same placeholders.' })
  @IsString()
  @Length(1, 5000)
  body: string;

  @ApiProperty({ example: 'Choose a new password', description: "The button's label." })
  @IsString()
  @Length(1, 100)
  action: string;
}

export class EmailTemplateParamsDto {
  @ApiProperty({ enum: TEMPLATE_KINDS })
  @IsIn(TEMPLATE_KINDS)
  kind: TemplateKind;

  @ApiProperty({ enum: EMAIL_LANGUAGES })
  @IsIn(EMAIL_LANGUAGES)
  language: EmailLanguage;
}

export class EmailTemplateDto extends EmailCopyDto implements EmailTemplateView {
  @ApiProperty({ enum: TEMPLATE_KINDS }) kind: TemplateKind;
  @ApiProperty({ enum: EMAIL_LANGUAGES }) language: EmailLanguage;
  @ApiProperty({ description: 'False while the built-in copy is used.' }) customized: boolean;
}

export class EmailMessageSummaryDto implements EmailMessageSummary {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: MESSAGE_KINDS, description: 'An account email to a reader, `staff_invitation`, or `organisation_invitation` (a seat in an organisation).' }) kind: MessageKind;
  @ApiProperty() to: string;
  @ApiProperty({ enum: EMAIL_LANGUAGES }) language: EmailLanguage;
  @ApiProperty({ enum: ['pending', 'sending', 'sent', 'failed'] }) status: EmailMessageStatus;
  @ApiProperty({ enum: ['smtp', 'mailbox'], nullable: true, description: '`mailbox`: kept here (no SMTP_URL); `smtp`: accepted by the SMTP server; null until sent.' })
  delivery: 'smtp' | 'mailbox' | null;
  @ApiProperty() attempts: number;
  @ApiProperty({ type: String, nullable: true }) lastError: string | null;
  @ApiProperty({ type: String, nullable: true }) subject: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) sentAt: string | null;
}

export class EmailMessageDto extends EmailMessageSummaryDto implements EmailMessageView {
  @ApiProperty({ type: String, nullable: true, description: 'Plain text; kept only for messages of the local mailbox.' }) text: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'HTML; kept only for messages of the local mailbox.' }) html: string | null;
}

export class EmailMessagePageDto implements Page<EmailMessageSummary> {
  @ApiProperty({ type: [EmailMessageSummaryDto], description: 'Newest first.' }) items: EmailMessageSummaryDto[];
  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null on the last page.' })
  nextCursor: string | null;
}
