import { hasFieldErrors } from '../../lib/forms';
import { Button } from './button';
import { ErrorMessage } from './states';

/** A dialog form's end: the failure's `detail` unless its field errors are already shown, then Cancel and submit. */
export function FormFooter({ error, onCancel, submitLabel, pending }: { error: unknown; onCancel: () => void; submitLabel: string; pending: boolean }) {
  return (
    <>
      {Boolean(error) && !hasFieldErrors(error) && <ErrorMessage error={error} />}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending}>
          {submitLabel}
        </Button>
      </div>
    </>
  );
}
