import { Module, type DynamicModule } from '@nestjs/common';
import { BusModule, type BusOptions } from '@gatehouse/bus';
import { ConfigModule } from '@gatehouse/platform';
import { JwksController } from './auth/jwks.controller';
import { GatewayConfig } from './gateway.config';
import { HealthController, ProbeController } from './health/health.controller';

@Module({})
export class GatewayModule {
  static forRoot(config: GatewayConfig, bus: BusOptions): DynamicModule {
    return {
      module: GatewayModule,
      imports: [ConfigModule.forValue(GatewayConfig, config), BusModule.forRoot(bus)],
      controllers: [HealthController, ProbeController, JwksController],
    };
  }
}
