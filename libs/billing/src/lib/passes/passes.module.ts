import { Module } from '@nestjs/common';
import { SubscriptionsModule } from '../subscriptions/subscriptions.module';
import { EntitlementsHandler } from './entitlements.handler';
import { PurchasesHandler } from './purchases.handler';
import { PurchasesService } from './purchases.service';

@Module({ imports: [SubscriptionsModule], controllers: [EntitlementsHandler, PurchasesHandler], providers: [PurchasesService], exports: [PurchasesService] })
export class PassesModule {}
