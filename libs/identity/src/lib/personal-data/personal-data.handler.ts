import { Controller } from '@nestjs/common';
import { PersonalDataRequests, type PersonalDataExport, type RequestOf } from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { ErasuresService } from './erasures.service';
import { PersonalDataExportService } from './personal-data-export.service';

const { Export, Erase } = PersonalDataRequests;

@Controller()
export class PersonalDataHandler {
  constructor(
    private readonly exports: PersonalDataExportService,
    private readonly erasures: ErasuresService,
  ) {}

  @Handles(Export)
  export({ publicationId, customerId }: RequestOf<typeof Export>): Promise<PersonalDataExport> {
    return this.exports.export(publicationId, customerId);
  }

  @Handles(Erase)
  async erase({ publicationId, customerId, confirmation }: RequestOf<typeof Erase>): Promise<{ erasing: true }> {
    await this.erasures.start(publicationId, customerId, confirmation);
    return { erasing: true };
  }
}
