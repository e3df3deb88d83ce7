import { Controller } from '@nestjs/common';
import { PersonalDataRequests, type ErasureStepResult, type RequestOf, type WebhooksOutPersonalData } from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { WebhooksOutPersonalDataService } from './webhooks-out-personal-data.service';

const { WebhooksOutExport, WebhooksOutErase } = PersonalDataRequests;

@Controller()
export class WebhooksOutPersonalDataHandler {
  constructor(private readonly personalData: WebhooksOutPersonalDataService) {}

  @Handles(WebhooksOutExport)
  export(request: RequestOf<typeof WebhooksOutExport>): Promise<WebhooksOutPersonalData> {
    return this.personalData.export(request);
  }

  @Handles(WebhooksOutErase)
  erase(request: RequestOf<typeof WebhooksOutErase>): Promise<ErasureStepResult> {
    return this.personalData.erase(request);
  }
}
