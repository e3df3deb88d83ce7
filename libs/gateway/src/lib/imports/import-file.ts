import {
  TRANSFER_COLUMNS,
  unguardedCell,
  type ImportRow,
  type PriceInterval,
  type RowProblem,
  type TransferColumn,
} from '@gatehouse/contracts';
import { AppError } from '@gatehouse/platform';
import { isEmail, isISO8601 } from 'class-validator';
import type { Readable } from 'node:stream';
import { isStorableText } from '../edge/input-limits';

/** The formats an import file may come in: CSV with a header line, or JSON Lines objects keyed by the same columns. */
export const IMPORT_MEDIA_TYPES = { 'text/csv': 'csv', 'application/x-ndjson': 'jsonl' } as const;
export type ImportFormat = (typeof IMPORT_MEDIA_TYPES)[keyof typeof IMPORT_MEDIA_TYPES];
/** Bodies above this answer 413 `payload_too_large`: a few hundred thousand rows. */
export const IMPORT_BODY_LIMIT = 32 * 1024 * 1024;

const PLAN_COLUMNS = ['product', 'interval', 'currency', 'amount'] as const;
/** What an imported subscription's price may be: passes and single articles are bought, not subscribed to. */
const SUBSCRIPTION_INTERVALS = ['month', 'year', 'lifetime'] as const satisfies readonly PriceInterval[];
const REQUIRED: TransferColumn[] = ['email', 'name'];
const PROCESSOR_ID = { processor_customer_id: /^cus_[A-Za-z0-9]{1,100}$/, processor_subscription_id: /^sub_[A-Za-z0-9]{1,100}$/ } as const;

type Cell = string | number | null | undefined;
/** One record of the file and the line it starts on; `fields` null for a line that is not a record at all. */
export interface FileRecord {
  line: number;
  fields: Partial<Record<TransferColumn, Cell>> | null;
  unreadable?: string;
}

/**
 * The records of an upload as it streams in, each with the line it starts on. 413 past
 * IMPORT_BODY_LIMIT bytes; 400 for a CSV header naming a column the import does not know, or
 * lacking email or name.
 */
export async function* recordsOf(body: Readable, format: ImportFormat): AsyncGenerator<FileRecord> {
  const lines = linesOf(body);
  yield* format === 'csv' ? csvRecords(lines) : jsonRecords(lines);
}

/** A record as an import row, or the reason it is not one, in words staff can act on. */
export function rowOf(record: FileRecord): ImportRow | RowProblem {
  const { line, fields } = record;
  if (!fields) return { line, reason: record.unreadable ?? 'not a record' };
  const text = (column: TransferColumn): string | null => {
    const value = fields[column];
    if (value === null || value === undefined) return null;
    const trimmed = unguardedCell(String(value).trim());
    return trimmed === '' ? null : trimmed;
  };
  for (const column of TRANSFER_COLUMNS) {
    const value = text(column);
    if (value !== null && !isStorableText(value)) return { line, reason: `${column} holds a NUL or an unpaired surrogate` };
  }
  const email = text('email')?.toLowerCase() ?? null;
  if (!email || email.length > 254 || !isEmail(email)) return { line, reason: 'email must be an email address of at most 254 characters' };
  const name = text('name');
  if (!name || name.length > 100) return { line, reason: 'name must be 1 to 100 characters' };
  for (const [column, pattern] of Object.entries(PROCESSOR_ID) as Array<[keyof typeof PROCESSOR_ID, RegExp]>) {
    const id = text(column);
    if (id !== null && !pattern.test(id)) return { line, reason: `${column} must be a processor id (${column === 'processor_customer_id' ? 'cus_' : 'sub_'}…)` };
  }
  const plan = PLAN_COLUMNS.map(text);
  const named = plan.filter((value) => value !== null).length;
  if (named > 0 && named < PLAN_COLUMNS.length) {
    return { line, reason: `a plan needs all of ${PLAN_COLUMNS.join(', ')}; missing ${PLAN_COLUMNS.filter((_, i) => plan[i] === null).join(', ')}` };
  }
  const [product, interval, currency, amount] = plan;
  if (product !== null && product.length > 200) return { line, reason: 'product must be at most 200 characters' };
  if (interval !== null && !(SUBSCRIPTION_INTERVALS as readonly string[]).includes(interval)) return { line, reason: `interval must be one of ${SUBSCRIPTION_INTERVALS.join(', ')}` };
  if (currency !== null && !/^[A-Za-z]{3}$/.test(currency)) return { line, reason: 'currency must be a three-letter ISO 4217 code' };
  if (amount !== null && !(/^\d{1,9}$/.test(amount))) return { line, reason: 'amount must be a whole number of minor units (cents)' };
  const end = text('current_period_end');
  if (end !== null && !isISO8601(end, { strict: true, strictSeparator: true })) return { line, reason: 'current_period_end must be an ISO 8601 date or time' };
  const processorSubscriptionId = text('processor_subscription_id');
  if (end !== null && (product === null || processorSubscriptionId !== null)) {
    return { line, reason: 'current_period_end is the end of a manual grant: give it with a plan and without processor_subscription_id' };
  }
  return {
    line,
    email,
    name,
    plan: product === null || currency === null ? null : { product, interval: interval as PriceInterval, currency: currency.toLowerCase(), amount: Number(amount) },
    currentPeriodEnd: end === null ? null : new Date(end).toISOString(),
    processorCustomerId: text('processor_customer_id'),
    processorSubscriptionId,
  };
}

export function isProblem(row: ImportRow | RowProblem): row is RowProblem {
  return 'reason' in row;
}

/** Lines as they arrive (a CR before the LF dropped), numbered from 1; 413 past the limit. */
async function* linesOf(body: Readable): AsyncGenerator<[number, string]> {
  let received = 0;
  let rest = '';
  let number = 0;
  body.setEncoding('utf8');
  for await (const chunk of body as AsyncIterable<string>) {
    received += Buffer.byteLength(chunk);
    if (received > IMPORT_BODY_LIMIT) throw tooLarge();
    const parts = (rest + chunk).split('\n');
    rest = parts.pop() ?? '';
    for (const part of parts) yield [++number, part.endsWith('\r') ? part.slice(0, -1) : part];
  }
  if (rest !== '') yield [++number, rest];
}

export function tooLarge(): AppError {
  return new AppError('payload_too_large', `Import files are limited to ${IMPORT_BODY_LIMIT / 1024 / 1024} MiB; split a larger one.`);
}

/** RFC 4180: quoted fields may hold commas, doubled quotes and line breaks; a record starts on the line its first field does. */
async function* csvRecords(lines: AsyncGenerator<[number, string]>): AsyncGenerator<FileRecord> {
  let columns: Array<TransferColumn | null> | null = null;
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let start = 0;
  for await (const [number, text] of lines) {
    if (!quoted) {
      if (text.trim() === '') continue;
      start = number;
    } else field += '\n';
    // Most lines quote nothing: split them at once rather than a character at a time.
    if (!quoted && !text.includes('"')) fields = text.split(',');
    else {
      for (let i = 0; i < text.length; i++) {
        const c = text[i];
        if (quoted) {
          if (c !== '"') field += c;
          else if (text[i + 1] === '"') {
            field += '"';
            i++;
          } else quoted = false;
        } else if (c === '"' && field === '') quoted = true;
        else if (c === ',') {
          fields.push(field);
          field = '';
        } else field += c;
      }
      if (quoted) continue;
      fields.push(field);
    }
    const record = fields;
    fields = [];
    field = '';
    if (!columns) {
      columns = headerOf(record);
      continue;
    }
    if (record.length > columns.length) {
      yield { line: start, fields: null, unreadable: `${record.length} fields where the header has ${columns.length}` };
      continue;
    }
    const known = columns;
    yield { line: start, fields: Object.fromEntries(record.flatMap((value, i) => (known[i] ? [[known[i], value]] : []))) };
  }
  if (quoted) yield { line: start, fields: null, unreadable: 'a quoted field is not closed' };
  if (!columns) throw new AppError('validation_failed', 'The file is empty: it needs a header line and rows.');
}

/** The header's columns; an empty one (a trailing comma) is ignored. */
function headerOf(names: string[]): Array<TransferColumn | null> {
  const columns = names.map((name) => name.trim().replace(/^\ufeff/, '').toLowerCase());
  const unknown = columns.filter((name) => name !== '' && !(TRANSFER_COLUMNS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new AppError('validation_failed', `The header names columns the import does not know: ${unknown.join(', ')}. The columns are ${TRANSFER_COLUMNS.join(', ')}.`);
  const missing = REQUIRED.filter((name) => !columns.includes(name));
  if (missing.length > 0) throw new AppError('validation_failed', `The header lacks ${missing.join(' and ')}. The columns are ${TRANSFER_COLUMNS.join(', ')}.`);
  const named = columns.filter((name) => name !== '');
  if (new Set(named).size !== named.length) throw new AppError('validation_failed', 'The header names a column twice.');
  return columns.map((name) => (name === '' ? null : (name as TransferColumn)));
}

async function* jsonRecords(lines: AsyncGenerator<[number, string]>): AsyncGenerator<FileRecord> {
  for await (const [line, text] of lines) {
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      yield { line, fields: null, unreadable: 'not valid JSON' };
      continue;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      yield { line, fields: null, unreadable: 'not a JSON object' };
      continue;
    }
    const entries = Object.entries(value);
    const unknown = entries.map(([key]) => key).filter((key) => !(TRANSFER_COLUMNS as readonly string[]).includes(key));
    if (unknown.length > 0) {
      yield { line, fields: null, unreadable: `unknown keys ${unknown.join(', ')}; the keys are ${TRANSFER_COLUMNS.join(', ')}` };
      continue;
    }
    const wrong = entries.find(([, cell]) => cell !== null && typeof cell !== 'string' && typeof cell !== 'number');
    if (wrong) {
      yield { line, fields: null, unreadable: `${wrong[0]} must be a string or a number` };
      continue;
    }
    yield { line, fields: value as Record<TransferColumn, Cell> };
  }
}
