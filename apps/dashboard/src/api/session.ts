import { useQuery } from '@tanstack/react-query';
import type { MembershipView, StaffRole } from '@gatehouse/contracts';
import { queries } from './queries';

/** The session of a signed-in page (the shell's loader made sure there is one). */
export function useSession() {
  const { data } = useQuery(queries.session());
  if (!data) throw new Error('useSession outside the signed-in shell');
  return data;
}

export const ROLE_LABELS: Record<StaffRole, string> = { admin: 'Owner', editor: 'Editor', viewer: 'Viewer' };

export function canWrite(publication: MembershipView): boolean {
  return publication.role !== 'viewer';
}
