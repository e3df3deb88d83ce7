import type { CustomerProfile } from './identity';
import type { Page, PageRequest } from './pagination';
import { requestPattern } from './patterns';

/* Customer records managed by staff and publishers' servers (spec 4.7; decisions H3), owned by identity. */

/** A customer as staff and publishers' servers see it. */
export interface CustomerRecord extends CustomerProfile {
  /** False for a customer created without a password: it can be granted access but cannot log in. */
  hasPassword: boolean;
  /** ISO 8601 UTC. */
  updatedAt: string;
}

export interface CustomerRecordChanges {
  email?: string;
  name?: string;
  /** Sets a new password; the customer's refresh-token families are revoked. */
  password?: string;
}

export const CustomerRequests = {
  /** `email` matches exactly, after trimming and lower-casing. 400 validation_failed for a cursor this service did not issue. */
  List: requestPattern<{ publicationId: string; email?: string } & PageRequest, Page<CustomerRecord>>('identity.customer-records.list'),
  /** 409 email_taken when the email is registered in the publication. Emits `customer.created`. */
  Create: requestPattern<{ publicationId: string; email: string; name: string; password?: string }, CustomerRecord>(
    'identity.customer-records.create',
  ),
  /** 404 when not in the publication; 409 email_taken for another customer's email. Emits `customer.updated`. */
  Update: requestPattern<{ publicationId: string; customerId: string; changes: CustomerRecordChanges }, CustomerRecord>(
    'identity.customer-records.update',
  ),
  /** 404 when not in the publication. Revokes every refresh token of the customer; emits `customer.deleted`. */
  Delete: requestPattern<{ publicationId: string; customerId: string }, { deleted: true }>('identity.customer-records.delete'),
} as const;
