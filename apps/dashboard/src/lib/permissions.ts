import type { StaffRole } from '@gatehouse/contracts';
import { createContext, useContext } from 'react';

/**
 * What a control needs (docs/admin.md, "Team"): `edit` changes the publication's content (editors
 * and owners), `manage` its team and settings (owners only). The gateway and admin refuse the rest;
 * the screen says why before anyone tries.
 */
export type Permission = 'edit' | 'manage';

const REFUSALS: Record<StaffRole, Partial<Record<Permission, string>>> = {
  admin: {},
  editor: { manage: 'Only owners change the team and the publication settings.' },
  viewer: {
    edit: 'You are a viewer: you can look at everything but change nothing. An owner can make you an editor.',
    manage: 'You are a viewer: only owners change the team and the publication settings.',
  },
};

/** The signed-in member's role in the current publication; outside the signed-in shell nothing is refused. */
export const RoleContext = createContext<StaffRole>('admin');

/** Null when the role may do it, else the reason it may not, in words for the screen. */
export function useRefusal(permission: Permission | undefined): string | null {
  const role = useContext(RoleContext);
  return permission ? (REFUSALS[role][permission] ?? null) : null;
}
