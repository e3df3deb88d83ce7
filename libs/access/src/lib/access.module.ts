import { Module } from '@nestjs/common';
import type { ServiceDefinition } from '@gatehouse/platform';
import { AccessConfig } from './access.config';
import { DecisionsModule } from './decisions/decisions.module';
import { Experiment } from './experiments/experiment.entity';
import { ExperimentsModule } from './experiments/experiments.module';
import { CreateAccessTables1763771942137 } from './migrations/1763771942137-create-access-tables';
import { CrawlerPolicy1763990000000 } from './migrations/1763990000000-crawler-policy';
import { ShareLinks1764210000000 } from './migrations/1764210000000-share-links';
import { EdgeCheckBatches1764600000000 } from './migrations/1764600000000-edge-check-batches';
import { PaywallOneTimePrices1795901000000 } from './migrations/1795901000000-paywall-one-time-prices';
import { OrganisationReads1796710000000 } from './migrations/1796710000000-organisation-reads';
import { Paywall } from './paywalls/paywall.entity';
import { AccessRetention } from './retention/access-retention.service';
import { PaywallsModule } from './paywalls/paywalls.module';
import { PersonalDataModule } from './personal-data/personal-data.module';
import { Segment } from './segments/segment.entity';
import { SegmentsModule } from './segments/segments.module';
import { SharingModule } from './sharing/sharing.module';
import { StatsModule } from './stats/stats.module';
import { TrackingModule } from './tracking/tracking.module';

export { AccessConfig };

@Module({ imports: [SegmentsModule, PaywallsModule, ExperimentsModule, DecisionsModule, TrackingModule, StatsModule, SharingModule, PersonalDataModule], providers: [AccessRetention] })
export class AccessModule {}

/** Paywalls, segments, experiments, meters, visitor passes, access decisions and event intake. */
export const accessService: ServiceDefinition<AccessConfig> = {
  name: 'access',
  schema: 'access',
  module: AccessModule,
  config: AccessConfig,
  entities: [Segment, Paywall, Experiment],
  migrations: [CreateAccessTables1763771942137, CrawlerPolicy1763990000000, ShareLinks1764210000000, EdgeCheckBatches1764600000000, PaywallOneTimePrices1795901000000, OrganisationReads1796710000000],
};
