import { Global, Module, type DynamicModule } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** Makes a service's opened data source injectable as `DataSource`; the host opens and closes it. */
@Global()
@Module({})
export class DatabaseModule {
  static forDataSource(dataSource: DataSource): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [{ provide: DataSource, useValue: dataSource }],
      exports: [DataSource],
    };
  }
}
