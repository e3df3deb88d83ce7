import { Injectable } from '@nestjs/common';
import {
  EMAIL_LANGUAGES,
  TEMPLATE_KINDS,
  EmailTemplateRequests,
  type EmailCopy,
  type EmailLanguage,
  type EmailTemplateView,
  type RequestOf,
  type TemplateKind,
} from '@gatehouse/contracts';
import { Clock } from '@gatehouse/platform';
import { DataSource } from 'typeorm';
import { DEFAULT_COPY } from './default-copy';
import { EmailTemplate } from './email-template.entity';

/** The copy of each message per publication and language: what staff wrote, else the built-in copy. */
@Injectable()
export class EmailTemplatesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  async copyFor(publicationId: string, kind: TemplateKind, language: EmailLanguage): Promise<EmailCopy> {
    const edited = await this.dataSource.getRepository(EmailTemplate).findOneBy({ publicationId, kind, language });
    return edited ? copyOf(edited) : DEFAULT_COPY[kind][language];
  }

  async list(publicationId: string): Promise<EmailTemplateView[]> {
    const edited = await this.dataSource.getRepository(EmailTemplate).findBy({ publicationId });
    return TEMPLATE_KINDS.flatMap((kind) =>
      EMAIL_LANGUAGES.map((language) => {
        const own = edited.find((t) => t.kind === kind && t.language === language);
        return { kind, language, ...(own ? copyOf(own) : DEFAULT_COPY[kind][language]), customized: own !== undefined };
      }),
    );
  }

  async put(request: RequestOf<typeof EmailTemplateRequests.Put>): Promise<EmailTemplateView> {
    const { publicationId, kind, language, copy } = request;
    const repository = this.dataSource.getRepository(EmailTemplate);
    if (copy === null) {
      await repository.delete({ publicationId, kind, language });
      return { kind, language, ...DEFAULT_COPY[kind][language], customized: false };
    }
    await repository.upsert({ publicationId, kind, language, ...copy, updatedAt: this.clock.now() }, ['publicationId', 'kind', 'language']);
    return { kind, language, ...copy, customized: true };
  }
}

function copyOf(template: EmailTemplate): EmailCopy {
  return { subject: template.subject, body: template.body, action: template.action };
}
