import type { HTMLAttributes, ReactNode, TableHTMLAttributes } from 'react';
import { cn } from '../../lib/cn';
import { useQuery } from '@tanstack/react-query';
import { queries } from '../../api/queries';
import { useDocumentTitle } from '../../lib/document-title';

export function Card({ className, ...props }: HTMLAttributes<HTMLElement>) {
  return <section className={cn('rounded-lg border border-slate-200 bg-white p-5 shadow-sm', className)} {...props} />;
}

/** The screen's heading, which also names the browser tab; focus lands on it when the control that had it is gone. */
export function PageHeader({ title, description, actions }: { title: string; description?: ReactNode; actions?: ReactNode }) {
  const { data: session } = useQuery({ ...queries.session(), enabled: false });
  useDocumentTitle(title, session?.publication.name);
  return (
    <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
      <div className="min-w-0">
        <h1 tabIndex={-1} className="text-2xl font-semibold tracking-tight outline-none">
          {title}
        </h1>
        {description && <p className="mt-1 text-sm text-slate-600">{description}</p>}
      </div>
      {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
    </div>
  );
}

/**
 * A table that scrolls inside its card when a phone is narrower than its columns, rather than
 * widening the page; `relative`, so its visually hidden headers stay inside the scrolled area too.
 */
export function Table({ className, ...props }: TableHTMLAttributes<HTMLTableElement>) {
  return (
    <div className="relative max-w-full overflow-x-auto">
      <table className={cn('w-full text-left text-sm', className)} {...props} />
    </div>
  );
}

export function Badge({ tone = 'neutral', children }: { tone?: 'neutral' | 'good' | 'bad' | 'warn'; children: ReactNode }) {
  const tones = {
    neutral: 'bg-slate-100 text-slate-800',
    good: 'bg-green-100 text-green-900',
    bad: 'bg-red-100 text-red-900',
    warn: 'bg-amber-100 text-amber-900',
  };
  return <span className={cn('inline-flex rounded px-2 py-0.5 text-xs font-medium', tones[tone])}>{children}</span>;
}
