import { Global, Module, type DynamicModule } from '@nestjs/common';
import { Clock, SystemClock } from './clock';

/** Makes one clock injectable everywhere: the system's, or a test's. */
@Global()
@Module({})
export class ClockModule {
  static forRoot(clock: Clock = new SystemClock()): DynamicModule {
    return { module: ClockModule, providers: [{ provide: Clock, useValue: clock }], exports: [Clock] };
  }
}
