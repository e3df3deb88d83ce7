import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiKeyView, CreatedApiKeyPair } from '@gatehouse/contracts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { api } from '../api/client';
import { keys, queries } from '../api/queries';
import { Button } from '../components/ui/button';
import { Badge, Card, PageHeader, Table } from '../components/ui/card';
import { ConfirmDialog, Dialog } from '../components/ui/dialog';
import { Field, Input } from '../components/ui/field';
import { CopyValue, Empty, ErrorMessage, Loading, SecretValue } from '../components/ui/states';
import { pageSnippet } from '../lib/snippet';
import { showFieldErrors } from '../lib/forms';
import { FormFooter } from '../components/ui/form-footer';
import { formatDateTime } from '../lib/format';

const pairSchema = z.object({
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, '1 to 64 letters, digits, _ . or -, starting with a letter or digit.'),
});
type PairValues = z.infer<typeof pairSchema>;

const KIND_USE = {
  publishable: 'Browser code on your site stops passing access checks, sending events and signing readers in with it.',
  secret: 'Your servers stop looking up subscriptions, creating checkouts and portal sessions, and cancelling with it.',
};

const date = formatDateTime;

/** Spec 2.1: the download a publisher drops next to their server code. */
function envFileOf(pair: CreatedApiKeyPair): string {
  return `SERVICE_PUBLISHABLE_KEY=${pair.publishableKey}\nSERVICE_SECRET_KEY=${pair.secretKey}\n`;
}

export function ApiKeysScreen() {
  const queryClient = useQueryClient();
  const list = useQuery(queries.apiKeys());
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiKeyPair | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: keys.apiKeys.all });
  const revokePair = useMutation({ mutationFn: api.apiKeys.revokePair, onSettled: refresh });
  const revokeKey = useMutation({ mutationFn: api.apiKeys.revokeKey, onSettled: refresh });
  const pairs = groupByName(list.data ?? []);

  return (
    <>
      <PageHeader
        title="API keys"
        description="A pair is a publishable key (pk_, for browser code) and a secret key (sk_, for your servers). Keys are shown once, when created."
        actions={<Button requires="edit" onClick={() => setCreating(true)}>Create key pair</Button>}
      />
      <ErrorMessage error={revokePair.error ?? revokeKey.error} />
      {list.isPending && <Loading what="API keys" />}
      {list.error && <ErrorMessage error={list.error} onRetry={() => void list.refetch()} />}
      {list.data?.length === 0 && (
        <Empty title="No API keys yet" action={<Button requires="edit" onClick={() => setCreating(true)}>Create your first key pair</Button>}>
          Your site and your servers need a key pair to talk to Gatehouse.
        </Empty>
      )}
      {pairs.map(([name, pairKeys]) => {
        const live = pairKeys.filter((key) => !key.revokedAt);
        return (
          <Card key={name} aria-labelledby={`pair-${name}`} className="p-0">
            <div className="flex items-center justify-between border-b border-slate-200 px-4 py-3">
              <h2 id={`pair-${name}`} className="font-semibold">{name}</h2>
              {live.length > 0 && (
                <ConfirmDialog
                  trigger={<Button requires="edit" size="sm" variant="danger" aria-label={`Revoke pair ${name}`}>Revoke pair</Button>}
                  title={`Revoke both keys of ${name}?`}
                  consequence={`Both keys stop working at once, for good. ${KIND_USE.publishable} ${KIND_USE.secret} The name ${name} cannot be used again.`}
                  confirmLabel="Revoke both keys"
                  onConfirm={() => revokePair.mutate(name)}
                />
              )}
            </div>
            <Table>
              <caption className="sr-only">Keys of {name}</caption>
              <thead className="bg-slate-50 text-xs uppercase text-slate-600">
                <tr>
                  <th scope="col" className="px-4 py-2">Key</th>
                  <th scope="col" className="px-4 py-2">Created</th>
                  <th scope="col" className="px-4 py-2">Last used</th>
                  <th scope="col" className="px-4 py-2">Status</th>
                  <th scope="col" className="px-4 py-2"><span className="sr-only">Actions</span></th>
                </tr>
              </thead>
              <tbody>
                {pairKeys.map((key) => (
                  <tr key={key.id} className="border-t border-slate-100">
                    <td className="px-4 py-3">
                      <span className="font-mono text-xs">{key.prefix}…</span> <span className="text-slate-600">({key.kind})</span>
                    </td>
                    <td className="px-4 py-3">{date(key.createdAt)}</td>
                    <td className="px-4 py-3">{key.lastUsedAt ? date(key.lastUsedAt) : 'Never'}</td>
                    <td className="px-4 py-3">{key.revokedAt ? <Badge tone="bad">Revoked {date(key.revokedAt)}</Badge> : <Badge tone="good">Active</Badge>}</td>
                    <td className="px-4 py-3 text-right">
                      {!key.revokedAt && (
                        <ConfirmDialog
                          trigger={<Button requires="edit" size="sm" variant="secondary" aria-label={`Revoke ${key.kind} key of ${name}`}>Revoke</Button>}
                          title={`Revoke the ${key.kind} key ${key.prefix}…?`}
                          consequence={`${KIND_USE[key.kind]} This is immediate and cannot be undone. The other key of the pair keeps working.`}
                          confirmLabel={`Revoke ${key.kind} key`}
                          onConfirm={() => revokeKey.mutate(key.id)}
                        />
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </Table>
            {live.some((key) => key.kind === 'publishable') && <PairSnippet name={name} publishable={live.find((key) => key.kind === 'publishable') as ApiKeyView} />}
          </Card>
        );
      })}
      {creating && <CreatePairDialog onClose={() => setCreating(false)} onCreated={(pair) => { setCreating(false); setCreated(pair); refresh(); }} />}
      {created && (
        <Dialog open onOpenChange={(open) => !open && setCreated(null)} title={`Key pair ${created.name}`} description="Copy both keys now: they are never shown again.">
          <div className="space-y-4">
            <SecretValue label="Publishable key" value={created.publishableKey} />
            <SecretValue label="Secret key" value={created.secretKey} />
            <p className="text-sm text-slate-600">The publishable key stays readable on this screen, with the snippet for your pages; the secret key does not.</p>
          </div>
          <div className="mt-6 flex flex-wrap justify-between gap-2">
            <Button variant="secondary" asChild>
              <a href={`data:text/plain;charset=utf-8,${encodeURIComponent(envFileOf(created))}`} download={`service-${created.name}.env`}>
                Download service-{created.name}.env
              </a>
            </Button>
            <Button onClick={() => setCreated(null)}>I have saved them</Button>
          </div>
        </Dialog>
      )}
    </>
  );
}

/** The pair's publishable key (public, so always readable) and the snippet to paste into pages with it filled in. */
function PairSnippet({ name, publishable }: { name: string; publishable: ApiKeyView }) {
  return (
    <div className="space-y-3 border-t border-slate-200 px-4 py-3">
      {publishable.publishableKey ? (
        <>
          <CopyValue label={`Publishable key of ${name}`} value={publishable.publishableKey} />
          <CopyValue label={`Snippet for your pages (${name})`} value={pageSnippet(publishable.publishableKey)} multiline />
          <p className="text-xs text-slate-600">
            Paste it into the pages you gate: the content lock shows the article to readers with access and the offer to the others. The home screen ticks “Put the snippet on a page” at the first access check with this key.
          </p>
        </>
      ) : (
        <p className="text-sm text-slate-600">
          This publishable key was made before Gatehouse kept publishable keys readable: its snippet needs the key saved when it was created, or create a new pair.
        </p>
      )}
    </div>
  );
}

/** Pairs by name, newest first as listed; a pair's publishable key before its secret key. */
function groupByName(keys: ApiKeyView[]): Array<[string, ApiKeyView[]]> {
  const pairs = new Map<string, ApiKeyView[]>();
  for (const key of keys) pairs.set(key.name, [...(pairs.get(key.name) ?? []), key]);
  return [...pairs];
}

function CreatePairDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (pair: CreatedApiKeyPair) => void }) {
  const form = useForm<PairValues>({ resolver: zodResolver(pairSchema), defaultValues: { name: '' } });
  const create = useMutation({ mutationFn: (values: PairValues) => api.apiKeys.createPair(values.name), onSuccess: onCreated, onError: (error) => showFieldErrors(form, error) });
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title="Create a key pair" description="Name it after where it is used, e.g. production-site. A name is never reused, even after revocation.">
      <form className="space-y-4" onSubmit={form.handleSubmit((values) => create.mutate(values))} noValidate>
        <Field label="Name" error={form.formState.errors.name?.message}>
          {(control) => <Input {...control} {...form.register('name')} />}
        </Field>
        <FormFooter error={create.error} onCancel={onClose} submitLabel={'Create key pair'} pending={create.isPending} />
      </form>
    </Dialog>
  );
}
