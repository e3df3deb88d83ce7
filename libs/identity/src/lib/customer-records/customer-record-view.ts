import type { CustomerEventData, CustomerRecord } from '@gatehouse/contracts';
import { toCustomerProfile } from '../customers/customer-views';
import type { Customer } from '../customers/customer.entity';

export function toCustomerRecord(customer: Customer): CustomerRecord {
  return { ...toCustomerProfile(customer), hasPassword: customer.passwordHash !== null, updatedAt: customer.updatedAt.toISOString() };
}

/** The `data` of customer.created, customer.updated and customer.deleted. */
export function toCustomerEventData(customer: Customer): CustomerEventData {
  return {
    customerId: customer.id,
    email: customer.email,
    name: customer.name,
    emailVerified: customer.emailVerifiedAt !== null,
    createdAt: customer.createdAt.toISOString(),
  };
}
