import * as AlertDialogPrimitive from '@radix-ui/react-alert-dialog';
import * as DialogPrimitive from '@radix-ui/react-dialog';
import { useRef, useState, type ReactNode } from 'react';
import { cn } from '../../lib/cn';
import { Button } from './button';

const overlay = 'fixed inset-0 z-40 bg-slate-900/50';
// A sheet over the bottom of a phone's screen, full width; a centred card from `sm` up.
const content = cn(
  'fixed z-50 overflow-y-auto bg-white p-5 shadow-xl',
  'inset-x-0 bottom-0 max-h-[92vh] w-full rounded-t-xl',
  'sm:inset-x-auto sm:bottom-auto sm:left-1/2 sm:top-1/2 sm:max-h-[90vh] sm:w-[min(36rem,calc(100vw-2rem))] sm:-translate-x-1/2 sm:-translate-y-1/2 sm:rounded-lg sm:p-6',
);
const wideContent = cn(content, 'sm:w-[min(52rem,calc(100vw-2rem))]');

/** The element outside any dialog that opened the latest one: where focus goes when a dialog's own opener is gone. */
let pageOpener: HTMLElement | null = null;

/**
 * Where focus goes back when a dialog closes (WCAG 2.4.3): what opened it, else what opened the
 * dialog before it (a "created" dialog that follows a form's), else the screen's heading when that
 * control is gone (the empty state's button once there is an item).
 */
function useReturnFocus(open: boolean) {
  const opener = useRef<HTMLElement | null>(null);
  const wasOpen = useRef(false);
  if (open && !wasOpen.current && typeof document !== 'undefined') {
    // The page's body is no opener: focus falls to it when the control that had it went away or was
    // disabled (a form's submit button while it saves), and the dialog that follows is then the form's.
    const active = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
    opener.current = active;
    if (active && !active.closest('[role="dialog"], [role="alertdialog"]')) pageOpener = active;
  }
  wasOpen.current = open;
  return (event: Event) => {
    event.preventDefault();
    const target = [opener.current, pageOpener].find((element) => element?.isConnected && !element.closest('[role="dialog"], [role="alertdialog"]'));
    const fallback = document.querySelector<HTMLElement>('main h1') ?? document.querySelector<HTMLElement>('main');
    (target ?? fallback)?.focus();
  };
}

/** A modal with a title and a close button; Radix traps focus, and closing returns it to what opened it. */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  wide,
  children,
}: {
  wide?: boolean;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  const returnFocus = useReturnFocus(open);
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className={overlay} />
        <DialogPrimitive.Content className={wide ? wideContent : content} onCloseAutoFocus={returnFocus}>
          <DialogPrimitive.Title className="text-lg font-semibold">{title}</DialogPrimitive.Title>
          {description ? (
            <DialogPrimitive.Description className="mt-1 text-sm text-slate-600">{description}</DialogPrimitive.Description>
          ) : (
            <DialogPrimitive.Description className="sr-only">{title}</DialogPrimitive.Description>
          )}
          <div className="mt-4">{children}</div>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

/** "Are you sure?" saying what stops working; the confirm button is the destructive one unless `tone` says otherwise. */
export function ConfirmDialog({
  trigger,
  title,
  consequence,
  confirmLabel,
  onConfirm,
  tone = 'danger',
  open,
  onOpenChange,
}: {
  /** The control that opens it; none when the caller opens it with `open`. */
  trigger?: ReactNode;
  title: string;
  consequence: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  tone?: 'danger' | 'primary';
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
}) {
  const [ownOpen, setOwnOpen] = useState(false);
  const isOpen = open ?? ownOpen;
  const returnFocus = useReturnFocus(isOpen);
  return (
    <AlertDialogPrimitive.Root open={isOpen} onOpenChange={onOpenChange ?? setOwnOpen}>
      {trigger && <AlertDialogPrimitive.Trigger asChild>{trigger}</AlertDialogPrimitive.Trigger>}
      <AlertDialogPrimitive.Portal>
        <AlertDialogPrimitive.Overlay className={overlay} />
        <AlertDialogPrimitive.Content className={content} onCloseAutoFocus={returnFocus}>
          <AlertDialogPrimitive.Title className="text-lg font-semibold">{title}</AlertDialogPrimitive.Title>
          <AlertDialogPrimitive.Description className="mt-2 text-sm text-slate-700">{consequence}</AlertDialogPrimitive.Description>
          <div className="mt-6 flex flex-wrap justify-end gap-2">
            <AlertDialogPrimitive.Cancel asChild>
              <Button variant="secondary">Cancel</Button>
            </AlertDialogPrimitive.Cancel>
            <AlertDialogPrimitive.Action asChild>
              <Button variant={tone} onClick={onConfirm}>
                {confirmLabel}
              </Button>
            </AlertDialogPrimitive.Action>
          </div>
        </AlertDialogPrimitive.Content>
      </AlertDialogPrimitive.Portal>
    </AlertDialogPrimitive.Root>
  );
}
