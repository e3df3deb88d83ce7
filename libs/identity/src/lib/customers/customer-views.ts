import type { CustomerEventData, CustomerProfile, CustomerView } from '@gatehouse/contracts';
import type { Customer } from './customer.entity';

export function toCustomerView(customer: Customer): CustomerView {
  return { id: customer.id, email: customer.email, name: customer.name, emailVerified: customer.emailVerifiedAt !== null };
}

export function toCustomerProfile(customer: Customer): CustomerProfile {
  return { ...toCustomerView(customer), createdAt: customer.createdAt.toISOString() };
}

/** The `data` of every `customer.*` event. */
export function toCustomerEventData(customer: Customer): CustomerEventData {
  return {
    customerId: customer.id,
    email: customer.email,
    name: customer.name,
    emailVerified: customer.emailVerifiedAt !== null,
    createdAt: customer.createdAt.toISOString(),
  };
}
