import { Controller } from '@nestjs/common';
import { CustomerRequests, IdentityRequests, type CustomerProfile, type Page, type CustomerRecord, type RequestOf } from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { CustomerRecordsService } from './customer-records.service';

const { List, Create, Update, Delete } = CustomerRequests;
const { UpdateProfile } = IdentityRequests;

@Controller()
export class CustomerRecordsHandler {
  constructor(private readonly records: CustomerRecordsService) {}

  @Handles(List)
  list(request: RequestOf<typeof List>): Promise<Page<CustomerRecord>> {
    return this.records.list(request);
  }

  @Handles(Create)
  create(request: RequestOf<typeof Create>): Promise<CustomerRecord> {
    return this.records.create(request);
  }

  @Handles(Update)
  update(request: RequestOf<typeof Update>): Promise<CustomerRecord> {
    return this.records.update(request);
  }

  @Handles(UpdateProfile)
  updateProfile(request: RequestOf<typeof UpdateProfile>): Promise<CustomerProfile> {
    return this.records.updateProfile(request);
  }

  @Handles(Delete)
  delete(request: RequestOf<typeof Delete>): Promise<{ deleted: true }> {
    return this.records.delete(request);
  }
}
