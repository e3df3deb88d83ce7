import { Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { BUS_OPTIONS, createEventTransport, EVENT_TRANSPORT, ReadModels } from '@gatehouse/bus';
import { ConfigModule } from '@gatehouse/platform';
import { AccessRoutesModule } from './access/access-routes.module';
import { EdgeCheckRecorder } from './access/edge-check-recorder.service';
import { BillingRoutesModule } from './billing/billing-routes.module';
import { WebhooksOutRoutesModule } from './webhooks-out/webhooks-out-routes.module';
import { BrandingRoutesModule } from './branding/branding-routes.module';
import { CustomersRoutesModule } from './customers/customers-routes.module';
import { ImportsRoutesModule } from './imports/imports-routes.module';
import { StatsRoutesModule } from './stats/stats-routes.module';
import { WebAssetsModule } from './web-assets/web-assets.module';
import { InvitationsController, TeamController } from './admin/team.controller';
import { AuditLogController } from './audit-log/audit-log.controller';
import { ApiKeysController } from './admin/api-keys.controller';
import { PublicationsController } from './admin/publications.controller';
import { SessionController } from './admin/session.controller';
import { AccountEmailController } from './auth/account-email.controller';
import { CustomerAuthController } from './auth/customer-auth.controller';
import { MailboxController } from './auth/mailbox.controller';
import { JwksController } from './auth/jwks.controller';
import { DeletedCustomers } from './customers/deleted-customers.service';
import { ApiKeyReadModel } from './edge/api-key.read-model';
import { CustomerTokens, CustomerTokenStrategy, SigningKeysReadModel } from './edge/customer-tokens.service';
import { EdgeGuard } from './edge/edge.guard';
import { IdempotencyModule } from './edge/idempotency.module';
import { MemoryWindowStorage, RedisWindowStorage } from './edge/rate-limit.storage';
import { UnroutedRateLimiter } from './edge/unrouted-rate-limiter.service';
import { GatewayConfig } from './gateway.config';
import { GatewayLifecycle } from './gateway-lifecycle.service';
import { HealthController } from './health/health.controller';

@Module({})
export class GatewayModule {
  /** Needs the runtime's BusModule (global) for BUS_OPTIONS and the request client. */
  static forRoot(config: GatewayConfig): DynamicModule {
    return {
      module: GatewayModule,
      // The routes' modules see the replica's read models (for ReadYourWritesInterceptor) and the records of checks it answered.
      global: true,
      exports: [ReadModels, EdgeCheckRecorder],
      imports: [
        ConfigModule.forValue(GatewayConfig, config),
        IdempotencyModule.forRoot(config.REDIS_URL, config.REDIS_TIMEOUT_MS, config.BUS_NAMESPACE),
        ThrottlerModule.forRoot({
          ...EdgeGuard.throttlers(),
          storage: config.REDIS_URL ? RedisWindowStorage.connect(config.REDIS_URL, config.REDIS_TIMEOUT_MS, config.BUS_NAMESPACE) : new MemoryWindowStorage(),
        }),
        AccessRoutesModule,
        BillingRoutesModule,
        WebhooksOutRoutesModule,
        BrandingRoutesModule,
        CustomersRoutesModule,
        ImportsRoutesModule,
        StatsRoutesModule,
        WebAssetsModule,
      ],
      controllers: [
        HealthController,
        JwksController,
        CustomerAuthController,
        AccountEmailController,
        MailboxController,
        SessionController,
        PublicationsController,
        ApiKeysController,
        TeamController,
        InvitationsController,
        AuditLogController,
      ],
      providers: [
        { provide: EVENT_TRANSPORT, inject: [BUS_OPTIONS], useFactory: createEventTransport },
        ReadModels,
        EdgeCheckRecorder,
        ApiKeyReadModel,
        SigningKeysReadModel,
        CustomerTokenStrategy,
        CustomerTokens,
        DeletedCustomers,
        UnroutedRateLimiter,
        { provide: APP_GUARD, useClass: EdgeGuard },
        GatewayLifecycle,
      ],
    };
  }
}
