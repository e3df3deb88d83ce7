import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreatedInvitation, StaffRole, TeamChangeView } from '@gatehouse/contracts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { api } from '../api/client';
import { keys, queries } from '../api/queries';
import { ROLE_LABELS, useSession } from '../api/session';
import { Button } from '../components/ui/button';
import { Badge, Card, PageHeader } from '../components/ui/card';
import { ConfirmDialog, Dialog } from '../components/ui/dialog';
import { Field, Input, Select } from '../components/ui/field';
import { Empty, ErrorMessage, Loading, SecretValue } from '../components/ui/states';
import { showFieldErrors } from '../lib/forms';
import { FormFooter } from '../components/ui/form-footer';
import { formatDateTime } from '../lib/format';

const ROLES = ['admin', 'editor', 'viewer'] as const satisfies readonly StaffRole[];
const ROLE_HELP: Record<StaffRole, string> = {
  admin: 'everything, including the team and the publication',
  editor: 'everything but the team and the publication settings',
  viewer: 'reads everything, changes nothing',
};

const inviteSchema = z.object({ email: z.email('Enter an email address.'), role: z.enum(ROLES) });
type InviteValues = z.infer<typeof inviteSchema>;

const dateTime = formatDateTime;

export function TeamScreen() {
  const session = useSession();
  const queryClient = useQueryClient();
  const team = useQuery(queries.team());
  const [inviting, setInviting] = useState(false);
  const [invitation, setInvitation] = useState<CreatedInvitation | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: keys.team.all });
  const changeRole = useMutation({ mutationFn: (args: { staffId: string; role: StaffRole }) => api.team.changeRole(args.staffId, { role: args.role }), onSettled: refresh });
  const removeMember = useMutation({ mutationFn: api.team.removeMember, onSettled: refresh });
  const revokeInvitation = useMutation({ mutationFn: api.team.revokeInvitation, onSettled: refresh });
  const failure = changeRole.error ?? removeMember.error ?? revokeInvitation.error;

  return (
    <>
      <PageHeader
        title="Team"
        description={`Who works on ${session.publication.name}. Owners manage the team; editors change everything else; viewers only look.`}
        actions={<Button onClick={() => setInviting(true)}>Invite someone</Button>}
      />
      <ErrorMessage error={failure} />
      {team.isPending && <Loading what="the team" />}
      {team.error && <ErrorMessage error={team.error} onRetry={() => void team.refetch()} />}
      {team.data && (
        <>
          <Card className="p-0">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Members</caption>
              <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase text-slate-600">
                <tr>
                  <th scope="col" className="px-4 py-2">Member</th>
                  <th scope="col" className="px-4 py-2">Role</th>
                  <th scope="col" className="px-4 py-2">Joined</th>
                  <th scope="col" className="px-4 py-2"><span className="sr-only">Actions</span></th>
                </tr>
              </thead>
              <tbody>
                {team.data.members.map((member) => (
                  <tr key={member.id} className="border-b border-slate-100 last:border-0">
                    <td className="px-4 py-3">
                      <div className="font-medium">{member.name}</div>
                      <div className="text-xs text-slate-600">{member.email}</div>
                    </td>
                    <td className="px-4 py-3">
                      <Select
                        aria-label={`Role of ${member.email}`}
                        className="w-32"
                        value={member.role}
                        onChange={(event) => changeRole.mutate({ staffId: member.id, role: event.target.value as StaffRole })}
                      >
                        {ROLES.map((role) => (
                          <option key={role} value={role}>{ROLE_LABELS[role]}</option>
                        ))}
                      </Select>
                    </td>
                    <td className="px-4 py-3 text-slate-700">{dateTime(member.joinedAt)}</td>
                    <td className="px-4 py-3 text-right">
                      <ConfirmDialog
                        trigger={<Button size="sm" variant="secondary" aria-label={`Remove ${member.email}`}>Remove</Button>}
                        title={`Remove ${member.email}?`}
                        consequence={`${member.name} loses access to ${session.publication.name} at once; their open dashboard sessions in it stop working. Other publications they belong to are not affected.`}
                        confirmLabel="Remove member"
                        onConfirm={() => removeMember.mutate(member.id)}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Card>

          <h2 className="pt-4 text-lg font-semibold">Open invitations</h2>
          {team.data.invitations.length === 0 ? (
            <Empty title="No open invitations" action={<Button variant="secondary" onClick={() => setInviting(true)}>Invite someone</Button>} />
          ) : (
            <Card className="p-0">
              <ul>
                {team.data.invitations.map((open) => (
                  <li key={open.id} className="flex items-center justify-between gap-4 border-b border-slate-100 px-4 py-3 text-sm last:border-0">
                    <span>
                      <strong>{open.email}</strong> as <Badge>{ROLE_LABELS[open.role]}</Badge>, invited by {open.invitedBy}, valid until {dateTime(open.expiresAt)}
                    </span>
                    <ConfirmDialog
                      trigger={<Button size="sm" variant="secondary" aria-label={`Revoke the invitation of ${open.email}`}>Revoke</Button>}
                      title={`Revoke the invitation of ${open.email}?`}
                      consequence="The link you passed on stops working. You can invite them again later."
                      confirmLabel="Revoke invitation"
                      onConfirm={() => revokeInvitation.mutate(open.id)}
                    />
                  </li>
                ))}
              </ul>
            </Card>
          )}

          <h2 className="pt-4 text-lg font-semibold">Changes</h2>
          <TeamLog log={team.data.log} />
        </>
      )}
      {inviting && <InviteDialog onClose={() => setInviting(false)} onInvited={(created) => { setInviting(false); setInvitation(created); refresh(); }} />}
      {invitation && (
        <Dialog open onOpenChange={(open) => !open && setInvitation(null)} title={`Invitation for ${invitation.email}`} description="Pass this link on to them. It works once, for 7 days, and is shown only now.">
          <SecretValue label="Invitation link" value={`${window.location.origin}/dashboard/invitation#token=${invitation.token}`} />
          <div className="mt-6 flex justify-end">
            <Button onClick={() => setInvitation(null)}>Done</Button>
          </div>
        </Dialog>
      )}
    </>
  );
}

const ACTIONS: Record<TeamChangeView['action'], string> = {
  invited: 'invited',
  invitation_revoked: 'revoked the invitation of',
  joined: 'joined',
  role_changed: 'changed the role of',
  removed: 'removed',
};

function TeamLog({ log }: { log: TeamChangeView[] }) {
  if (log.length === 0) return <p className="text-sm text-slate-600">No changes yet.</p>;
  return (
    <Card>
      <ol className="space-y-1 text-sm">
        {log.map((change) => (
          <li key={change.id}>
            <span className="text-slate-600">{dateTime(change.at)}</span> — {change.actor}{' '}
            {change.action === 'joined' ? 'joined' : `${ACTIONS[change.action]} ${change.subject}`}
            {change.role && ` (${ROLE_LABELS[change.role]})`}
          </li>
        ))}
      </ol>
    </Card>
  );
}

function InviteDialog({ onClose, onInvited }: { onClose: () => void; onInvited: (invitation: CreatedInvitation) => void }) {
  const form = useForm<InviteValues>({ resolver: zodResolver(inviteSchema), defaultValues: { email: '', role: 'viewer' } });
  const invite = useMutation({
    mutationFn: (values: InviteValues) => api.team.invite(values),
    onSuccess: onInvited,
    onError: (error) => showFieldErrors(form, error),
  });
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title="Invite someone" description="They get a link that is valid for 7 days and works once.">
      <form className="space-y-4" onSubmit={form.handleSubmit((values) => invite.mutate(values))} noValidate>
        <Field label="Email" error={form.formState.errors.email?.message}>
          {(control) => <Input type="email" {...control} {...form.register('email')} />}
        </Field>
        <Field label="Role" hint={ROLE_HELP[form.watch('role')]} error={form.formState.errors.role?.message}>
          {(control) => (
            <Select {...control} {...form.register('role')}>
              {ROLES.map((role) => (
                <option key={role} value={role}>{ROLE_LABELS[role]}</option>
              ))}
            </Select>
          )}
        </Field>
        <FormFooter error={invite.error} onCancel={onClose} submitLabel={'Create invitation'} pending={invite.isPending} />
      </form>
    </Dialog>
  );
}
