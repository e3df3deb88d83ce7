import { Controller } from '@nestjs/common';
import { AccessRequests, type CrawlerPolicy, type RequestOf } from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { CrawlerPolicyService } from './crawler-policy.service';

const { GetCrawlerPolicy, UpdateCrawlerPolicy } = AccessRequests;

@Controller()
export class CrawlerPolicyHandler {
  constructor(private readonly policies: CrawlerPolicyService) {}

  @Handles(GetCrawlerPolicy)
  get({ publicationId }: RequestOf<typeof GetCrawlerPolicy>): Promise<CrawlerPolicy> {
    return this.policies.get(publicationId);
  }

  @Handles(UpdateCrawlerPolicy)
  update({ publicationId, changes }: RequestOf<typeof UpdateCrawlerPolicy>): Promise<CrawlerPolicy> {
    return this.policies.update(publicationId, changes);
  }
}
