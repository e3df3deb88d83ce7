import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { MembershipView, StaffRole } from '@gatehouse/contracts';
import type { AnswerOf } from './client';
import { keys, queries } from './queries';

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

/** After the session moved to another publication: every cached answer was the old one's, so only the session stays. */
export function sessionSwitched(queryClient: QueryClient, session: AnswerOf<'/api/v1/admin/session/publication', 'put'>): void {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== keys.session[0] });
  queryClient.setQueryData(keys.session, session);
}
