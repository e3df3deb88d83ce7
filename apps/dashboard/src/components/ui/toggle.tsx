import * as SwitchPrimitive from '@radix-ui/react-switch';
import { useId, type MouseEvent, type ReactNode } from 'react';
import { useRefusal, type Permission } from '../../lib/permissions';
import { Hint } from './button';

/**
 * An on/off switch with its visible state beside it, the whole row a 44 px touch target on a phone.
 * The thumb moves by inline direction, so it stays inside its track right to left too. A role that
 * may not use it sees it off, with the reason on hover and focus.
 */
export function Toggle({
  checked,
  onCheckedChange,
  label,
  requires,
  children,
}: {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  /** The switch's accessible name. */
  label: string;
  requires?: Permission;
  children: ReactNode;
}) {
  const refusal = useRefusal(requires);
  const reasonId = useId();
  const stop = (event: MouseEvent) => event.preventDefault();
  const row = (
    <label className="flex min-h-11 items-center gap-2 text-sm sm:min-h-0">
      <SwitchPrimitive.Root
        checked={checked}
        onCheckedChange={onCheckedChange}
        onClick={refusal ? stop : undefined}
        aria-label={label}
        aria-disabled={refusal ? true : undefined}
        aria-describedby={refusal ? reasonId : undefined}
        className="relative h-5 w-9 shrink-0 cursor-pointer rounded-full bg-slate-300 data-[state=checked]:bg-brand aria-disabled:cursor-not-allowed aria-disabled:opacity-50"
      >
        <SwitchPrimitive.Thumb className="block h-4 w-4 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[18px] rtl:-translate-x-0.5 rtl:data-[state=checked]:-translate-x-[18px]" />
      </SwitchPrimitive.Root>
      {children}
      {refusal && (
        <span id={reasonId} className="sr-only">
          {refusal}
        </span>
      )}
    </label>
  );
  return refusal ? <Hint text={refusal}>{row}</Hint> : row;
}
