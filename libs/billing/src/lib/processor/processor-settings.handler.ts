import { Controller } from '@nestjs/common';
import { BillingRequests, type ProcessorSettingsView, type RequestOf } from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { ProcessorSettingsService } from './processor-settings.service';

const { GetProcessorSettings, SaveProcessorSettings } = BillingRequests;

@Controller()
export class ProcessorSettingsHandler {
  constructor(private readonly settings: ProcessorSettingsService) {}

  @Handles(GetProcessorSettings)
  get({ publicationId }: RequestOf<typeof GetProcessorSettings>): Promise<ProcessorSettingsView> {
    return this.settings.view(publicationId);
  }

  @Handles(SaveProcessorSettings)
  save({ publicationId, secretKey, webhookSecret }: RequestOf<typeof SaveProcessorSettings>): Promise<ProcessorSettingsView> {
    return this.settings.save(publicationId, secretKey, webhookSecret);
  }
}
