import { Module } from '@nestjs/common';
import { SubscribersModule } from '../subscribers/subscribers.module';
import { ShareLinksService } from './share-links.service';
import { ShareSettingsService } from './share-settings.service';
import { SharingHandler } from './sharing.handler';

@Module({
  imports: [SubscribersModule],
  controllers: [SharingHandler],
  providers: [ShareLinksService, ShareSettingsService],
  exports: [ShareLinksService],
})
export class SharingModule {}
