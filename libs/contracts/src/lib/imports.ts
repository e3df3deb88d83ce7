import type { PriceInterval } from './billing';
import type { Page, PageRequest } from './pagination';
import { requestPattern } from './patterns';

/*
 * Moving a subscriber base in and out (docs/imports.md): a file of customers and their
 * subscriptions is checked (a dry run reporting each bad row), then imported in batches by a job
 * admin runs: identity imports the customers, billing their subscriptions. The export writes the
 * same columns, so an export imports into another publication as it was.
 */

/** The columns of an import file and of the export, in this order. */
export const TRANSFER_COLUMNS = [
  'email',
  'name',
  'product',
  'interval',
  'currency',
  'amount',
  'current_period_end',
  'processor_customer_id',
  'processor_subscription_id',
] as const;
export type TransferColumn = (typeof TRANSFER_COLUMNS)[number];

/** The price a subscription is to, named as a publisher names it: the product, and the price's interval, currency and amount. */
export interface TransferPlan {
  product: string;
  interval: PriceInterval;
  /** ISO 4217, lower case. */
  currency: string;
  /** Minor units. */
  amount: number;
}

/** One row: a customer, and at most one subscription of theirs (a customer with two subscriptions takes two rows). */
export interface TransferRow {
  email: string;
  name: string;
  /** Null: the row brings the customer only. */
  plan: TransferPlan | null;
  /** A manual grant's end (ISO 8601); null: it never ends. A processor subscription's period comes from the processor. */
  currentPeriodEnd: string | null;
  /** The customer's account at the processor, linked when given. */
  processorCustomerId: string | null;
  /** The processor subscription the row's subscription is; without one the subscription is a manual grant. */
  processorSubscriptionId: string | null;
}

/** A row of the file as read, `line` being where it starts (1 is the CSV header, or the first JSON line). */
export interface ImportRow extends TransferRow {
  line: number;
}

/** A bad row and why, in words staff can act on. */
export interface RowProblem {
  line: number;
  reason: string;
}

/**
 * `uploading`: rows arriving; `checking`: the dry run in progress; `checked`: its report stands,
 * nothing was imported; `importing`; `imported`.
 */
export const IMPORT_STATUSES = ['uploading', 'checking', 'checked', 'importing', 'imported'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

export interface ImportCounts {
  /** New: created by the import (or, while checking, that would be). */
  created: number;
  /** Already there, so left as they were. */
  unchanged: number;
}

/** The bad rows a job view lists; `failedRows` counts them all. */
export const IMPORT_PROBLEMS_SHOWN = 1_000;

export interface ImportJobSummary {
  id: string;
  status: ImportStatus;
  /** Whether imported readers get the address verification message; they get no email otherwise. */
  notifyReaders: boolean;
  totalRows: number;
  /** Rows the current pass (the check, then the import) went through. */
  processedRows: number;
  failedRows: number;
  customers: ImportCounts;
  subscriptions: ImportCounts;
  createdAt: string;
  updatedAt: string;
}

export interface ImportJobView extends ImportJobSummary {
  /** The first IMPORT_PROBLEMS_SHOWN bad rows, by line. */
  problems: RowProblem[];
}

/** Rows one upload request carries to admin: well under NATS's 1 MiB message. */
export const IMPORT_UPLOAD_BATCH = 1_000;

/** A customer as identity imports it. */
export interface CustomerImport {
  email: string;
  name: string;
}

export interface CustomerImportResult {
  /** As stored: trimmed and lower-cased. */
  email: string;
  /** Null only in a dry run, for a customer that would be created. */
  customerId: string | null;
  created: boolean;
}

/** A row's subscription part as billing imports it; `customerId` null in a dry run for a customer that would be created. */
export interface SubscriptionImport {
  line: number;
  customerId: string | null;
  plan: TransferPlan | null;
  currentPeriodEnd: string | null;
  processorCustomerId: string | null;
  processorSubscriptionId: string | null;
}

export interface SubscriptionImportResult {
  line: number;
  /** `none`: the row names no subscription (a processor customer link at most). */
  outcome: 'created' | 'unchanged' | 'none' | 'failed';
  reason?: string;
}

/** What billing holds of a customer, as export rows carry it. */
export interface ExportedSubscription {
  customerId: string;
  plan: TransferPlan | null;
  currentPeriodEnd: string | null;
  processorCustomerId: string | null;
  processorSubscriptionId: string | null;
}

/** Customers per export page: the page's subscriptions are asked for in one request. */
export const EXPORT_PAGE_SIZE = 500;

export const ImportRequests = {
  /** A job in `uploading`; the gateway adds the rows, then asks for the check. */
  Create: requestPattern<{ publicationId: string; notifyReaders: boolean }, ImportJobView>('admin.imports.create'),
  /** Rows read and rows already refused by their form; 409 conflict unless the job is `uploading`. */
  AddRows: requestPattern<{ publicationId: string; jobId: string; rows: ImportRow[]; problems: RowProblem[] }, { added: number }>('admin.imports.rows.add'),
  /** An upload that failed part way (too large, cut off): its job and rows go. Only while `uploading`. */
  Discard: requestPattern<{ publicationId: string; jobId: string }, { deleted: true }>('admin.imports.discard'),
  /** The upload is complete: the dry run starts. 409 conflict unless `uploading`. */
  Check: requestPattern<{ publicationId: string; jobId: string }, ImportJobView>('admin.imports.check'),
  /** Imports the checked rows (bad ones are skipped). 409 conflict unless `checked`. */
  Run: requestPattern<{ publicationId: string; jobId: string }, ImportJobView>('admin.imports.run'),
  /** 404 for a job of another publication. */
  Get: requestPattern<{ publicationId: string; jobId: string }, ImportJobView>('admin.imports.get'),
  /** Newest first. */
  List: requestPattern<{ publicationId: string } & PageRequest, Page<ImportJobSummary>>('admin.imports.list'),
  /** Export rows of the customers after `cursor`, by email. */
  ExportPage: requestPattern<{ publicationId: string; cursor?: string }, { rows: TransferRow[]; nextCursor: string | null }>('admin.imports.export-page'),

  /** Creates the customers not in the publication yet (by email), with their `customer.created`; nothing in a dry run. */
  ImportCustomers: requestPattern<
    { publicationId: string; dryRun: boolean; notifyReaders: boolean; customers: CustomerImport[] },
    { customers: CustomerImportResult[] }
  >('identity.imports.customers'),
  /** Customers by email, from just after `after`: the export's pages. */
  ExportCustomers: requestPattern<{ publicationId: string; after: string | null; limit: number }, { customers: Array<{ id: string; email: string; name: string }> }>(
    'identity.imports.customers.export',
  ),
  /** Links processor subscriptions and customers (looked up at the processor) and grants the rest; nothing in a dry run. */
  ImportSubscriptions: requestPattern<{ publicationId: string; dryRun: boolean; rows: SubscriptionImport[] }, { results: SubscriptionImportResult[] }>(
    'billing.imports.subscriptions',
  ),
  /** The live subscriptions and processor accounts of these customers. */
  ExportSubscriptions: requestPattern<{ publicationId: string; customerIds: string[] }, { subscriptions: ExportedSubscription[] }>('billing.imports.subscriptions.export'),
} as const;
