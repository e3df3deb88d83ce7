import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { isPurchase, MAX_ONE_TIME_PRICES, type DataFieldType, type MeterPeriod, type PaywallConfigInput, type PaywallDraft, type PaywallType, type PaywallView } from '@gatehouse/contracts';
import { parsePaywallConfig } from '@gatehouse/contracts/paywall-config';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { z } from 'zod';
import { api } from '../api/client';
import { keys, queries } from '../api/queries';
import { Button } from '../components/ui/button';
import { Badge, Card, PageHeader } from '../components/ui/card';
import { ConfirmDialog, Dialog } from '../components/ui/dialog';
import { Field, Input, Select, Textarea } from '../components/ui/field';
import { FormFooter } from '../components/ui/form-footer';
import { Toggle } from '../components/ui/toggle';
import { Empty, ErrorMessage, Loading } from '../components/ui/states';
import { showFieldErrors } from '../lib/forms';
import { CrawlerPolicyCard } from './crawler-policy';
import { ShareSettingsCard } from './share-settings';
import { TryUrl } from './try-url';
import { PaywallPreview } from './branding-preview';
import { formatInterval, formatPrice, PRESENTATION_LABELS } from '../lib/format';

const TYPES: Record<PaywallType, string> = {
  hard: 'Hard — subscribers only',
  soft: 'Soft — a prompt the reader can dismiss',
  metered: 'Metered — a number of free articles per period',
  registration: 'Registration — any signed-in reader',
  newsletter: 'Newsletter — passes once they subscribe',
  data: 'Data — passes once they fill in a form',
};
const PRESENTATIONS = PRESENTATION_LABELS;
const PERIODS: Record<MeterPeriod, string> = { day: 'day', week: 'week', month: 'month' };
const FIELD_TYPES = ['text', 'email', 'tel', 'number', 'checkbox'] as const satisfies readonly DataFieldType[];

const lines = (text: string) => text.split('\n').map((line) => line.trim()).filter(Boolean);
const paywallSchema = z
  .object({
    name: z.string().trim().min(1, 'Name the paywall.').max(200),
    type: z.enum(['hard', 'soft', 'metered', 'registration', 'newsletter', 'data']),
    limit: z.string(),
    period: z.enum(['day', 'week', 'month']),
    fields: z.array(z.object({ name: z.string().trim().min(1, 'Name the field.'), label: z.string().trim().min(1, 'Label the field.'), type: z.enum(FIELD_TYPES), required: z.boolean() })),
    include: z.string().refine((text) => lines(text).length > 0, 'Add at least one path pattern, e.g. /premium/**.'),
    exclude: z.string(),
    segmentId: z.string(),
    presentation: z.enum(['modal', 'inline', 'sticky_bar', 'content_lock']),
    heading: z.string().max(200),
    description: z.string().max(1000),
    ctaText: z.string().max(100),
    enabled: z.boolean(),
    oneTimePriceIds: z.array(z.string()).max(MAX_ONE_TIME_PRICES, `At most ${MAX_ONE_TIME_PRICES} passes and single articles.`),
  })
  .superRefine((form, context) => {
    if (form.type === 'metered' && !/^\d+$/.test(form.limit)) return context.addIssue({ code: 'custom', path: ['limit'], message: 'A whole number of free articles.' });
    if (form.type === 'data' && form.fields.length === 0) return context.addIssue({ code: 'custom', path: ['fields'], message: 'Add at least one field.' });
    // The rest by the schema the access service checks the settings with.
    for (const { field, message } of parsePaywallConfig(form.type, configOf(form)).errors) {
      const input = field.startsWith('config.limit') ? 'limit' : field.startsWith('config.period') ? 'period' : 'fields';
      // Under its own input the message needs no name; a data field's is said by its place (`Field 2 name …`).
      const place = /^config\.fields\[(\d+)\]\.?(\w*)/.exec(field);
      const subject = place ? `Field ${Number(place[1]) + 1}${place[2] ? ` ${place[2]}` : ''} ${message}` : message.charAt(0).toUpperCase() + message.slice(1);
      context.addIssue({ code: 'custom', path: [input], message: `${subject}.` });
    }
  });
type PaywallForm = z.infer<typeof paywallSchema>;

function configOf(form: Pick<PaywallForm, 'type' | 'limit' | 'period' | 'fields'>): PaywallConfigInput {
  if (form.type === 'metered') return { limit: Number(form.limit), period: form.period };
  return form.type === 'data' ? { fields: form.fields } : {};
}

function toForm(paywall: PaywallView | null): PaywallForm {
  const metered = paywall?.type === 'metered' ? paywall.config : undefined;
  return {
    name: paywall?.name ?? '',
    type: paywall?.type ?? 'metered',
    limit: metered ? String(metered.limit) : '3',
    period: metered?.period ?? 'month',
    fields: paywall?.type === 'data' ? paywall.config.fields : [],
    include: paywall?.match.include.join('\n') ?? '/**',
    exclude: paywall?.match.exclude.join('\n') ?? '',
    segmentId: paywall?.segmentId ?? '',
    presentation: paywall?.presentation ?? 'modal',
    heading: paywall?.copy?.heading ?? '',
    description: paywall?.copy?.description ?? '',
    ctaText: paywall?.copy?.ctaText ?? '',
    enabled: paywall?.enabled ?? true,
    oneTimePriceIds: paywall?.oneTimePriceIds ?? [],
  };
}

function toDraft(form: PaywallForm): PaywallDraft {
  const config = configOf(form);
  const copy = { heading: form.heading || null, description: form.description || null, ctaText: form.ctaText || null };
  return {
    name: form.name,
    type: form.type,
    config,
    match: { include: lines(form.include), exclude: lines(form.exclude) },
    segmentId: form.segmentId || null,
    presentation: form.presentation,
    copy: copy.heading || copy.description || copy.ctaText ? copy : null,
    enabled: form.enabled,
    oneTimePriceIds: form.oneTimePriceIds,
  };
}

export function PaywallsScreen() {
  const queryClient = useQueryClient();
  const paywalls = useQuery(queries.paywalls());
  const segments = useQuery(queries.segments());
  const [creating, setCreating] = useState(false);
  const { edit } = useSearch({ from: '/signed-in/paywalls' });
  const navigate = useNavigate({ from: '/paywalls' });
  const setEditing = (paywallId: string | undefined) => void navigate({ search: paywallId ? { edit: paywallId } : {} });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: keys.paywalls.all });
  const toggle = useMutation({ mutationFn: (p: { id: string; enabled: boolean }) => api.paywalls.update(p.id, { enabled: p.enabled }), onSettled: refresh });
  const remove = useMutation({ mutationFn: api.paywalls.remove, onSettled: refresh });
  /** Moves a paywall one place; priorities are rewritten 10 apart so equal ones get an order too. */
  const move = useMutation({
    mutationFn: async ({ index, by }: { index: number; by: -1 | 1 }) => {
      const ordered = [...(paywalls.data ?? [])];
      [ordered[index], ordered[index + by]] = [ordered[index + by], ordered[index]];
      await Promise.all(ordered.map((p, i) => ((i + 1) * 10 !== p.priority ? api.paywalls.update(p.id, { priority: (i + 1) * 10 }) : null)));
    },
    onSettled: refresh,
  });
  const segmentName = (id: string | null) => (id ? (segments.data?.find((s) => s.id === id)?.name ?? 'a segment') : 'Everyone');
  const list = paywalls.data ?? [];

  return (
    <>
      <PageHeader
        title="Paywalls"
        description="For each page, the first enabled paywall from the top whose paths and segment match decides. Subscribers pass every paywall."
        actions={<Button requires="edit" onClick={() => setCreating(true)}>New paywall</Button>}
      />
      <ErrorMessage error={toggle.error ?? move.error ?? remove.error} />
      {paywalls.isPending && <Loading what="paywalls" />}
      {paywalls.error && <ErrorMessage error={paywalls.error} onRetry={() => void paywalls.refetch()} />}
      {paywalls.data?.length === 0 && (
        <Empty title="No paywalls yet" action={<Button requires="edit" onClick={() => setCreating(true)}>Create your first paywall</Button>}>
          Every page is free to read until a paywall covers it.
        </Empty>
      )}
      {list.length > 0 && (
        <Card className="p-0">
          <ol aria-label="Paywalls in priority order">
            {list.map((paywall, index) => (
              <li key={paywall.id} className="flex flex-wrap items-center gap-4 border-b border-slate-100 px-4 py-3 last:border-0" aria-label={paywall.name}>
                <span className="w-6 text-sm text-slate-600">{index + 1}.</span>
                <div className="min-w-0 flex-1">
                  <div className="font-medium">{paywall.name}</div>
                  <div className="mt-1 flex flex-wrap gap-1 text-xs">
                    <Badge>{paywall.type}</Badge>
                    <Badge>{PRESENTATIONS[paywall.presentation]}</Badge>
                    <Badge>{segmentName(paywall.segmentId)}</Badge>
                    <span className="font-mono text-slate-700">{paywall.match.include.join(' ')}</span>
                    {paywall.match.exclude.length > 0 && <span className="font-mono text-slate-700">not {paywall.match.exclude.join(' ')}</span>}
                  </div>
                </div>
                <Toggle requires="edit" checked={paywall.enabled} onCheckedChange={(enabled) => toggle.mutate({ id: paywall.id, enabled })} label={`Enabled: ${paywall.name}`}>
                  {paywall.enabled ? 'On' : 'Off'}
                </Toggle>
                <div className="flex gap-1">
                  <Button requires="edit" size="sm" variant="ghost" disabled={index === 0 || move.isPending} onClick={() => move.mutate({ index, by: -1 })} aria-label={`Move ${paywall.name} up`}>↑</Button>
                  <Button requires="edit" size="sm" variant="ghost" disabled={index === list.length - 1 || move.isPending} onClick={() => move.mutate({ index, by: 1 })} aria-label={`Move ${paywall.name} down`}>↓</Button>
                  <Button requires="edit" size="sm" variant="secondary" onClick={() => setEditing(paywall.id)} aria-label={`Edit ${paywall.name}`}>Edit</Button>
                  <ConfirmDialog
                    trigger={<Button requires="edit" size="sm" variant="danger" aria-label={`Delete ${paywall.name}`}>Delete</Button>}
                    title={`Delete ${paywall.name}?`}
                    consequence="Pages it covers become free to read unless another paywall covers them; its experiments go with it."
                    confirmLabel="Delete paywall"
                    onConfirm={() => remove.mutate(paywall.id)}
                  />
                </div>
              </li>
            ))}
          </ol>
        </Card>
      )}
      {list.length > 0 && <TryUrl />}
      <CrawlerPolicyCard />
      <ShareSettingsCard />
      {creating && <PaywallDialog paywall={null} segments={segments.data ?? []} onClose={() => setCreating(false)} />}
      {edit && <PaywallById paywallId={edit} segments={segments.data ?? []} onClose={() => setEditing(undefined)} />}
    </>
  );
}

/** The editor of `?edit=<id>`: the paywall loaded afresh by id, so a link to it works. */
function PaywallById({ paywallId, segments, onClose }: { paywallId: string; segments: Array<{ id: string; name: string }>; onClose: () => void }) {
  const paywall = useQuery(queries.paywall(paywallId));
  if (paywall.data) return <PaywallDialog key={paywall.data.updatedAt} paywall={paywall.data} segments={segments} onClose={onClose} />;
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title="Edit paywall">
      {paywall.error ? <ErrorMessage error={paywall.error} /> : <Loading what="the paywall" />}
    </Dialog>
  );
}

function PaywallDialog({ paywall, segments, onClose }: { paywall: PaywallView | null; segments: Array<{ id: string; name: string }>; onClose: () => void }) {
  const queryClient = useQueryClient();
  const prices = useQuery(queries.allPrices());
  const oneTimePrices = (prices.data ?? []).filter(({ price }) => isPurchase(price.interval));
  const form = useForm<PaywallForm>({ resolver: zodResolver(paywallSchema), defaultValues: toForm(paywall) });
  const fields = useFieldArray({ control: form.control, name: 'fields' });
  const save = useMutation({
    mutationFn: (values: PaywallForm) => (paywall ? api.paywalls.update(paywall.id, toDraft(values)) : api.paywalls.create(toDraft(values))),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: keys.paywalls.all });
      onClose();
    },
    onError: (error) => showFieldErrors(form, error),
  });
  const type = form.watch('type');
  const [presentation, heading, description, ctaText] = form.watch(['presentation', 'heading', 'description', 'ctaText']);
  const errors = form.formState.errors;

  return (
    <Dialog wide open onOpenChange={(open) => !open && onClose()} title={paywall ? `Edit ${paywall.name}` : 'New paywall'}>
      <form className="space-y-4" onSubmit={form.handleSubmit((values) => save.mutate(values))} noValidate>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Name" error={errors.name?.message}>
            {(control) => <Input {...control} {...form.register('name')} />}
          </Field>
          <Field label="Type" error={errors.type?.message}>
            {(control) => (
              <Select {...control} {...form.register('type')}>
                {Object.entries(TYPES).map(([value, label]) => <option key={value} value={value}>{label}</option>)}
              </Select>
            )}
          </Field>
        </div>
        {type === 'metered' && (
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Free articles" error={errors.limit?.message}>
              {(control) => <Input inputMode="numeric" {...control} {...form.register('limit')} />}
            </Field>
            <Field label="Per" hint="Calendar periods in UTC.">
              {(control) => (
                <Select {...control} {...form.register('period')}>
                  {Object.entries(PERIODS).map(([value, label]) => <option key={value} value={value}>{label}</option>)}
                </Select>
              )}
            </Field>
          </div>
        )}
        {type === 'data' && (
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium">Form fields</legend>
            {fields.fields.map((field, index) => (
              <div key={field.id} className="grid grid-cols-1 items-center gap-2 rounded-md border border-slate-200 p-2 sm:grid-cols-[1fr_1fr_8rem_auto_auto] sm:border-0 sm:p-0">
                <Input aria-label={`Field ${index + 1} name`} placeholder="company" {...form.register(`fields.${index}.name`)} />
                <Input aria-label={`Field ${index + 1} label`} placeholder="Company" {...form.register(`fields.${index}.label`)} />
                <Select aria-label={`Field ${index + 1} type`} {...form.register(`fields.${index}.type`)}>
                  {FIELD_TYPES.map((t) => <option key={t} value={t}>{t}</option>)}
                </Select>
                <label className="flex items-center gap-1 text-sm"><input type="checkbox" {...form.register(`fields.${index}.required`)} /> required</label>
                <Button size="sm" variant="ghost" onClick={() => fields.remove(index)} aria-label={`Remove field ${index + 1}`}>Remove</Button>
              </div>
            ))}
            {errors.fields?.message && <p className="text-xs font-medium text-red-700">{errors.fields.message}</p>}
            <Button size="sm" variant="secondary" onClick={() => fields.append({ name: '', label: '', type: 'text', required: true })}>Add field</Button>
          </fieldset>
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Paths it covers" hint="One pattern per line: * within a segment, ** any depth, e.g. /premium/**." error={errors.include?.message}>
            {(control) => <Textarea rows={3} className="font-mono" {...control} {...form.register('include')} />}
          </Field>
          <Field label="Paths it leaves free" hint="Optional, one per line, e.g. /premium/free-*." error={errors.exclude?.message}>
            {(control) => <Textarea rows={3} className="font-mono" {...control} {...form.register('exclude')} />}
          </Field>
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Segment" hint="Who it applies to." error={errors.segmentId?.message}>
            {(control) => (
              <Select {...control} {...form.register('segmentId')}>
                <option value="">Everyone</option>
                {segments.map((segment) => <option key={segment.id} value={segment.id}>{segment.name}</option>)}
              </Select>
            )}
          </Field>
          <Field label="Presentation">
            {(control) => (
              <Select {...control} {...form.register('presentation')}>
                {Object.entries(PRESENTATIONS).map(([value, label]) => <option key={value} value={value}>{label}</option>)}
              </Select>
            )}
          </Field>
        </div>
        <fieldset className="grid gap-4 sm:grid-cols-3">
          <legend className="mb-1 text-sm font-medium">Copy (empty: the branding’s)</legend>
          <Field label="Heading" error={errors.heading?.message}>{(control) => <Input {...control} {...form.register('heading')} />}</Field>
          <Field label="Description" error={errors.description?.message}>{(control) => <Input {...control} {...form.register('description')} />}</Field>
          <Field label="Button text" error={errors.ctaText?.message}>{(control) => <Input {...control} {...form.register('ctaText')} />}</Field>
        </fieldset>
        {oneTimePrices.length > 0 && (
          <fieldset>
            <legend className="text-sm font-medium">Passes and single articles offered beside the plans</legend>
            {oneTimePrices.map(({ product, price }) => (
              <label key={price.id} className="mt-1 flex items-center gap-2 text-sm">
                <input type="checkbox" value={price.id} className="accent-brand" {...form.register('oneTimePriceIds')} /> {product.name} {formatPrice(price)} {formatInterval(price)}
                {!price.active && ' (withdrawn)'}
              </label>
            ))}
            {errors.oneTimePriceIds?.message && <p className="text-xs font-medium text-red-700">{errors.oneTimePriceIds.message}</p>}
          </fieldset>
        )}
        <PaywallPreview type={type} presentation={presentation} copy={{ heading, description, ctaText }} />
        <label className="flex items-center gap-2 text-sm"><input type="checkbox" className="accent-brand" {...form.register('enabled')} /> Enabled</label>
        <FormFooter error={save.error} onCancel={onClose} submitLabel={paywall ? 'Save' : 'Create paywall'} pending={save.isPending} />
      </form>
    </Dialog>
  );
}
