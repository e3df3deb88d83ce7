import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import type { MembershipView } from '@gatehouse/contracts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { api } from '../api/client';
import { keys, queries } from '../api/queries';
import { ROLE_LABELS, sessionSwitched } from '../api/session';
import { Button } from '../components/ui/button';
import { Badge, Card, PageHeader, Table } from '../components/ui/card';
import { Dialog } from '../components/ui/dialog';
import { Field, Input, Textarea } from '../components/ui/field';
import { Toggle } from '../components/ui/toggle';
import { CopyValue, Empty, ErrorMessage, Loading, Notice } from '../components/ui/states';
import { showFieldErrors } from '../lib/forms';
import { FormFooter } from '../components/ui/form-footer';

/** As the gateway checks it: a host name, or `*.` and a host name for every subdomain. */
const HOST = /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

const publicationSchema = z.object({
  name: z.string().trim().min(1, 'Give the publication a name.').max(200, 'At most 200 characters.'),
  domains: z
    .string()
    .transform((text) => text.split(/[\s,]+/).map((domain) => domain.trim().toLowerCase()).filter(Boolean))
    .pipe(
      z
        .array(z.string())
        .min(1, 'Add at least one domain.')
        .max(50, 'At most 50 domains.')
        .refine((domains) => domains.every((domain) => HOST.test(domain)), 'Each domain must be a host name such as example.com or *.example.com.'),
    ),
  selfRegistration: z.boolean(),
});
type PublicationInput = z.input<typeof publicationSchema>;
type PublicationOutput = z.output<typeof publicationSchema>;

export function PublicationsScreen() {
  const publications = useQuery(queries.publications());
  const [editing, setEditing] = useState<MembershipView | 'new' | null>(null);
  const [proving, setProving] = useState<MembershipView | null>(null);
  const [saved, setSaved] = useState<string | null>(null);

  return (
    <>
      <PageHeader
        title="Publications"
        description="Each publication has its own domains, keys, paywalls and customers. Domains may use a wildcard: *.example.com covers every subdomain."
        actions={<Button onClick={() => setEditing('new')}>New publication</Button>}
      />
      {saved && <Notice>{saved}</Notice>}
      {publications.isPending && <Loading what="publications" />}
      {publications.error && <ErrorMessage error={publications.error} onRetry={() => void publications.refetch()} />}
      {publications.data?.length === 0 && (
        <Empty title="No publications yet" action={<Button onClick={() => setEditing('new')}>Create your first publication</Button>}>
          A publication is the site whose content you gate.
        </Empty>
      )}
      {publications.data && publications.data.length > 0 && (
        <Card className="p-0">
          <Table>
            <caption className="sr-only">Your publications</caption>
            <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase text-slate-600">
              <tr>
                <th scope="col" className="px-4 py-2">Name</th>
                <th scope="col" className="px-4 py-2">Domains</th>
                <th scope="col" className="px-4 py-2">Your role</th>
                <th scope="col" className="px-4 py-2"><span className="sr-only">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              {publications.data.map((publication) => (
                <tr key={publication.id} className="border-b border-slate-100 last:border-0">
                  <td className="px-4 py-3 font-medium">{publication.name}</td>
                  <td className="px-4 py-3 font-mono text-xs">
                    <div>{publication.domains.join(', ')}</div>
                    <UnverifiedDomains publication={publication} />
                  </td>
                  <td className="px-4 py-3"><Badge>{ROLE_LABELS[publication.role]}</Badge></td>
                  <td className="space-x-2 whitespace-nowrap px-4 py-3 text-right">
                    <Button
                      size="sm"
                      variant="secondary"
                      refusal={publication.role === 'admin' ? null : `Only owners of ${publication.name} prove its domains.`}
                      onClick={() => setProving(publication)}
                      aria-label={`Verify domains of ${publication.name}`}
                    >
                      Verify domains
                    </Button>
                    <Button
                      size="sm"
                      variant="secondary"
                      refusal={publication.role === 'admin' ? null : `Only owners of ${publication.name} change its name and domains; you are ${publication.role === 'editor' ? 'an editor' : 'a viewer'}.`}
                      onClick={() => setEditing(publication)}
                      aria-label={`Edit ${publication.name}`}
                    >
                      Edit
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        </Card>
      )}
      {proving && <DomainProofsDialog publication={proving} onClose={() => setProving(null)} />}
      {editing && (
        <PublicationDialog
          publication={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(publication) => {
            setEditing(null);
            setSaved(`${publication.name} was saved.`);
          }}
        />
      )}
    </>
  );
}

function PublicationDialog({
  publication,
  onClose,
  onSaved,
}: {
  publication: MembershipView | null;
  onClose: () => void;
  /** An edit saved; a new publication instead becomes the current one and opens its home screen. */
  onSaved: (publication: MembershipView) => void;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const form = useForm<PublicationInput, unknown, PublicationOutput>({
    resolver: zodResolver(publicationSchema),
    defaultValues: { name: publication?.name ?? '', domains: publication?.domains.join('\n') ?? '', selfRegistration: publication?.selfRegistration ?? true },
  });
  const save = useMutation({
    // A new publication becomes the current one: what the creator does next is for it.
    mutationFn: async ({ selfRegistration, ...draft }: PublicationOutput) => {
      if (publication) return { saved: await api.publications.update(publication.id, { ...draft, selfRegistration }), session: null };
      const created = await api.publications.create(draft);
      return { saved: created, session: await api.session.switchPublication(created.id) };
    },
    onSuccess: ({ saved, session }) => {
      if (session) {
        sessionSwitched(queryClient, session);
        void navigate({ to: '/' });
        return;
      }
      void queryClient.invalidateQueries({ queryKey: keys.publications.all });
      void queryClient.invalidateQueries({ queryKey: keys.session });
      onSaved(saved);
    },
    onError: (error) => showFieldErrors(form, error),
  });
  const errors = form.formState.errors;

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={publication ? `Edit ${publication.name}` : 'New publication'}>
      <form className="space-y-4" onSubmit={form.handleSubmit((values) => save.mutate(values))} noValidate>
        <Field label="Name" error={errors.name?.message}>
          {(control) => <Input {...control} {...form.register('name')} />}
        </Field>
        <Field label="Domains" hint="One per line or separated by commas, e.g. example.com and *.example.com." error={errors.domains?.message}>
          {(control) => <Textarea rows={4} className="font-mono" {...control} {...form.register('domains')} />}
        </Field>
        {publication && (
          <Toggle
            checked={form.watch('selfRegistration')}
            onCheckedChange={(on) => form.setValue('selfRegistration', on, { shouldDirty: true })}
            label="Readers may create their own accounts"
          >
            Readers may create their own accounts (existing readers can always sign in)
          </Toggle>
        )}
        <FormFooter error={save.error} onCancel={onClose} submitLabel={publication ? 'Save' : 'Create publication'} pending={save.isPending} />
      </form>
    </Dialog>
  );
}

function UnverifiedDomains({ publication }: { publication: MembershipView }) {
  const unverified = publication.domains.filter((domain) => !publication.verifiedDomains.includes(domain));
  if (unverified.length === 0) return null;
  return (
    <div className="mt-1 font-sans">
      <Badge tone="warn">{unverified.length === 1 ? '1 domain not verified' : `${unverified.length} domains not verified`}</Badge>
    </div>
  );
}

/**
 * Account email links (verification, password reset, sign-in) lead only to domains the owner
 * proved: a DNS TXT record or a well-known file holding the domain's token (docs/admin.md).
 */
function DomainProofsDialog({ publication, onClose }: { publication: MembershipView; onClose: () => void }) {
  const queryClient = useQueryClient();
  const proofs = useQuery(queries.domainProofs(publication.id));
  const verify = useMutation({
    mutationFn: (domain: string) => api.publications.verifyDomain(publication.id, domain),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: keys.publications.all }),
  });

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={`Verify the domains of ${publication.name}`}>
      <p className="text-sm text-slate-600">
        Account email links lead only to verified domains; a link for any other page leads to the first verified one. Publish a domain’s token as a DNS TXT
        record or as a line of the file, then verify. A wildcard (*.example.com) is proven on example.com. Local hosts need no proof.
      </p>
      {proofs.isPending && <Loading what="domains" />}
      {proofs.error && <ErrorMessage error={proofs.error} onRetry={() => void proofs.refetch()} />}
      {verify.error && <ErrorMessage error={verify.error} />}
      <ul className="mt-4 space-y-4">
        {proofs.data?.map((proof) => (
          <li key={proof.domain} className="space-y-2 rounded-md border border-slate-200 p-3" aria-label={proof.domain}>
            <div className="flex items-center justify-between gap-2">
              <span className="font-mono text-sm">{proof.domain}</span>
              {proof.verified ? (
                <Badge tone="good">{proof.verifiedAt ? `verified ${new Date(proof.verifiedAt).toLocaleDateString()}` : 'local, no proof needed'}</Badge>
              ) : (
                <Button size="sm" onClick={() => verify.mutate(proof.domain)} disabled={verify.isPending} aria-label={`Verify ${proof.domain}`}>
                  Verify
                </Button>
              )}
            </div>
            {!proof.verified && (
              <>
                <CopyValue label={`TXT record ${proof.txtRecord}`} value={proof.token} />
                <CopyValue label={`or the file ${proof.fileUrl}`} value={proof.token} />
              </>
            )}
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
