import { Module } from '@nestjs/common';
import { SecretBox } from '@gatehouse/platform';
import { ProcessorClients } from './processor-clients.service';
import { ProcessorCustomersService } from './processor-customers.service';
import { ProcessorSettingsHandler } from './processor-settings.handler';
import { ProcessorSettingsService } from './processor-settings.service';
import { settingsBoxProvider } from './settings-box';

@Module({
  controllers: [ProcessorSettingsHandler],
  providers: [settingsBoxProvider, ProcessorClients, ProcessorSettingsService, ProcessorCustomersService],
  exports: [ProcessorSettingsService, ProcessorCustomersService, SecretBox],
})
export class ProcessorModule {}
