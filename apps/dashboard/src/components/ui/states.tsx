import { useState, type ReactNode } from 'react';
import { ApiError } from '../../api/client';
import { Button } from './button';

export function Loading({ what }: { what: string }) {
  return (
    <div role="status" aria-live="polite" className="flex items-center gap-3 py-10 text-sm text-slate-600">
      <span className="h-4 w-4 animate-spin rounded-full border-2 border-slate-300 border-t-brand" aria-hidden="true" />
      Loading {what}…
    </div>
  );
}

export function Empty({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-slate-300 bg-white px-6 py-10 text-center">
      <h2 className="text-base font-semibold">{title}</h2>
      {children && <p className="mx-auto mt-1 max-w-md text-sm text-slate-600">{children}</p>}
      {action && <div className="mt-4 flex justify-center">{action}</div>}
    </div>
  );
}

/** The problem-details `detail` of a failed request, as the API wrote it. */
export function ErrorMessage({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  if (!error) return null;
  const detail = error instanceof ApiError ? error.problem.detail : 'Something went wrong. Try again.';
  return (
    <div role="alert" className="flex items-start justify-between gap-4 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900">
      <span>{detail}</span>
      {onRetry && (
        <Button size="sm" variant="secondary" onClick={onRetry}>
          Try again
        </Button>
      )}
    </div>
  );
}

export function Notice({ children }: { children: ReactNode }) {
  return (
    <div role="status" className="rounded-md border border-green-300 bg-green-50 px-4 py-3 text-sm text-green-900">
      {children}
    </div>
  );
}

/** A secret shown once: monospace, selectable, with a copy button. */
export function SecretValue({ label, value }: { label: string; value: string }) {
  return <CopyValue label={label} value={value} secret />;
}

/** A value to paste elsewhere (a key, a link, a snippet of HTML), selectable, with a copy button that says when it copied. */
export function CopyValue({ label, value, secret, multiline }: { label: string; value: string; secret?: boolean; multiline?: boolean }) {
  const [copied, setCopied] = useState(false);
  const shown = multiline ? (
    <pre className="block min-w-0 flex-1 overflow-x-auto whitespace-pre rounded bg-slate-100 px-3 py-2 text-xs" data-copy={label}>
      {value}
    </pre>
  ) : (
    <code className="block min-w-0 flex-1 overflow-x-auto rounded bg-slate-100 px-3 py-2 text-xs" data-copy={label} data-secret={secret ? label : undefined}>
      {value}
    </code>
  );
  return (
    <div className="space-y-1">
      <div className="text-sm font-medium">{label}</div>
      <div className={multiline ? 'flex flex-col items-stretch gap-2 sm:flex-row sm:items-start' : 'flex items-center gap-2'}>
        {shown}
        <Button
          size="sm"
          variant="secondary"
          aria-label={`Copy ${label}`}
          onClick={() => {
            void navigator.clipboard?.writeText(value).then(() => setCopied(true), () => setCopied(false));
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
      <span role="status" className="sr-only">
        {copied ? `${label} copied` : ''}
      </span>
    </div>
  );
}
