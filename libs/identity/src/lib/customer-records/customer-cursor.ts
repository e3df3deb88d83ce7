import { AppError } from '@gatehouse/platform';
import { isUUID } from 'class-validator';

/** Where a page of customers ends: the last row's creation time and id, newest first. */
export interface CustomerCursor {
  createdAt: string;
  id: string;
}

export function encodeCursor(cursor: CustomerCursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt, cursor.id])).toString('base64url');
}

/** 400 validation_failed for anything this service did not issue. */
export function decodeCursor(cursor: string): CustomerCursor {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (!Array.isArray(decoded) || decoded.length !== 2) throw invalidCursor();
  const [createdAt, id] = decoded as unknown[];
  if (!isIsoTimestamp(createdAt) || typeof id !== 'string' || !isUUID(id)) throw invalidCursor();
  return { createdAt, id };
}

function isIsoTimestamp(value: unknown): value is string {
  return typeof value === 'string' && !Number.isNaN(Date.parse(value)) && new Date(value).toISOString() === value;
}

function invalidCursor(): AppError {
  return new AppError('validation_failed', 'The request is invalid.', [{ field: 'cursor', message: 'must be a nextCursor from an earlier page' }]);
}
