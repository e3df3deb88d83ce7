import { Slot } from '@radix-ui/react-slot';
import * as TooltipPrimitive from '@radix-ui/react-tooltip';
import { cva, type VariantProps } from 'class-variance-authority';
import { useId, type ButtonHTMLAttributes, type MouseEvent, type ReactNode } from 'react';
import { cn } from '../../lib/cn';
import { useRefusal, type Permission } from '../../lib/permissions';

// On a phone every button is a 44 px touch target (WCAG 2.5.5); from `sm` up the denser desktop sizes apply.
const buttonVariants = cva(
  'inline-flex items-center justify-center gap-2 rounded-md text-sm font-medium transition-colors cursor-pointer disabled:pointer-events-none disabled:opacity-50 aria-disabled:cursor-not-allowed aria-disabled:opacity-50',
  {
    variants: {
      variant: {
        primary: 'bg-brand text-white hover:bg-brand-strong aria-disabled:hover:bg-brand',
        secondary: 'border border-slate-300 bg-white text-slate-900 hover:bg-slate-100 aria-disabled:hover:bg-white',
        danger: 'bg-red-700 text-white hover:bg-red-800 aria-disabled:hover:bg-red-700',
        ghost: 'text-slate-700 hover:bg-slate-100 aria-disabled:hover:bg-transparent',
      },
      size: { md: 'h-11 px-4 sm:h-9', sm: 'h-11 min-w-11 px-3 text-xs sm:h-8 sm:min-w-0' },
    },
    defaultVariants: { variant: 'primary', size: 'md' },
  },
);

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement>, VariantProps<typeof buttonVariants> {
  asChild?: boolean;
  /** What the member's role must allow: otherwise the button stays focusable but does nothing, and says why on hover and focus. */
  requires?: Permission;
  /** Another reason the action is not available now (the same treatment); null when it is. */
  refusal?: string | null;
}

export function Button({ className, variant, size, asChild, type, requires, refusal: otherRefusal, ...props }: ButtonProps) {
  const refusal = useRefusal(requires) ?? otherRefusal ?? null;
  const Component = asChild ? Slot : 'button';
  const button = <Component className={cn(buttonVariants({ variant, size }), className)} type={asChild ? undefined : (type ?? 'button')} {...props} />;
  if (!refusal) return button;
  return <Refused reason={refusal} button={props} className={cn(buttonVariants({ variant, size }), className)} type={type} />;
}

/**
 * A refused button: `aria-disabled` rather than `disabled`, so it keeps focus and its tooltip;
 * clicks (and the Enter that submits a form) are stopped before anything acts on them.
 */
function Refused({ reason, button, className, type }: { reason: string; button: ButtonHTMLAttributes<HTMLButtonElement>; className: string; type?: ButtonProps['type'] }) {
  const id = useId();
  const { onClick: _ignored, children, ...rest } = button;
  const stop = (event: MouseEvent) => {
    event.preventDefault();
    event.stopPropagation();
  };
  return (
    <>
      <Hint text={reason}>
        <button {...rest} type={type ?? 'button'} className={className} aria-disabled="true" aria-describedby={id} onClick={stop}>
          {children}
        </button>
      </Hint>
      <span id={id} className="sr-only">
        {reason}
      </span>
    </>
  );
}

/** A short explanation shown beside its trigger while the pointer is over it or it has focus. */
export function Hint({ text, children }: { text: string; children: ReactNode }) {
  return (
    <TooltipPrimitive.Root>
      <TooltipPrimitive.Trigger asChild>{children}</TooltipPrimitive.Trigger>
      <TooltipPrimitive.Portal>
        <TooltipPrimitive.Content
          sideOffset={6}
          collisionPadding={8}
          className="z-50 max-w-72 rounded-md bg-slate-900 px-3 py-2 text-xs leading-snug text-white shadow-lg"
        >
          {text}
          <TooltipPrimitive.Arrow className="fill-slate-900" />
        </TooltipPrimitive.Content>
      </TooltipPrimitive.Portal>
    </TooltipPrimitive.Root>
  );
}
