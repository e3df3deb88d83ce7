import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OrganisationView } from '@gatehouse/contracts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { api } from '../api/client';
import { keys, queries } from '../api/queries';
import { Button } from '../components/ui/button';
import { Badge, Card, PageHeader, Table } from '../components/ui/card';
import { ConfirmDialog, Dialog } from '../components/ui/dialog';
import { Field, Input, Select, Textarea } from '../components/ui/field';
import { FormFooter } from '../components/ui/form-footer';
import { Empty, ErrorMessage, Loading } from '../components/ui/states';
import { formatDate } from '../lib/format';
import { showFieldErrors } from '../lib/forms';

/** One entry a line (or separated by commas), blanks dropped. */
const linesOf = (text: string) => text.split(/[\n,]+/).map((line) => line.trim()).filter(Boolean);

function seatsOf(organisation: OrganisationView): string {
  return organisation.seats === null ? `${organisation.seatsUsed} (unlimited)` : `${organisation.seatsUsed} of ${organisation.seats}`;
}

function termOf(organisation: OrganisationView): string {
  return organisation.endsAt ? `${formatDate(organisation.startsAt)} – ${formatDate(organisation.endsAt)}` : `from ${formatDate(organisation.startsAt)}`;
}

/** Organisations (docs/organisations.md): group access by seats, email domains and IP ranges. */
export function OrganisationsScreen() {
  const organisations = useQuery(queries.organisations());
  const products = useQuery(queries.products());
  const [editing, setEditing] = useState<OrganisationView | 'new' | null>(null);
  const productName = (id: string) => products.data?.find((product) => product.id === id)?.name ?? 'a deleted product';
  return (
    <>
      <PageHeader
        title="Organisations"
        description="Universities, libraries and companies buying access for their people: members by invitation or by their email's domain, everyone on their network by IP range."
        actions={<Button requires="edit" onClick={() => setEditing('new')}>New organisation</Button>}
      />
      {organisations.isPending && <Loading what="organisations" />}
      {organisations.error && <ErrorMessage error={organisations.error} onRetry={() => void organisations.refetch()} />}
      {organisations.data?.length === 0 && (
        <Empty title="No organisations yet" action={<Button requires="edit" onClick={() => setEditing('new')}>Create your first organisation</Button>}>
          An organisation entitles its members, and every reader on its network, to a product for a term.
        </Empty>
      )}
      {organisations.data && organisations.data.length > 0 && (
        <Card aria-labelledby="organisations-heading" className="space-y-3">
          <h2 id="organisations-heading" className="text-base font-semibold">Your organisations</h2>
          <Table>
            <caption className="sr-only">Organisations</caption>
            <thead className="bg-slate-50 text-xs uppercase text-slate-600">
              <tr>
                <th scope="col" className="px-2 py-2">Name</th>
                <th scope="col" className="px-2 py-2">Product</th>
                <th scope="col" className="px-2 py-2">Seats used</th>
                <th scope="col" className="px-2 py-2">Term</th>
                <th scope="col" className="px-2 py-2">Domains and networks</th>
                <th scope="col" className="px-2 py-2"><span className="sr-only">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              {organisations.data.map((organisation) => (
                <OrganisationRow key={organisation.id} organisation={organisation} productName={productName(organisation.productId)} onEdit={() => setEditing(organisation)} />
              ))}
            </tbody>
          </Table>
        </Card>
      )}
      {editing && <OrganisationDialog organisation={editing === 'new' ? null : editing} products={products.data ?? []} onClose={() => setEditing(null)} />}
    </>
  );
}

function OrganisationRow({ organisation, productName, onEdit }: { organisation: OrganisationView; productName: string; onEdit: () => void }) {
  const queryClient = useQueryClient();
  const [showSeats, setShowSeats] = useState(false);
  const [showStats, setShowStats] = useState(false);
  const remove = useMutation({
    mutationFn: () => api.organisations.remove(organisation.id),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: keys.organisations.all }),
  });
  const ended = organisation.endsAt !== null && Date.parse(organisation.endsAt) <= Date.now();
  return (
    <tr className="border-t border-slate-100 align-top">
      <td className="px-2 py-2">
        {organisation.name} {ended && <Badge>ended</Badge>}
      </td>
      <td className="px-2 py-2">{productName}</td>
      <td className="px-2 py-2">{seatsOf(organisation)}</td>
      <td className="px-2 py-2 text-xs">{termOf(organisation)}</td>
      <td className="px-2 py-2 text-xs">
        {[...organisation.domains.map((domain) => `@${domain}`), ...organisation.ipRanges].join(', ') || '—'}
      </td>
      <td className="px-2 py-2 text-right">
        <div className="flex justify-end gap-1">
          <Button size="sm" variant="secondary" onClick={() => setShowSeats(!showSeats)} aria-expanded={showSeats} aria-label={`Members of ${organisation.name}`}>
            Members
          </Button>
          <Button size="sm" variant="secondary" onClick={() => setShowStats(!showStats)} aria-expanded={showStats} aria-label={`Stats of ${organisation.name}`}>
            Stats
          </Button>
          <Button requires="edit" size="sm" variant="secondary" onClick={onEdit} aria-label={`Edit ${organisation.name}`}>
            Edit
          </Button>
          <ConfirmDialog
            trigger={<Button requires="edit" size="sm" variant="secondary" aria-label={`Delete ${organisation.name}`}>Delete</Button>}
            title={`Delete ${organisation.name}?`}
            consequence="Its members and everyone on its networks lose access at their next page view."
            confirmLabel="Delete organisation"
            onConfirm={() => remove.mutate()}
          />
        </div>
        {showStats && <OrganisationStatsPanel organisationId={organisation.id} name={organisation.name} />}
        {showSeats && <Seats organisationId={organisation.id} />}
        <ErrorMessage error={remove.error} />
      </td>
    </tr>
  );
}

const count = (n: number, one: string, many: string) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

/** The ranges the stats offer, in days. */
const STATS_RANGES = [7, 30, 90, 365] as const;

/** What the organisation gave in the chosen range (30 days first): its readers, its reads (by seat, by network) and its seats. */
function OrganisationStatsPanel({ organisationId, name }: { organisationId: string; name: string }) {
  const [days, setDays] = useState<number>(30);
  const stats = useQuery(queries.organisationStats(organisationId, days));
  return (
    <div className="mt-2 space-y-2 text-left text-sm">
      <Field label={`Range of the stats of ${name}`}>
        {(control) => (
          <Select {...control} className="w-auto" value={days} onChange={(event) => setDays(Number(event.target.value))}>
            {STATS_RANGES.map((range) => (
              <option key={range} value={range}>
                Last {range} days
              </option>
            ))}
          </Select>
        )}
      </Field>
      {stats.isPending ? (
        <Loading what="the stats" />
      ) : stats.error ? (
        <ErrorMessage error={stats.error} onRetry={() => void stats.refetch()} />
      ) : (
        <dl aria-label={`Stats of ${name}, last ${days} days`} className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
          <dt className="text-slate-600">Readers ({days} days)</dt>
          <dd>{count(stats.data.readers.granted, 'reader', 'readers')}</dd>
          <dt className="text-slate-600">Reads ({days} days)</dt>
          <dd>
            {count(stats.data.reads.total, 'read', 'reads')}{' '}
            <span className="text-xs text-slate-600">
              ({stats.data.reads.bySeat.toLocaleString('en')} by seat, {stats.data.reads.byNetwork.toLocaleString('en')} on its networks)
            </span>
          </dd>
          <dt className="text-slate-600">Seats used</dt>
          <dd>{stats.data.seats === null ? `${count(stats.data.seatsUsed, 'member', 'members')} (unlimited)` : `${stats.data.seatsUsed} of ${stats.data.seats}`}</dd>
        </dl>
      )}
    </div>
  );
}

/** Who holds a seat and who is invited; staff invite and remove as a manager does. */
function Seats({ organisationId }: { organisationId: string }) {
  const queryClient = useQueryClient();
  const seats = useQuery(queries.organisationSeats(organisationId));
  const [email, setEmail] = useState('');
  const refresh = () => void queryClient.invalidateQueries({ queryKey: keys.organisations.all });
  const invite = useMutation({ mutationFn: () => api.organisations.invite(organisationId, email), onSuccess: () => setEmail(''), onSettled: refresh });
  const removeMember = useMutation({ mutationFn: (customerId: string) => api.organisations.removeMember(organisationId, customerId), onSettled: refresh });
  const cancel = useMutation({ mutationFn: (invitationId: string) => api.organisations.cancelInvitation(organisationId, invitationId), onSettled: refresh });
  if (seats.isPending) return <Loading what="the members" />;
  if (seats.error) return <ErrorMessage error={seats.error} />;
  return (
    <div className="mt-2 space-y-2 text-left text-sm">
      <ul aria-label="Members">
        {seats.data.members.length === 0 && seats.data.invitations.length === 0 && <li className="text-slate-600">No members yet.</li>}
        {seats.data.members.map((member) => (
          <li key={member.customerId} className="flex items-center justify-between gap-2">
            <span>
              {member.email} <span className="text-xs text-slate-600">({member.via === 'domain' ? 'by domain' : 'invited'}, since {formatDate(member.joinedAt)})</span>
            </span>
            <Button requires="edit" size="sm" variant="secondary" onClick={() => removeMember.mutate(member.customerId)} aria-label={`Remove ${member.email}`}>
              Remove
            </Button>
          </li>
        ))}
        {seats.data.invitations.map((invitation) => (
          <li key={invitation.id} className="flex items-center justify-between gap-2">
            <span>
              {invitation.email} <Badge tone="warn">invited</Badge>
            </span>
            <Button requires="edit" size="sm" variant="secondary" onClick={() => cancel.mutate(invitation.id)} aria-label={`Withdraw the invitation of ${invitation.email}`}>
              Withdraw
            </Button>
          </li>
        ))}
      </ul>
      <form
        className="flex items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          invite.mutate();
        }}
      >
        <Field label="Invite by email">{(control) => <Input type="email" value={email} onChange={(event) => setEmail(event.target.value)} {...control} />}</Field>
        <Button requires="edit" type="submit" size="sm" disabled={invite.isPending || !email}>
          Invite
        </Button>
      </form>
      <ErrorMessage error={invite.error ?? removeMember.error ?? cancel.error} />
    </div>
  );
}

const organisationSchema = z.object({
  name: z.string().trim().min(1, 'Name the organisation: readers see it.').max(100),
  productId: z.string().min(1, 'Choose the product it gives access to.'),
  seats: z.string().regex(/^\d*$/, 'A whole number, or empty for unlimited.'),
  endsAt: z.string(),
  domains: z.string(),
  ipRanges: z.string(),
  allowReservedRanges: z.boolean(),
  managerEmails: z.string(),
});
type OrganisationForm = z.infer<typeof organisationSchema>;

/** Managers are customers: the emails typed are looked up, each must be one. */
async function managerIdsOf(emails: string[]): Promise<string[]> {
  return Promise.all(
    emails.map(async (email) => {
      const found = (await api.customers.find(email.toLowerCase())).find((customer) => customer.email === email.toLowerCase());
      if (!found) throw new ManagerUnknown(email);
      return found.id;
    }),
  );
}

class ManagerUnknown extends Error {
  constructor(readonly email: string) {
    super(`${email} is not a customer of this publication.`);
  }
}

function OrganisationDialog({ organisation, products, onClose }: { organisation: OrganisationView | null; products: Array<{ id: string; name: string }>; onClose: () => void }) {
  const queryClient = useQueryClient();
  const managers = useQuery({
    queryKey: [...keys.customers.all, 'managers', organisation?.id],
    queryFn: async () => (await api.customers.find('')).filter((customer) => organisation?.managerIds.includes(customer.id)).map((customer) => customer.email),
    enabled: Boolean(organisation && organisation.managerIds.length > 0),
  });
  const form = useForm<OrganisationForm>({
    resolver: zodResolver(organisationSchema),
    values: {
      name: organisation?.name ?? '',
      productId: organisation?.productId ?? products[0]?.id ?? '',
      seats: organisation?.seats?.toString() ?? '',
      endsAt: organisation?.endsAt?.slice(0, 10) ?? '',
      domains: organisation?.domains.join('\n') ?? '',
      ipRanges: organisation?.ipRanges.join('\n') ?? '',
      allowReservedRanges: organisation?.allowReservedRanges ?? false,
      managerEmails: managers.data?.join('\n') ?? '',
    },
  });
  const save = useMutation({
    mutationFn: async (v: OrganisationForm) => {
      const body = {
        name: v.name,
        productId: v.productId,
        seats: v.seats ? Number(v.seats) : null,
        endsAt: v.endsAt ? new Date(`${v.endsAt}T00:00:00.000Z`).toISOString() : null,
        domains: linesOf(v.domains),
        ipRanges: linesOf(v.ipRanges),
        allowReservedRanges: v.allowReservedRanges,
        managerIds: await managerIdsOf(linesOf(v.managerEmails)),
      };
      return organisation ? api.organisations.update(organisation.id, body) : api.organisations.create(body);
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: keys.organisations.all });
      onClose();
    },
    onError: (error) => {
      if (error instanceof ManagerUnknown) form.setError('managerEmails', { message: error.message }, { shouldFocus: true });
      else showFieldErrors(form, error);
    },
  });
  const e = form.formState.errors;
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={organisation ? `Edit ${organisation.name}` : 'New organisation'}>
      <form className="space-y-4" onSubmit={form.handleSubmit((v) => save.mutate(v))} noValidate>
        <div className="grid gap-3 sm:grid-cols-2">
          <Field label="Name" hint='Readers see "Access provided by" it.' error={e.name?.message}>{(control) => <Input {...control} {...form.register('name')} />}</Field>
          <Field label="Product" error={e.productId?.message}>
            {(control) => (
              <Select {...control} {...form.register('productId')}>
                {products.map((product) => (
                  <option key={product.id} value={product.id}>{product.name}</option>
                ))}
              </Select>
            )}
          </Field>
          <Field label="Seats (empty: unlimited)" error={e.seats?.message}>{(control) => <Input inputMode="numeric" {...control} {...form.register('seats')} />}</Field>
          <Field label="Ends (optional)" error={e.endsAt?.message}>{(control) => <Input type="date" {...control} {...form.register('endsAt')} />}</Field>
        </div>
        <Field label="Email domains" hint="One a line: a reader whose verified email is at one joins while seats are free." error={e.domains?.message}>
          {(control) => <Textarea rows={2} placeholder="acme.edu" {...control} {...form.register('domains')} />}
        </Field>
        <Field label="IP ranges" hint="One CIDR range a line, IPv4 or IPv6: everyone on them reads, signed in or not." error={e.ipRanges?.message}>
          {(control) => <Textarea rows={3} placeholder={'81.2.69.0/24\n2a02:1234::/32'} className="font-mono" {...control} {...form.register('ipRanges')} />}
        </Field>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" className="accent-brand" {...form.register('allowReservedRanges')} /> Allow private and reserved ranges (an intranet behind your own proxy)
        </label>
        <Field label="Managers" hint="Customers' emails, one a line: they invite and remove members on your site." error={e.managerEmails?.message}>
          {(control) => <Textarea rows={2} {...control} {...form.register('managerEmails')} />}
        </Field>
        <FormFooter error={save.error instanceof ManagerUnknown ? null : save.error} onCancel={onClose} submitLabel={organisation ? 'Save organisation' : 'Create organisation'} pending={save.isPending} />
      </form>
    </Dialog>
  );
}
