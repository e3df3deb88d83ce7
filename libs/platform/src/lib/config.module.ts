import { Global, Module, type DynamicModule } from '@nestjs/common';

/** Makes a validated config object injectable by its class. */
@Global()
@Module({})
export class ConfigModule {
  static forValue<T extends object>(cls: new () => T, value: T): DynamicModule {
    return { module: ConfigModule, providers: [{ provide: cls, useValue: value }], exports: [cls] };
  }
}
