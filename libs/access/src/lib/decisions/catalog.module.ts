import { Module } from '@nestjs/common';
import { PaywallCatalog } from './paywall-catalog';

/** One catalog per replica, shared by the checks that read it and the handlers whose writes change it. */
@Module({ providers: [PaywallCatalog], exports: [PaywallCatalog] })
export class CatalogModule {}
