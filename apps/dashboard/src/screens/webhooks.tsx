import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreatedWebhook, OutboundEventName, WebhookWithDeliveries } from '@gatehouse/contracts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { api, type BodyOf } from '../api/client';
import { keys, queries } from '../api/queries';

type WebhookBody = BodyOf<'/api/v1/admin/webhooks', 'post'>;
import { Button } from '../components/ui/button';
import { Badge, Card, PageHeader, Table } from '../components/ui/card';
import { ConfirmDialog, Dialog } from '../components/ui/dialog';
import { Field, Input } from '../components/ui/field';
import { Empty, ErrorMessage, Loading, Notice, SecretValue } from '../components/ui/states';
import { showFieldErrors } from '../lib/forms';
import { FormFooter } from '../components/ui/form-footer';

/** The events of spec 6.2 as a publisher thinks of them (the browser test checks that every event is here). */
const EVENT_GROUPS = {
  Subscriptions: ['subscription.created', 'subscription.updated', 'subscription.cancelled', 'subscription.trial_ended', 'subscription.paused', 'subscription.resumed'],
  Invoices: ['invoice.paid', 'invoice.payment_failed', 'invoice.upcoming'],
  Customers: ['customer.created', 'customer.verified', 'customer.updated', 'customer.deleted'],
  Paywalls: ['paywall.shown', 'paywall.dismissed', 'paywall.converted'],
  Experiments: ['experiment.assigned', 'experiment.converted'],
  'Newsletter and data walls': ['newsletter.subscribe', 'data.submit'],
  'Shared articles': ['share.created', 'share.opened'],
  'Passes and single articles': ['pass.purchased', 'article.purchased'],
  Gifts: ['gift.purchased', 'gift.redeemed'],
  Organisations: [
    'organisation.created',
    'organisation.updated',
    'organisation.deleted',
    'organisation.member_invited',
    'organisation.member_joined',
    'organisation.member_removed',
  ],
} as const satisfies Record<string, readonly OutboundEventName[]>;

const webhookSchema = z.object({
  url: z.url({ protocol: /^https?$/, message: 'Enter the full address, starting with https://' }),
  events: z.array(z.string()).min(1, 'Choose at least one event.'),
  description: z.string().max(500, 'At most 500 characters.'),
});
type WebhookValues = z.infer<typeof webhookSchema>;

const time = (iso: string | null) => (iso ? new Date(iso).toLocaleString('en-GB', { dateStyle: 'short', timeStyle: 'medium' }) : '—');

export function WebhooksScreen() {
  const queryClient = useQueryClient();
  const webhooks = useQuery({
    ...queries.webhooks(),
    // While an attempt is pending, its outcome is a few seconds away.
    refetchInterval: (query) => (query.state.data?.some((w) => w.deliveries.some((d) => d.status === 'pending')) ? 2_000 : false),
  });
  const [editing, setEditing] = useState<WebhookWithDeliveries | 'new' | null>(null);
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: keys.webhooks.all });

  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Gatehouse posts the events you choose to your endpoints, signed with X-Service-Signature. Failed deliveries are retried 10 s and 60 s later."
        actions={<Button requires="edit" onClick={() => setEditing('new')}>Add webhook</Button>}
      />
      {webhooks.isPending && <Loading what="webhooks" />}
      {webhooks.error && <ErrorMessage error={webhooks.error} onRetry={() => void webhooks.refetch()} />}
      {webhooks.data?.length === 0 && (
        <Empty title="No webhooks yet" action={<Button requires="edit" onClick={() => setEditing('new')}>Add your first webhook</Button>}>
          Tell your systems when subscriptions start or end, customers change or paywalls convert.
        </Empty>
      )}
      {webhooks.data?.map((webhook) => <WebhookCard key={webhook.id} webhook={webhook} onEdit={() => setEditing(webhook)} onChanged={refresh} />)}
      {editing && (
        <WebhookDialog
          webhook={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(saved) => {
            setEditing(null);
            if ('secret' in saved) setCreated(saved as CreatedWebhook);
            refresh();
          }}
        />
      )}
      {created && (
        <Dialog open onOpenChange={(open) => !open && setCreated(null)} title="Webhook created" description="Copy the signing secret now: it is never shown again. Your endpoint checks each delivery's signature with it.">
          <SecretValue label="Signing secret" value={created.secret} />
          <div className="mt-6 flex justify-end">
            <Button onClick={() => setCreated(null)}>I have saved it</Button>
          </div>
        </Dialog>
      )}
    </>
  );
}

function WebhookCard({ webhook, onEdit, onChanged }: { webhook: WebhookWithDeliveries; onEdit: () => void; onChanged: () => void }) {
  const [notice, setNotice] = useState<string | null>(null);
  const sendTest = useMutation({ mutationFn: () => api.webhooks.sendTest(webhook.id), onSuccess: () => setNotice('A test event is on its way.'), onSettled: onChanged });
  const redeliver = useMutation({ mutationFn: (deliveryId: string) => api.webhooks.redeliver(webhook.id, deliveryId), onSuccess: () => setNotice('Redelivery scheduled.'), onSettled: onChanged });
  const remove = useMutation({ mutationFn: () => api.webhooks.remove(webhook.id), onSettled: onChanged });
  const headingId = `webhook-${webhook.id}`;

  return (
    <Card aria-labelledby={headingId} className="space-y-3">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id={headingId} className="break-all font-mono text-sm font-semibold">{webhook.url}</h2>
          {webhook.description && <p className="text-sm text-slate-600">{webhook.description}</p>}
          <div className="mt-2 flex flex-wrap gap-1">
            {webhook.events.map((event) => <Badge key={event}>{event}</Badge>)}
          </div>
        </div>
        <div className="flex gap-2">
          <Button requires="edit" size="sm" variant="secondary" onClick={() => sendTest.mutate()} disabled={sendTest.isPending}>Send test event</Button>
          <Button requires="edit" size="sm" variant="secondary" onClick={onEdit}>Edit</Button>
          <ConfirmDialog
            trigger={<Button requires="edit" size="sm" variant="danger">Delete</Button>}
            title="Delete this webhook?"
            consequence={`Nothing more is sent to ${webhook.url}, pending retries included, and its delivery log is removed.`}
            confirmLabel="Delete webhook"
            onConfirm={() => remove.mutate()}
          />
        </div>
      </div>
      {notice && <Notice>{notice}</Notice>}
      <ErrorMessage error={sendTest.error ?? redeliver.error ?? remove.error} />
      {webhook.deliveries.length === 0 ? (
        <p className="text-sm text-slate-600">No deliveries yet. Send a test event to check your endpoint.</p>
      ) : (
        <Table>
          <caption className="sr-only">Delivery log of {webhook.url}</caption>
          <thead className="bg-slate-50 text-xs uppercase text-slate-600">
            <tr>
              <th scope="col" className="px-2 py-2">Event</th>
              <th scope="col" className="px-2 py-2">Status</th>
              <th scope="col" className="px-2 py-2">Attempt</th>
              <th scope="col" className="px-2 py-2">Response</th>
              <th scope="col" className="px-2 py-2">Duration</th>
              <th scope="col" className="px-2 py-2">When</th>
              <th scope="col" className="px-2 py-2"><span className="sr-only">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            {webhook.deliveries.map((delivery) => (
              <tr key={`${delivery.id}-${delivery.attempt}`} className="border-t border-slate-100 align-top" data-delivery={delivery.id}>
                <td className="px-2 py-2 font-mono text-xs">{delivery.event}</td>
                <td className="px-2 py-2">
                  <Badge tone={delivery.status === 'succeeded' ? 'good' : delivery.status === 'failed' ? 'bad' : 'warn'}>{delivery.status}</Badge>
                </td>
                <td className="px-2 py-2">{delivery.attempt}</td>
                <td className="px-2 py-2">
                  {delivery.responseCode ?? '—'}{' '}
                  {(delivery.responseBody || delivery.error) && (
                    <span className="block max-w-xs truncate font-mono text-xs text-slate-600" title={delivery.responseBody ?? delivery.error ?? ''}>
                      {(delivery.responseBody ?? delivery.error ?? '').slice(0, 120)}
                    </span>
                  )}
                </td>
                <td className="px-2 py-2">{delivery.durationMs === null ? '—' : `${delivery.durationMs} ms`}</td>
                <td className="px-2 py-2">{time(delivery.attemptedAt ?? delivery.dueAt)}</td>
                <td className="px-2 py-2 text-right">
                  {delivery.status !== 'pending' && (
                    <Button requires="edit" size="sm" variant="ghost" onClick={() => redeliver.mutate(delivery.id)} aria-label={`Redeliver ${delivery.event} (attempt ${delivery.attempt})`}>
                      Redeliver
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </Card>
  );
}

function WebhookDialog({ webhook, onClose, onSaved }: { webhook: WebhookWithDeliveries | null; onClose: () => void; onSaved: (saved: object) => void }) {
  const form = useForm<WebhookValues>({
    resolver: zodResolver(webhookSchema),
    defaultValues: { url: webhook?.url ?? '', events: webhook?.events ?? [], description: webhook?.description ?? '' },
  });
  const save = useMutation({
    mutationFn: (values: WebhookValues) => {
      const events = values.events as WebhookBody['events'];
      return webhook
        ? api.webhooks.update(webhook.id, { url: values.url, events, description: values.description || null })
        : api.webhooks.create({ url: values.url, events, ...(values.description ? { description: values.description } : {}) });
    },
    onSuccess: onSaved,
    onError: (error) => showFieldErrors(form, error),
  });
  const errors = form.formState.errors;

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={webhook ? 'Edit webhook' : 'Add a webhook'} description={webhook ? 'The signing secret stays the same.' : undefined}>
      <form className="space-y-4" onSubmit={form.handleSubmit((values) => save.mutate(values))} noValidate>
        <Field label="Endpoint URL" hint="Where the events are posted; https." error={errors.url?.message}>
          {(control) => <Input type="url" placeholder="https://example.com/hooks/gatehouse" {...control} {...form.register('url')} />}
        </Field>
        <fieldset aria-describedby={errors.events ? 'events-error' : undefined}>
          <legend className="text-sm font-medium">Events</legend>
          <div className="mt-2 grid grid-cols-2 gap-4">
            {Object.entries(EVENT_GROUPS).map(([group, events]) => (
              <fieldset key={group}>
                <legend className="text-xs font-semibold uppercase text-slate-600">{group}</legend>
                {events.map((event) => (
                  <label key={event} className="mt-1 flex items-center gap-2 text-sm">
                    <input type="checkbox" value={event} className="h-4 w-4 accent-brand" {...form.register('events')} />
                    <span className="font-mono text-xs">{event}</span>
                  </label>
                ))}
              </fieldset>
            ))}
          </div>
          {errors.events && <p id="events-error" className="mt-1 text-xs font-medium text-red-700">{errors.events.message}</p>}
        </fieldset>
        <Field label="Description (optional)" error={errors.description?.message}>
          {(control) => <Input {...control} {...form.register('description')} />}
        </Field>
        <FormFooter error={save.error} onCancel={onClose} submitLabel={webhook ? 'Save' : 'Add webhook'} pending={save.isPending} />
      </form>
    </Dialog>
  );
}
