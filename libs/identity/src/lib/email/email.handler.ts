import { Controller } from '@nestjs/common';
import {
  EmailTemplateRequests,
  GiftEmailRequests,
  MailboxRequests,
  OrganisationEmailRequests,
  PaymentEmailRequests,
  StaffEmailRequests,
  type EmailMessageSummary,
  type EmailMessageView,
  type EmailTemplateView,
  type MessageKind,
  type Page,
  type RequestOf,
} from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { isUuid } from '@gatehouse/platform';
import { DataSource } from 'typeorm';
import { Customer } from '../customers/customer.entity';
import type { EmailSecrets } from './email-message.entity';
import { EmailQueue } from './email-queue.service';
import { EmailTemplatesService } from './email-templates.service';
import { MailboxService } from './mailbox.service';

/** Staff's view of account email (the mailbox and the copy of each message), the email staff get, and billing's payment email. */
@Controller()
export class EmailHandler {
  constructor(
    private readonly mailbox: MailboxService,
    private readonly templates: EmailTemplatesService,
    private readonly queue: EmailQueue,
    private readonly dataSource: DataSource,
  ) {}

  @Handles(StaffEmailRequests.SendInvitation)
  async sendInvitation({ publicationId, invitationId, to, acceptUrl, token }: RequestOf<typeof StaffEmailRequests.SendInvitation>): Promise<{ queued: true }> {
    await this.dataSource.transaction((manager) =>
      this.queue.enqueue(manager, {
        id: invitationId,
        publicationId,
        customerId: null,
        kind: 'staff_invitation',
        to,
        recipientName: to,
        language: 'en',
        secrets: { token },
        returnUrl: acceptUrl,
      }),
    );
    return { queued: true };
  }

  /** Billing's invitation to an organisation's seat: to an address, whether or not it is a customer's yet. */
  @Handles(OrganisationEmailRequests.SendInvitation)
  async sendOrganisationInvitation({ publicationId, invitationId, to, organisationName, token, returnUrl }: RequestOf<typeof OrganisationEmailRequests.SendInvitation>): Promise<{ queued: true }> {
    await this.dataSource.transaction((manager) =>
      this.queue.enqueue(manager, {
        id: invitationId,
        publicationId,
        customerId: null,
        kind: 'organisation_invitation',
        to,
        recipientName: to,
        language: 'en',
        secrets: { token, organisation: organisationName },
        returnUrl,
      }),
    );
    return { queued: true };
  }

  /** Billing's payment email to a customer of the publication; nothing for another publication's or an erased one. */
  @Handles(PaymentEmailRequests.SendPaymentNotice)
  sendPaymentNotice({ publicationId, customerId, noticeId, kind, link, code }: RequestOf<typeof PaymentEmailRequests.SendPaymentNotice>): Promise<{ queued: boolean }> {
    return this.toCustomer(publicationId, customerId, noticeId, kind, { ...(link ? { link } : {}), ...(code ? { code } : {}) });
  }

  /** A message to a customer of the publication, in their language, with a whole link (no token of ours). */
  private async toCustomer(publicationId: string, customerId: string, id: string, kind: MessageKind, secrets: EmailSecrets): Promise<{ queued: boolean }> {
    if (!isUuid(customerId) || !isUuid(id)) return { queued: false };
    return this.dataSource.transaction(async (manager) => {
      const customer = await manager.findOneBy(Customer, { id: customerId, publicationId });
      if (!customer) return { queued: false };
      await this.queue.enqueue(manager, {
        id,
        publicationId,
        customerId,
        kind,
        to: customer.email,
        recipientName: customer.name,
        language: customer.language,
        secrets,
        returnUrl: null,
      });
      return { queued: true };
    });
  }

  /** Billing's gift email to its recipient, who may have no account: written to the address the buyer gave, in English. */
  @Handles(GiftEmailRequests.SendGift)
  async sendGift({ publicationId, emailId, to, recipientName, code, redeemUrl, values }: RequestOf<typeof GiftEmailRequests.SendGift>): Promise<{ queued: true }> {
    await this.dataSource.transaction((manager) =>
      this.queue.enqueue(manager, {
        id: emailId,
        publicationId,
        customerId: null,
        kind: 'gift_received',
        to,
        recipientName,
        language: 'en',
        secrets: { token: code, values },
        returnUrl: redeemUrl,
      }),
    );
    return { queued: true };
  }

  /** Billing's reminder that a gift subscription ends soon; nothing for a customer of another publication or an erased one. */
  @Handles(GiftEmailRequests.SendGiftReminder)
  async sendGiftReminder({ publicationId, emailId, customerId, link, values }: RequestOf<typeof GiftEmailRequests.SendGiftReminder>): Promise<{ queued: boolean }> {
    return this.toCustomer(publicationId, customerId, emailId, 'gift_ending', { ...(link ? { link } : {}), values });
  }

  @Handles(MailboxRequests.List)
  listMessages(request: RequestOf<typeof MailboxRequests.List>): Promise<Page<EmailMessageSummary>> {
    return this.mailbox.list(request);
  }

  @Handles(MailboxRequests.Get)
  getMessage(request: RequestOf<typeof MailboxRequests.Get>): Promise<EmailMessageView> {
    return this.mailbox.get(request);
  }

  @Handles(EmailTemplateRequests.List)
  listTemplates(request: RequestOf<typeof EmailTemplateRequests.List>): Promise<EmailTemplateView[]> {
    return this.templates.list(request.publicationId);
  }

  @Handles(EmailTemplateRequests.Put)
  putTemplate(request: RequestOf<typeof EmailTemplateRequests.Put>): Promise<EmailTemplateView> {
    return this.templates.put(request);
  }
}
