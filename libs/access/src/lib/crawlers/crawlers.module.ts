import { Module } from '@nestjs/common';
import { RulesWrites } from '../shared/rules-writes.service';
import { CrawlerPolicyHandler } from './crawler-policy.handler';
import { CrawlerPolicyService } from './crawler-policy.service';
import { CrawlerVerification } from './crawler-verification.service';

@Module({
  controllers: [CrawlerPolicyHandler],
  providers: [CrawlerPolicyService, CrawlerVerification, RulesWrites],
  exports: [CrawlerPolicyService, CrawlerVerification],
})
export class CrawlersModule {}
