import { SetMetadata } from '@nestjs/common';
import type { AuditChanges } from '@gatehouse/contracts';

export const NOT_AUDITED = Symbol('NOT_AUDITED');
export const AUDIT_PUBLICATION = Symbol('AUDIT_PUBLICATION');

/** Which publication's log a write goes to, from its path parameters and its answer. */
export type PublicationOfWrite<A = unknown> = (params: Record<string, string>, answer: A) => string;

/** A write that changes only the caller's own session (switching publication, signing out): not a change to record. */
export const NotAudited = (): MethodDecorator => SetMetadata(NOT_AUDITED, true);

/** A write recorded in another publication's log than the session's current one (a publication's own routes). */
export const AuditedIn = <A>(publicationOf: PublicationOfWrite<A>): MethodDecorator => SetMetadata(AUDIT_PUBLICATION, publicationOf);

const REDACTED = '[redacted]';
/** Field names whose values are never kept: passwords, keys, tokens, secrets, signatures, card data. */
const SECRET_NAME = /pass(word|phrase|code)|secret|token|key$|^key|signature|credential|card|cvc/i;
/** Longer text (custom CSS, long copy) is cut here; the entry says how long it was. */
const MAX_TEXT = 1000;

/** Above this (as JSON), a body is kept as its field names: a page of the log stays one bus message. */
const MAX_CHANGES = 4096;

/** What a write's body changed, as the audit log keeps it: secrets replaced, long text cut, a large body by its fields. */
export function changesOf(body: unknown): AuditChanges | null {
  // A write that succeeded had a JSON object (or array) for a body, or none, or a file sent as it is (an import's).
  if (body === null || typeof body !== 'object') return null;
  const prototype: unknown = Object.getPrototypeOf(body);
  if (!Array.isArray(body) && prototype !== Object.prototype && prototype !== null) return { omitted: 'a file', fields: [] };
  const kept = redacted(body) as AuditChanges;
  const size = JSON.stringify(kept).length;
  if (size <= MAX_CHANGES) return kept;
  return { omitted: `a body of ${size} characters`, fields: Array.isArray(body) ? [] : Object.keys(body) };
}

function redacted(value: unknown, name = ''): unknown {
  if (SECRET_NAME.test(name)) return value === null || value === undefined ? value : REDACTED;
  if (typeof value === 'string') return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}… (${value.length} characters)` : value;
  if (Array.isArray(value)) return value.map((item) => redacted(item));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([field, item]) => [field, redacted(item, field)]));
  return value;
}
