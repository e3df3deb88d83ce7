import { useInfiniteQuery } from '@tanstack/react-query';
import type { AuditEntryView, AuditLogFilter } from '@gatehouse/contracts';
import { useState, type FormEvent } from 'react';
import { api } from '../api/client';
import { queries } from '../api/queries';
import { Button } from '../components/ui/button';
import { Card, PageHeader, Table } from '../components/ui/card';
import { Field, Input } from '../components/ui/field';
import { Empty, ErrorMessage, Loading } from '../components/ui/states';
import { formatDateTime } from '../lib/format';

const FIELDS = { actor: '', action: '', resource: '', from: '', to: '' };
type FilterFields = typeof FIELDS;

/** The form's fields as the API's filter: trimmed text, local date-times as ISO times, empty ones left out. */
function filterOf(fields: FilterFields): AuditLogFilter {
  const filter: AuditLogFilter = {};
  for (const name of ['actor', 'action', 'resource'] as const) if (fields[name].trim()) filter[name] = fields[name].trim();
  for (const name of ['from', 'to'] as const) if (fields[name]) filter[name] = new Date(fields[name]).toISOString();
  return filter;
}

export function AuditLogScreen() {
  const [fields, setFields] = useState(FIELDS);
  const [filter, setFilter] = useState<AuditLogFilter>({});
  const log = useInfiniteQuery(queries.auditLog(filter));
  const entries = log.data?.pages.flatMap((page) => page.items) ?? [];
  const filtered = Object.keys(filter).length > 0;
  const set = (name: keyof FilterFields) => (event: { target: { value: string } }) => setFields((current) => ({ ...current, [name]: event.target.value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFilter(filterOf(fields));
  };

  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every change made by your team in this publication: who, when, what, and from which address. Passwords, keys and secrets are never kept. Nobody can edit or delete it."
        actions={
          <Button variant="secondary" asChild>
            <a href={api.auditLog.exportHref(filter)} download="audit-log.csv">Export CSV</a>
          </Button>
        }
      />
      <form role="search" aria-label="Filter the audit log" className="mb-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-6 lg:items-end" onSubmit={submit}>
        <Field label="Who (email)">{(control) => <Input value={fields.actor} onChange={set('actor')} {...control} />}</Field>
        <Field label="Action">{(control) => <Input value={fields.action} onChange={set('action')} placeholder="paywalls" {...control} />}</Field>
        <Field label="Resource id">{(control) => <Input value={fields.resource} onChange={set('resource')} {...control} />}</Field>
        <Field label="From">{(control) => <Input type="datetime-local" value={fields.from} onChange={set('from')} {...control} />}</Field>
        <Field label="To">{(control) => <Input type="datetime-local" value={fields.to} onChange={set('to')} {...control} />}</Field>
        <div className="flex gap-2">
          <Button type="submit">Filter</Button>
          {filtered && (
            <Button type="button" variant="ghost" onClick={() => { setFields(FIELDS); setFilter({}); }}>
              Clear
            </Button>
          )}
        </div>
      </form>
      {log.isPending && <Loading what="the audit log" />}
      {log.error && <ErrorMessage error={log.error} onRetry={() => void log.refetch()} />}
      {log.data && entries.length === 0 && (
        <Empty title={filtered ? 'No entries match these filters' : 'No changes yet'}>
          {filtered ? 'Widen the dates or clear a filter.' : 'Each change your team makes (a paywall saved, a key created, a member invited) appears here.'}
        </Empty>
      )}
      {entries.length > 0 && (
        <Card className="p-0">
          <Table aria-label="Audit log entries">
            <thead className="border-b border-slate-200 text-xs uppercase text-slate-600">
              <tr>
                <th scope="col" className="px-4 py-2">When</th>
                <th scope="col" className="px-4 py-2">Who</th>
                <th scope="col" className="px-4 py-2">Action</th>
                <th scope="col" className="px-4 py-2">Resource</th>
                <th scope="col" className="px-4 py-2">Address</th>
                <th scope="col" className="px-4 py-2">Changes</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <EntryRow key={entry.id} entry={entry} />
              ))}
            </tbody>
          </Table>
        </Card>
      )}
      {log.hasNextPage && (
        <div className="mt-4">
          <Button variant="secondary" onClick={() => void log.fetchNextPage()} disabled={log.isFetchingNextPage}>
            {log.isFetchingNextPage ? 'Loading…' : 'Older entries'}
          </Button>
        </div>
      )}
    </>
  );
}

/** One write; staff-typed text (names, bodies) is shown as text, never as markup. */
function EntryRow({ entry }: { entry: AuditEntryView }) {
  return (
    <tr className="border-b border-slate-100 align-top last:border-0">
      <td className="whitespace-nowrap px-4 py-3">{formatDateTime(entry.at)}</td>
      <td className="px-4 py-3">
        <div className="font-medium">{entry.actor.name}</div>
        <div className="text-slate-600">{entry.actor.email}</div>
      </td>
      <td className="px-4 py-3">
        <div className="font-mono text-xs">{entry.method} {entry.route}</div>
        <div className="text-xs text-slate-600">{entry.action}</div>
      </td>
      <td className="break-all px-4 py-3 font-mono text-xs">{entry.resourceId ?? '—'}</td>
      <td className="whitespace-nowrap px-4 py-3 font-mono text-xs">{entry.address}</td>
      <td className="px-4 py-3">
        {entry.changes === null ? (
          '—'
        ) : (
          <details>
            <summary className="cursor-pointer text-xs">Show</summary>
            <pre className="mt-2 min-w-48 max-w-md overflow-x-auto whitespace-pre-wrap break-words rounded bg-slate-50 p-2 text-xs">{JSON.stringify(entry.changes, null, 2)}</pre>
          </details>
        )}
      </td>
    </tr>
  );
}
