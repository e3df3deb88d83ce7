import type { Type } from '@nestjs/common';
import type { BackendServiceName } from '@gatehouse/contracts';
import type { ServiceConfig } from './config';

/** What a service lib exports so that the runtime can boot it alone or beside the others. */
export interface ServiceDefinition<C extends ServiceConfig = ServiceConfig> {
  name: BackendServiceName;
  /** Its own PostgreSQL schema. */
  schema: string;
  /** The service's root feature module. */
  module: Type;
  /** Its validated configuration class; injectable by that class. */
  config: new () => C;
  entities: Type[];
  /** Its schema's migrations, oldest first: run by the migration step, checked by the service at start. */
  migrations: Type[];
}
