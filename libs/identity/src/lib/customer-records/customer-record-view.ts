import type { CustomerRecord } from '@gatehouse/contracts';
import { toCustomerProfile } from '../customers/customer-views';
import type { Customer } from '../customers/customer.entity';

export function toCustomerRecord(customer: Customer): CustomerRecord {
  return { ...toCustomerProfile(customer), hasPassword: customer.passwordHash !== null, updatedAt: customer.updatedAt.toISOString() };
}
