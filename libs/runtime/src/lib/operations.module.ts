import { Module, type DynamicModule } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import type { BackendServiceName } from '@gatehouse/contracts';
import { Readiness } from '@gatehouse/platform';
import { healthControllerFor, METRICS_PORT, OperationsController } from './operations.controller';
import { ProcessReadiness, ProcessState, REQUEST_SERVER, type ProbedServer } from './process-readiness.service';

export { ProcessReadiness, ProcessState, REQUEST_SERVER, type ProbedServer } from './process-readiness.service';

@Module({})
export class OperationsModule {
  static forProcess(options: { state: ProcessState; metricsPort?: number; requestServer?: ProbedServer; service?: BackendServiceName }): DynamicModule {
    return {
      module: OperationsModule,
      global: true,
      // A failed check is readiness's answer, not an error to log at every probe.
      imports: [TerminusModule.forRoot({ logger: false })],
      controllers: [OperationsController, ...(options.service ? [healthControllerFor(options.service)] : [])],
      providers: [
        { provide: ProcessState, useValue: options.state },
        { provide: METRICS_PORT, useValue: options.metricsPort },
        ...(options.requestServer ? [{ provide: REQUEST_SERVER, useValue: options.requestServer }] : []),
        { provide: Readiness, useClass: ProcessReadiness },
      ],
      exports: [Readiness, ProcessState],
    };
  }
}
