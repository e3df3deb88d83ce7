import { Module } from '@nestjs/common';
import { DeliveriesModule } from '../deliveries/deliveries.module';
import { SecretsModule } from '../secrets/secrets.module';
import { TargetsModule } from '../targets/targets.module';
import { RegistrationsHandler } from './registrations.handler';
import { RegistrationsService } from './registrations.service';

@Module({
  imports: [DeliveriesModule, SecretsModule, TargetsModule],
  controllers: [RegistrationsHandler],
  providers: [RegistrationsService],
})
export class RegistrationsModule {}
