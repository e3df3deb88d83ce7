import { Module } from '@nestjs/common';
import { AccessCheckController } from './access-check.controller';
import { AccessTrialController } from './access-trial.controller';
import { CrawlerPolicyController } from './crawler-policy.controller';
import { EdgeDecisions } from './edge-decisions.service';
import { EventsController } from './events.controller';
import { ExperimentsController } from './experiments.controller';
import { PaywallsController } from './paywalls.controller';
import { SegmentsController } from './segments.controller';
import { SharingController } from './sharing.controller';

/** The public routes of the access feature, behind the gateway's edge guard. */
@Module({
  controllers: [AccessCheckController, AccessTrialController, EventsController, PaywallsController, SegmentsController, ExperimentsController, CrawlerPolicyController, SharingController],
  providers: [EdgeDecisions],
})
export class AccessRoutesModule {}
