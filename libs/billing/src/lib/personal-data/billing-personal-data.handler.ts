import { Controller } from '@nestjs/common';
import { PersonalDataRequests, type BillingPersonalData, type ErasureStepResult, type RequestOf } from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { BillingPersonalDataService } from './billing-personal-data.service';

const { BillingExport, BillingErase } = PersonalDataRequests;

@Controller()
export class BillingPersonalDataHandler {
  constructor(private readonly personalData: BillingPersonalDataService) {}

  @Handles(BillingExport)
  export(request: RequestOf<typeof BillingExport>): Promise<BillingPersonalData> {
    return this.personalData.export(request);
  }

  @Handles(BillingErase)
  erase(request: RequestOf<typeof BillingErase>): Promise<ErasureStepResult> {
    return this.personalData.erase(request);
  }
}
