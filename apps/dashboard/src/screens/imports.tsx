import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { TRANSFER_COLUMNS, type ImportJobSummary, type ImportStatus } from '@gatehouse/contracts';
import { useState, type FormEvent } from 'react';
import { api, EXPORT_URL } from '../api/client';
import { keys, queries } from '../api/queries';
import { Button } from '../components/ui/button';
import { Badge, Card, PageHeader, Table } from '../components/ui/card';
import { Field, Input } from '../components/ui/field';
import { Empty, ErrorMessage, Loading, Notice } from '../components/ui/states';
import { formatDateTime } from '../lib/format';

/** How often a job in progress is asked where it stands. */
const POLL_MS = 1_000;
const IN_PROGRESS: ImportStatus[] = ['uploading', 'checking', 'importing'];

const STATUS: Record<ImportStatus, { label: string; tone: 'neutral' | 'good' | 'bad' | 'warn' }> = {
  uploading: { label: 'Uploading', tone: 'neutral' },
  checking: { label: 'Checking', tone: 'warn' },
  checked: { label: 'Checked: nothing imported yet', tone: 'neutral' },
  importing: { label: 'Importing', tone: 'warn' },
  imported: { label: 'Imported', tone: 'good' },
};

export function ImportsScreen() {
  const [openId, setOpenId] = useState<string | null>(null);
  const jobs = useQuery({ ...queries.imports(), refetchInterval: (query) => (query.state.data?.some((job) => IN_PROGRESS.includes(job.status)) ? POLL_MS : false) });
  return (
    <>
      <PageHeader
        title="Import and export"
        description="Bring readers and their subscriptions from another system, or take them elsewhere. A file is checked first, row by row; nothing is imported until you run it."
      />
      <ExportCard />
      <UploadCard onUploaded={setOpenId} />
      {openId && <ImportJobCard key={openId} id={openId} />}
      <Card>
        <h2 className="mb-2 font-semibold">Recent imports</h2>
        {jobs.isPending && <Loading what="imports" />}
        {jobs.error && <ErrorMessage error={jobs.error} onRetry={() => void jobs.refetch()} />}
        {jobs.data?.length === 0 && <Empty title="No imports yet">Check a file above to start one.</Empty>}
        {jobs.data && jobs.data.length > 0 && <JobList jobs={jobs.data} onOpen={setOpenId} />}
      </Card>
    </>
  );
}

function ExportCard() {
  return (
    <Card className="space-y-2">
      <h2 className="font-semibold">Export</h2>
      <p className="text-sm text-slate-600">
        Every customer with their live subscriptions, one row per subscription, in the columns an import reads: the file imports into another publication as it is.
      </p>
      <Button asChild variant="secondary">
        <a href={EXPORT_URL} download="customers.csv">Download customers.csv</a>
      </Button>
    </Card>
  );
}

function UploadCard({ onUploaded }: { onUploaded: (id: string) => void }) {
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [notifyReaders, setNotifyReaders] = useState(false);
  const upload = useMutation({
    mutationFn: (chosen: File) => api.imports.upload(chosen, notifyReaders),
    onSuccess: (job) => {
      void queryClient.invalidateQueries({ queryKey: keys.imports.all });
      onUploaded(job.id);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (file) upload.mutate(file);
  };
  return (
    <Card>
      <form className="space-y-3" onSubmit={submit} noValidate>
        <h2 className="font-semibold">Import</h2>
        <p className="text-sm text-slate-600">
          CSV with a header line, or JSON Lines with the same keys: <code className="text-xs">{TRANSFER_COLUMNS.join(', ')}</code>. Only email and name are required. A plan
          (product, interval, currency, amount in cents) links the subscription named by <code className="text-xs">processor_subscription_id</code>, or grants it by hand until{' '}
          <code className="text-xs">current_period_end</code> (for good when empty).
        </p>
        <Field label="File">
          {(control) => <Input type="file" accept=".csv,.jsonl,.ndjson,text/csv" onChange={(e) => setFile(e.target.files?.[0] ?? null)} {...control} />}
        </Field>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" className="accent-brand" checked={notifyReaders} onChange={(e) => setNotifyReaders(e.target.checked)} /> Email each new reader the address verification message
          (otherwise imported readers get no email)
        </label>
        {upload.error && <ErrorMessage error={upload.error} />}
        <Button type="submit" requires="edit" refusal={file ? null : 'Choose a file first.'} disabled={upload.isPending}>
          {upload.isPending ? 'Uploading…' : 'Check file'}
        </Button>
      </form>
    </Card>
  );
}

function ImportJobCard({ id }: { id: string }) {
  const queryClient = useQueryClient();
  const job = useQuery({ ...queries.importJob(id), refetchInterval: (query) => (query.state.data && !IN_PROGRESS.includes(query.state.data.status) ? false : POLL_MS) });
  const run = useMutation({
    mutationFn: () => api.imports.run(id),
    onSuccess: (view) => {
      queryClient.setQueryData(keys.imports.one(id), view);
      void queryClient.invalidateQueries({ queryKey: keys.imports.all });
    },
  });
  if (job.isPending) return <Loading what="the import" />;
  if (job.error) return <ErrorMessage error={job.error} onRetry={() => void job.refetch()} />;
  const view = job.data;
  const checking = view.status === 'uploading' || view.status === 'checking' || view.status === 'checked';
  const valid = view.totalRows - view.failedRows;
  return (
    <Card className="space-y-3" aria-label="Import">
      <div className="flex items-center justify-between">
        <h2 className="font-semibold">{checking ? 'Dry run' : 'Import'} of {view.totalRows} rows</h2>
        <Badge tone={STATUS[view.status].tone}>{STATUS[view.status].label}</Badge>
      </div>
      <Progress done={view.processedRows} total={view.totalRows} />
      <p className="text-sm">
        Customers: {view.customers.created} {checking ? 'to create' : 'created'}, {view.customers.unchanged} already here. Subscriptions: {view.subscriptions.created}{' '}
        {checking ? 'to create' : 'created'}, {view.subscriptions.unchanged} already here. Rows with problems: {view.failedRows}.
      </p>
      {view.status === 'checked' && (
        <div className="flex items-center gap-3">
          <Button requires="edit" refusal={valid > 0 ? null : 'No row can be imported.'} onClick={() => run.mutate()} disabled={run.isPending}>
            Import {valid} {valid === 1 ? 'row' : 'rows'}
          </Button>
          {view.failedRows > 0 && <span className="text-sm text-slate-600">Rows with problems are skipped; fix them and import the file again (what is already here stays as it is).</span>}
        </div>
      )}
      {run.error && <ErrorMessage error={run.error} />}
      {view.notifyReaders && <Notice>New readers get the address verification message.</Notice>}
      {view.problems.length > 0 && (
        <Table>
          <caption className="text-left text-sm font-medium">
            Rows with problems{view.failedRows > view.problems.length ? ` (the first ${view.problems.length} of ${view.failedRows})` : ''}
          </caption>
          <thead className="bg-slate-50 text-xs uppercase text-slate-600">
            <tr>
              <th scope="col" className="px-2 py-2">Line</th>
              <th scope="col" className="px-2 py-2">Problem</th>
            </tr>
          </thead>
          <tbody>
            {view.problems.map((problem) => (
              <tr key={problem.line} className="border-t border-slate-100">
                <td className="px-2 py-1 tabular-nums">{problem.line}</td>
                <td className="px-2 py-1">{problem.reason}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </Card>
  );
}

function Progress({ done, total }: { done: number; total: number }) {
  const percent = total === 0 ? 100 : Math.floor((done / total) * 100);
  return (
    <div role="progressbar" aria-label="Rows done" aria-valuemin={0} aria-valuemax={total} aria-valuenow={done} aria-valuetext={`${done} of ${total} rows`} className="h-2 rounded bg-slate-100">
      <div className="h-2 rounded bg-brand" style={{ width: `${percent}%` }} />
    </div>
  );
}

function JobList({ jobs, onOpen }: { jobs: ImportJobSummary[]; onOpen: (id: string) => void }) {
  return (
    <Table>
      <caption className="sr-only">Recent imports</caption>
      <thead className="bg-slate-50 text-xs uppercase text-slate-600">
        <tr>
          <th scope="col" className="px-2 py-2">Started</th>
          <th scope="col" className="px-2 py-2">Status</th>
          <th scope="col" className="px-2 py-2">Rows</th>
          <th scope="col" className="px-2 py-2">Problems</th>
          <th scope="col" className="px-2 py-2"><span className="sr-only">Actions</span></th>
        </tr>
      </thead>
      <tbody>
        {jobs.map((job) => (
          <tr key={job.id} className="border-t border-slate-100">
            <td className="px-2 py-1">{formatDateTime(job.createdAt)}</td>
            <td className="px-2 py-1"><Badge tone={STATUS[job.status].tone}>{STATUS[job.status].label}</Badge></td>
            <td className="px-2 py-1 tabular-nums">{job.totalRows}</td>
            <td className="px-2 py-1 tabular-nums">{job.failedRows}</td>
            <td className="px-2 py-1 text-right">
              <Button size="sm" variant="secondary" onClick={() => onOpen(job.id)} aria-label={`Open the import of ${formatDateTime(job.createdAt)}`}>Open</Button>
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
