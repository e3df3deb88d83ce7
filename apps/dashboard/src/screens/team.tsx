import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreatedInvitation, StaffRole, TeamChangeView, TeamMemberView } from '@gatehouse/contracts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { api } from '../api/client';
import { keys, queries } from '../api/queries';
import { ROLE_LABELS, useSession } from '../api/session';
import { Button } from '../components/ui/button';
import { Badge, Card, PageHeader, Table } from '../components/ui/card';
import { ConfirmDialog, Dialog } from '../components/ui/dialog';
import { Field, Input, Select } from '../components/ui/field';
import { Empty, ErrorMessage, Loading, Notice, SecretValue } from '../components/ui/states';
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

const LAST_OWNER = 'A publication keeps at least one owner: make someone else an owner first.';

export function TeamScreen() {
  const session = useSession();
  const queryClient = useQueryClient();
  const team = useQuery(queries.team());
  const [inviting, setInviting] = useState(false);
  const [invitation, setInvitation] = useState<CreatedInvitation | null>(null);
  const [changing, setChanging] = useState<TeamMemberView | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: keys.team.all });
  const removeMember = useMutation({ mutationFn: api.team.removeMember, onMutate: () => setSaved(null), onSettled: refresh });
  const revokeInvitation = useMutation({ mutationFn: api.team.revokeInvitation, onMutate: () => setSaved(null), onSettled: refresh });
  const failure = removeMember.error ?? revokeInvitation.error;
  const owners = team.data?.members.filter((member) => member.role === 'admin').length ?? 0;
  /** Why a member's role cannot change or they cannot leave, beyond the viewer's own rights: the last owner stays. */
  const lastOwner = (member: TeamMemberView) => (member.role === 'admin' && owners <= 1 ? LAST_OWNER : null);

  return (
    <>
      <PageHeader
        title="Team"
        description={`Who works on ${session.publication.name}. Owners manage the team; editors change everything else; viewers only look.`}
        actions={<Button requires="manage" onClick={() => setInviting(true)}>Invite someone</Button>}
      />
      {saved && <Notice>{saved}</Notice>}
      <ErrorMessage error={failure} />
      {team.isPending && <Loading what="the team" />}
      {team.error && <ErrorMessage error={team.error} onRetry={() => void team.refetch()} />}
      {team.data && (
        <>
          <Card className="p-0">
            <Table>
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
                      <div className="break-all text-xs text-slate-600">{member.email}</div>
                    </td>
                    <td className="px-4 py-3"><Badge>{ROLE_LABELS[member.role]}</Badge></td>
                    <td className="px-4 py-3 text-slate-700">{dateTime(member.joinedAt)}</td>
                    <td className="px-4 py-3">
                      <div className="flex flex-wrap justify-end gap-2">
                        <Button requires="manage" refusal={lastOwner(member)} size="sm" variant="secondary" onClick={() => setChanging(member)} aria-label={`Change role of ${member.email}`}>
                          Change role
                        </Button>
                        <ConfirmDialog
                          trigger={<Button requires="manage" refusal={lastOwner(member)} size="sm" variant="secondary" aria-label={`Remove ${member.email}`}>Remove</Button>}
                          title={`Remove ${member.email}?`}
                          consequence={`${member.name} loses access to ${session.publication.name} at once; their open dashboard sessions in it stop working. Other publications they belong to are not affected.`}
                          confirmLabel="Remove member"
                          onConfirm={() => removeMember.mutate(member.id, { onSuccess: () => setSaved(`${member.email} was removed from the team.`) })}
                        />
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </Card>

          <h2 className="pt-4 text-lg font-semibold">Open invitations</h2>
          {team.data.invitations.length === 0 ? (
            <Empty title="No open invitations" action={<Button requires="manage" variant="secondary" onClick={() => setInviting(true)}>Invite someone</Button>} />
          ) : (
            <Card className="p-0">
              <ul>
                {team.data.invitations.map((open) => (
                  <li key={open.id} className="flex flex-wrap items-center justify-between gap-4 border-b border-slate-100 px-4 py-3 text-sm last:border-0">
                    <span className="min-w-0 break-words">
                      <strong>{open.email}</strong> as <Badge>{ROLE_LABELS[open.role]}</Badge>, invited by {open.invitedBy}, valid until {dateTime(open.expiresAt)}
                    </span>
                    <ConfirmDialog
                      trigger={<Button requires="manage" size="sm" variant="secondary" aria-label={`Revoke the invitation of ${open.email}`}>Revoke</Button>}
                      title={`Revoke the invitation of ${open.email}?`}
                      consequence="The link in the email and the one you copied stop working. You can invite them again later."
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
        <Dialog
          open
          onOpenChange={(open) => !open && setInvitation(null)}
          title={`Invitation for ${invitation.email}`}
          description={
            invitation.emailed
              ? `We emailed ${invitation.email} a link to join. You can also pass on this link yourself: it works once, for 7 days, and is shown only now.`
              : `The email could not be sent just now: pass this link on to ${invitation.email} yourself. It works once, for 7 days, and is shown only now.`
          }
        >
          <SecretValue label="Invitation link" value={`${window.location.origin}/dashboard/invitation#token=${invitation.token}`} />
          <div className="mt-6 flex justify-end">
            <Button onClick={() => setInvitation(null)}>Done</Button>
          </div>
        </Dialog>
      )}
      {changing && (
        <RoleDialog
          member={changing}
          publicationName={session.publication.name}
          onClose={() => setChanging(null)}
          onSaved={(member) => {
            setChanging(null);
            setSaved(`Saved: ${member.email} is now ${ROLE_ARTICLE[member.role]} ${ROLE_LABELS[member.role].toLowerCase()}.`);
            refresh();
          }}
        />
      )}
    </>
  );
}

const ROLE_ARTICLE: Record<StaffRole, string> = { admin: 'an', editor: 'an', viewer: 'a' };

/** A role change, confirmed: the member, what the new role may do, and that it applies at their next request. */
function RoleDialog({ member, publicationName, onClose, onSaved }: { member: TeamMemberView; publicationName: string; onClose: () => void; onSaved: (member: TeamMemberView) => void }) {
  const [role, setRole] = useState<StaffRole>(member.role);
  const change = useMutation({ mutationFn: () => api.team.changeRole(member.id, { role }), onSuccess: onSaved });
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={`Change the role of ${member.email}`} description={`Now ${ROLE_LABELS[member.role]} of ${publicationName}. The new role applies to their next click.`}>
      <form
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          change.mutate();
        }}
      >
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium">New role</legend>
          {ROLES.map((option) => (
            <label key={option} className="flex items-start gap-2 text-sm">
              <input type="radio" name="role" value={option} checked={role === option} onChange={() => setRole(option)} className="mt-1 accent-brand" />
              <span>
                <span className="font-medium">{ROLE_LABELS[option]}</span> — {ROLE_HELP[option]}
              </span>
            </label>
          ))}
        </fieldset>
        <FormFooter error={change.error} onCancel={onClose} submitLabel={role === member.role ? 'Keep the role' : `Make ${ROLE_LABELS[role].toLowerCase()}`} pending={change.isPending || role === member.role} />
      </form>
    </Dialog>
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
    <Dialog open onOpenChange={(open) => !open && onClose()} title="Invite someone" description="We email them a link that works once, for 7 days; you can copy it too.">
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
        <FormFooter error={invite.error} onCancel={onClose} submitLabel="Send invitation" pending={invite.isPending} />
      </form>
    </Dialog>
  );
}
