import { Body, Controller, Delete, Get, HttpCode, Param, Put, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { EmailTemplateRequests, MailboxRequests, type EmailMessageSummary, type EmailMessageView, type EmailTemplateView, type Page, type StaffActor } from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { AppError } from '@gatehouse/platform';
import { Auth } from '../edge/credentials';
import { IdParamPipe } from '../edge/id-param.pipe';
import { PageQueryDto } from '../edge/page-query.dto';
import { Caller, sessionOf, type Principal } from '../edge/principal';
import { EmailCopyDto, EmailMessageDto, EmailMessagePageDto, EmailTemplateDto, EmailTemplateParamsDto } from './dtos/account-email.dto';

const OWNERS_ONLY = '`forbidden`: only an owner (`admin`) of the publication reads its messages';

/** Who a reader's messages may be shown to, even redacted: the publication's owners. */
function ownerOf(caller: Principal): StaffActor {
  const session = sessionOf(caller);
  if (session.role !== 'admin') throw new AppError('forbidden', "Only an owner of the publication reads its readers' messages.");
  return session;
}

/** Staff's side of account email (docs/email.md): what was sent, the local mailbox, and the copy. */
@ApiTags('admin email')
@Controller('admin')
export class MailboxController {
  constructor(private readonly bus: BusClient) {}

  @Get('mailbox')
  @Auth('session')
  @ApiOperation({ summary: "The publication's account email, newest first: each message's state, whether sent over SMTP or kept in the local mailbox." })
  @ApiOkResponse({ type: EmailMessagePageDto })
  @ApiResponse({ status: 403, description: OWNERS_ONLY })
  @ApiResponse({ status: 400, description: '`validation_failed`: a bad `limit` or `cursor`' })
  listMessages(@Caller() caller: Principal, @Query() query: PageQueryDto): Promise<Page<EmailMessageSummary>> {
    return this.bus.request(MailboxRequests.List, { publicationId: ownerOf(caller).publicationId, ...query });
  }

  @Get('mailbox/:id')
  @Auth('session')
  @ApiOperation({ summary: 'One message; its text and HTML when it was kept in the local mailbox (no SMTP_URL), with its code and link redacted.' })
  @ApiOkResponse({ type: EmailMessageDto })
  @ApiResponse({ status: 403, description: OWNERS_ONLY })
  @ApiResponse({ status: 404, description: '`not_found`: no such message in the current publication' })
  getMessage(@Caller() caller: Principal, @Param('id', IdParamPipe) id: string): Promise<EmailMessageView> {
    return this.bus.request(MailboxRequests.Get, { publicationId: ownerOf(caller).publicationId, messageId: id });
  }

  @Get('email-templates')
  @Auth('session')
  @ApiOperation({ summary: 'The copy of every account email in every language, as sent now.' })
  @ApiOkResponse({ type: [EmailTemplateDto] })
  listTemplates(@Caller() caller: Principal): Promise<EmailTemplateView[]> {
    return this.bus.request(EmailTemplateRequests.List, { publicationId: sessionOf(caller).publicationId });
  }

  @Put('email-templates/:kind/:language')
  @Auth('session')
  @ApiOperation({ summary: "Replace one message's copy in one language; the layout, logo and colour come from the branding." })
  @ApiOkResponse({ type: EmailTemplateDto })
  @ApiResponse({ status: 400, description: '`validation_failed`: unknown kind or language, or copy too long' })
  putTemplate(@Caller() caller: Principal, @Param() params: EmailTemplateParamsDto, @Body() body: EmailCopyDto): Promise<EmailTemplateView> {
    return this.bus.request(EmailTemplateRequests.Put, { publicationId: sessionOf(caller).publicationId, ...params, copy: body });
  }

  @Delete('email-templates/:kind/:language')
  @HttpCode(204)
  @Auth('session')
  @ApiOperation({ summary: 'Go back to the built-in copy of one message in one language.' })
  @ApiNoContentResponse()
  @ApiResponse({ status: 400, description: '`validation_failed`: unknown kind or language' })
  async resetTemplate(@Caller() caller: Principal, @Param() params: EmailTemplateParamsDto): Promise<void> {
    await this.bus.request(EmailTemplateRequests.Put, { publicationId: sessionOf(caller).publicationId, ...params, copy: null });
  }
}
