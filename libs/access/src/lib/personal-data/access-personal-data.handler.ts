import { Controller } from '@nestjs/common';
import { PersonalDataRequests, type AccessPersonalData, type ErasureStepResult, type RequestOf } from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { AccessPersonalDataService } from './access-personal-data.service';

const { AccessExport, AccessErase } = PersonalDataRequests;

@Controller()
export class AccessPersonalDataHandler {
  constructor(private readonly personalData: AccessPersonalDataService) {}

  @Handles(AccessExport)
  export(request: RequestOf<typeof AccessExport>): Promise<AccessPersonalData> {
    return this.personalData.export(request);
  }

  @Handles(AccessErase)
  erase(request: RequestOf<typeof AccessErase>): Promise<ErasureStepResult> {
    return this.personalData.erase(request);
  }
}
