import { Module } from '@nestjs/common';
import { SigningKeysModule } from '../signing-keys/signing-keys.module';
import { EmailHandler } from './email.handler';
import { EmailQueue } from './email-queue.service';
import { EmailSender } from './email-sender.service';
import { EmailTemplatesService } from './email-templates.service';
import { EmailTransport } from './email-transport.service';
import { MailboxService } from './mailbox.service';

/**
 * Account email delivery inside identity, which owns the customers and the tokens a message
 * carries: queued in identity's schema, sent over SMTP or kept in the local mailbox.
 */
@Module({
  imports: [SigningKeysModule],
  controllers: [EmailHandler],
  providers: [EmailQueue, EmailSender, EmailTemplatesService, EmailTransport, MailboxService],
  exports: [EmailQueue],
})
export class EmailModule {}
