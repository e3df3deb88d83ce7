import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import { ConfigError } from '@gatehouse/platform';
import { IdentityConfig } from '../identity.config';
import type { RenderedEmail } from './email-rendering';

export interface OutgoingEmail extends RenderedEmail {
  /** Stable per message, so a receiver can tell a repeated attempt from a new message. */
  messageId: string;
  to: string;
  fromName: string;
}

/**
 * Hands messages to the SMTP server of SMTP_URL through nodemailer; without one, the local
 * mailbox keeps them (the caller stores their content) and nothing leaves the machine.
 */
@Injectable()
export class EmailTransport implements OnModuleDestroy {
  private readonly logger = new Logger(EmailTransport.name);
  private readonly smtp: Transporter | null;

  constructor(private readonly config: IdentityConfig) {
    // The mailbox is for trying Gatehouse out: in production a message must reach its reader only.
    if (!config.SMTP_URL && process.env['NODE_ENV'] === 'production') {
      throw new ConfigError('Invalid configuration: SMTP_URL is required in production (the local mailbox is for development)');
    }
    this.smtp = config.SMTP_URL
      ? createTransport({ url: config.SMTP_URL, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 })
      : null;
    if (!this.smtp) this.logger.log('No SMTP_URL: account email is kept in the local mailbox (GET /api/v1/admin/mailbox)');
  }

  get delivery(): 'smtp' | 'mailbox' {
    return this.smtp ? 'smtp' : 'mailbox';
  }

  /** Resolves once the SMTP server accepted the message; throws when it did not. */
  async send(email: OutgoingEmail): Promise<void> {
    if (!this.smtp) return;
    await this.smtp.sendMail({
      from: { name: email.fromName, address: this.config.EMAIL_FROM },
      to: email.to,
      subject: email.subject,
      text: email.text,
      html: email.html,
      messageId: `<${email.messageId}@${this.config.EMAIL_FROM.split('@')[1]}>`,
    });
  }

  onModuleDestroy(): void {
    this.smtp?.close();
  }
}
