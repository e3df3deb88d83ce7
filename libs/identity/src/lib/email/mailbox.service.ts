import { Injectable } from '@nestjs/common';
import { MailboxRequests, type EmailMessageSummary, type EmailMessageView, type Page, type RequestOf } from '@gatehouse/contracts';
import { newestFirst, pageOf } from '@gatehouse/db';
import { AppError, isUuid } from '@gatehouse/platform';
import { DataSource } from 'typeorm';
import { EmailMessage } from './email-message.entity';

/** What staff see of their publication's account email: every message's state, and the content of those kept locally. */
@Injectable()
export class MailboxService {
  constructor(private readonly dataSource: DataSource) {}

  list(request: RequestOf<typeof MailboxRequests.List>): Promise<Page<EmailMessageSummary>> {
    const query = this.dataSource
      .getRepository(EmailMessage)
      .createQueryBuilder('message')
      .where('message.publication_id = :publicationId', { publicationId: request.publicationId });
    return pageOf(query, newestFirst(query.alias), request, toSummary);
  }

  async get(request: RequestOf<typeof MailboxRequests.Get>): Promise<EmailMessageView> {
    const { publicationId, messageId } = request;
    const message = isUuid(messageId) ? await this.dataSource.getRepository(EmailMessage).findOneBy({ id: messageId, publicationId }) : null;
    if (!message) throw new AppError('not_found', 'No such message.');
    return { ...toSummary(message), text: message.textBody, html: message.htmlBody };
  }
}

function toSummary(message: EmailMessage): EmailMessageSummary {
  return {
    id: message.id,
    kind: message.kind,
    to: message.toAddress,
    language: message.language,
    status: message.status,
    delivery: message.delivery,
    attempts: message.attempts,
    lastError: message.lastError,
    subject: message.subject,
    createdAt: message.createdAt.toISOString(),
    sentAt: message.sentAt?.toISOString() ?? null,
  };
}
