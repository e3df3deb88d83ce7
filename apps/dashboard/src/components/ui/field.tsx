import * as LabelPrimitive from '@radix-ui/react-label';
import { useId, type FieldsetHTMLAttributes, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import { cn } from '../../lib/cn';
import { useRefusal, type Permission } from '../../lib/permissions';

const control =
  'block w-full min-w-0 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm aria-[invalid=true]:border-red-600 disabled:cursor-not-allowed disabled:bg-slate-50 disabled:text-slate-600';
/** 44 px on a phone (a touch target), 36 px from `sm` up. */
const height = 'h-11 sm:h-9';

export function Input({ className, ...props }: InputHTMLAttributes<HTMLInputElement>) {
  return <input className={cn(control, height, className)} {...props} />;
}

export function Textarea({ className, ...props }: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return <textarea className={cn(control, 'min-h-20', className)} {...props} />;
}

export function Select({ className, ...props }: SelectHTMLAttributes<HTMLSelectElement>) {
  return <select className={cn(control, height, className)} {...props} />;
}

/**
 * A label, its control, a hint and the field's error, wired together for assistive technology:
 * `children` receives the id and the aria attributes to spread on the control.
 */
export function Field({
  label,
  hint,
  error,
  children,
}: {
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  children: (control: { id: string; 'aria-invalid': boolean; 'aria-describedby'?: string }) => ReactNode;
}) {
  const id = useId();
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="space-y-1">
      <LabelPrimitive.Root htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </LabelPrimitive.Root>
      {children({ id, 'aria-invalid': Boolean(error), 'aria-describedby': described })}
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-slate-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-xs font-medium text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * The fields of a form on a screen (not in a dialog) that the member's role may not change: shown,
 * read-only; the form's button, outside this group, says why. `contents` keeps a grid's layout.
 */
export function GuardedFields({ requires, className, ...props }: FieldsetHTMLAttributes<HTMLFieldSetElement> & { requires: Permission }) {
  const refusal = useRefusal(requires);
  return <fieldset disabled={refusal !== null} className={cn('min-w-0', className)} {...props} />;
}
