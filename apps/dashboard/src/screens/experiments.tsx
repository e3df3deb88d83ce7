import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ExperimentDraft, ExperimentVariant, ExperimentView, PaywallPresentation, VariantStats } from '@gatehouse/contracts';
import { useState, type ReactNode } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { z } from 'zod';
import { api } from '../api/client';
import { keys, queries } from '../api/queries';
import { Button } from '../components/ui/button';
import { Badge, Card, PageHeader, Table } from '../components/ui/card';
import { ConfirmDialog, Dialog } from '../components/ui/dialog';
import { Field, Input, Select } from '../components/ui/field';
import { FormFooter } from '../components/ui/form-footer';
import { Empty, ErrorMessage, Loading } from '../components/ui/states';
import { showFieldErrors } from '../lib/forms';
import { percent, wilsonInterval } from '../lib/proportions';
import { PRESENTATION_LABELS } from '../lib/format';

const PRESENTATIONS = PRESENTATION_LABELS;

const variantSchema = z.object({
  /** Kept when editing, so the variant stays the same one. */
  id: z.string().optional(),
  name: z.string().trim().min(1, 'Name the variant.').max(100),
  weight: z.string().regex(/^\d+$/, 'A whole number.'),
  presentation: z.string(),
  heading: z.string().max(200),
  ctaText: z.string().max(100),
  offerCode: z.string().regex(/^([A-Za-z0-9_-]{3,40})?$/, 'An offer code, or empty.'),
});
const experimentSchema = z
  .object({
    name: z.string().trim().min(1, 'Name the experiment.').max(200),
    paywallId: z.string().min(1, 'Choose the paywall it varies.'),
    variants: z.array(variantSchema).min(2, 'An experiment compares at least two variants.').max(10),
  })
  .refine((v) => v.variants.reduce((sum, variant) => sum + Number(variant.weight || 0), 0) === 100, { path: ['variants'], message: 'The weights must add up to 100.' });
type ExperimentForm = z.infer<typeof experimentSchema>;

function toDraft(form: ExperimentForm): ExperimentDraft {
  return {
    name: form.name,
    paywallId: form.paywallId,
    variants: form.variants.map((v) => {
      const copy = { ...(v.heading ? { heading: v.heading } : {}), ...(v.ctaText ? { ctaText: v.ctaText } : {}) };
      return {
        ...(v.id ? { id: v.id } : {}),
        name: v.name,
        weight: Number(v.weight),
        overrides: {
          ...(v.presentation ? { presentation: v.presentation as PaywallPresentation } : {}),
          ...(Object.keys(copy).length > 0 ? { copy } : {}),
          ...(v.offerCode ? { offerCode: v.offerCode } : {}),
        },
      };
    }),
  };
}

const STATUS_TONE = { draft: 'neutral', running: 'good', stopped: 'warn' } as const;

export function ExperimentsScreen() {
  const queryClient = useQueryClient();
  const experiments = useQuery(queries.experiments());
  const paywalls = useQuery(queries.paywalls());
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: keys.experiments.all });
  const start = useMutation({ mutationFn: api.experiments.start, onSettled: refresh });
  const stop = useMutation({ mutationFn: api.experiments.stop, onSettled: refresh });
  const remove = useMutation({ mutationFn: api.experiments.remove, onSettled: refresh });
  const paywallName = (id: string) => paywalls.data?.find((p) => p.id === id)?.name ?? 'a paywall';

  return (
    <>
      <PageHeader
        title="Experiments"
        description="Show visitors variants of a paywall and see which converts better. Each visitor keeps their variant."
        actions={<Button requires="edit" onClick={() => setCreating(true)}>New experiment</Button>}
      />
      <ErrorMessage error={start.error ?? stop.error ?? remove.error} />
      {experiments.isPending && <Loading what="experiments" />}
      {experiments.error && <ErrorMessage error={experiments.error} onRetry={() => void experiments.refetch()} />}
      {experiments.data?.length === 0 && (
        <Empty title="No experiments yet" action={<Button requires="edit" onClick={() => setCreating(true)}>Create your first experiment</Button>}>
          For example: does “Subscribe” or “Join now” convert more readers?
        </Empty>
      )}
      {experiments.data?.map((experiment) => (
        <Card key={experiment.id} aria-labelledby={`experiment-${experiment.id}`} className="space-y-3">
          <div className="flex flex-wrap items-start justify-between gap-3">
            <div>
              <h2 id={`experiment-${experiment.id}`} className="font-semibold">{experiment.name}</h2>
              <p className="text-sm text-slate-600">
                On {paywallName(experiment.paywallId)} · <Badge tone={STATUS_TONE[experiment.status]}>{experiment.status}</Badge>
              </p>
            </div>
            <div className="flex gap-2">
              {experiment.status === 'draft' && (
                <>
                  <Button requires="edit" size="sm" variant="secondary" onClick={() => setEditing(experiment.id)} aria-label={`Edit ${experiment.name}`}>Edit</Button>
                  <Button requires="edit" size="sm" onClick={() => start.mutate(experiment.id)}>Start</Button>
                </>
              )}
              {experiment.status === 'running' && (
                <ConfirmDialog
                  trigger={<Button requires="edit" size="sm" variant="secondary">Stop</Button>}
                  title={`Stop ${experiment.name}?`}
                  consequence="Every visitor sees the paywall as configured again; the results so far stay here. A stopped experiment cannot be restarted."
                  confirmLabel="Stop experiment"
                  onConfirm={() => stop.mutate(experiment.id)}
                />
              )}
              {experiment.status !== 'running' && (
                <ConfirmDialog
                  trigger={<Button requires="edit" size="sm" variant="danger">Delete</Button>}
                  title={`Delete ${experiment.name}?`}
                  consequence="The experiment and its variants are removed; figures already counted stay in the stats."
                  confirmLabel="Delete experiment"
                  onConfirm={() => remove.mutate(experiment.id)}
                />
              )}
            </div>
          </div>
          <Results experiment={experiment} />
        </Card>
      ))}
      {creating && <ExperimentDialog paywalls={paywalls.data ?? []} onClose={() => setCreating(false)} />}
      {editing && <ExperimentDialog paywalls={paywalls.data ?? []} experimentId={editing} onClose={() => setEditing(null)} />}
    </>
  );
}

/** Per variant: impressions, conversions (completed checkouts), rate with its 95 % interval, and the comparison with the first variant in words. */
function Results({ experiment }: { experiment: ExperimentView }) {
  const since = experiment.startedAt ?? experiment.createdAt;
  const stats = useQuery({ ...queries.experimentResults(experiment.id, since), enabled: experiment.status !== 'draft' });
  if (experiment.status === 'draft') {
    return <p className="text-sm text-slate-600">Variants: {experiment.variants.map((v) => `${v.name} (${v.weight} %)`).join(', ')}. Start it to collect results.</p>;
  }
  if (stats.isPending) return <Loading what="results" />;
  if (stats.error) return <ErrorMessage error={stats.error} onRetry={() => void stats.refetch()} />;
  const rows = experiment.variants.map((variant) => ({ variant, figures: stats.data.variants.find((v) => v.variantId === variant.id) }));
  const baseline = rows[0];
  return (
    <Table>
      <caption className="sr-only">Results of {experiment.name}</caption>
      <thead className="bg-slate-50 text-xs uppercase text-slate-600">
        <tr>
          <th scope="col" className="px-2 py-2">Variant</th>
          <th scope="col" className="px-2 py-2">Weight</th>
          <th scope="col" className="px-2 py-2">Impressions</th>
          <th scope="col" className="px-2 py-2">Conversions</th>
          <th scope="col" className="px-2 py-2">Conversion rate (95 % range)</th>
          <th scope="col" className="px-2 py-2">Compared with {baseline.variant.name}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(({ variant, figures }, index) => {
          const shown = figures?.shown ?? 0;
          const checkouts = figures?.checkouts ?? 0;
          const interval = wilsonInterval(checkouts, shown);
          return (
            <tr key={variant.id} className="border-t border-slate-100">
              <th scope="row" className="px-2 py-2 font-medium">{variant.name}</th>
              <td className="px-2 py-2">{variant.weight} %</td>
              <td className="px-2 py-2">{shown}</td>
              <td className="px-2 py-2">{checkouts}</td>
              <td className="px-2 py-2">{shown === 0 || !interval ? '—' : `${percent(checkouts / shown)} (${percent(interval[0])}–${percent(interval[1])})`}</td>
              <td className="px-2 py-2">{index === 0 ? 'the baseline' : inWords(variant.name, baseline.variant.name, figures, baseline.figures)}</td>
            </tr>
          );
        })}
      </tbody>
    </Table>
  );
}

/** A control of a repeated row, with its column's name above it (the control's own name says which row). */
function RowField({ label, children }: { label: string; children: ReactNode }) {
  return (
    <label className="block min-w-0 space-y-1">
      <span className="block text-xs font-medium text-slate-700">{label}</span>
      {children}
    </label>
  );
}

/** "B converts 1.4× better than A; 97 % confident", for a reader who is no statistician. */
function inWords(name: string, baselineName: string, figures: VariantStats | undefined, baseline: VariantStats | undefined): string {
  if (!figures?.significance || !figures.checkoutRate || !baseline?.checkoutRate) return 'not enough data yet';
  const ratio = figures.checkoutRate / baseline.checkoutRate;
  const confident = Math.floor((1 - figures.significance.pValue) * 100);
  const how = ratio >= 1 ? `converts ${ratio.toFixed(1)}× better than ${baselineName}` : `converts ${(1 / ratio).toFixed(1)}× worse than ${baselineName}`;
  return `${name} ${how}; ${confident} % confident${figures.significance.significant ? '' : ' (not yet conclusive)'}`;
}

const toFormVariant = (v: ExperimentVariant) => ({
  id: v.id,
  name: v.name,
  weight: String(v.weight),
  presentation: v.overrides.presentation ?? '',
  heading: v.overrides.copy?.heading ?? '',
  ctaText: v.overrides.copy?.ctaText ?? '',
  offerCode: v.overrides.offerCode ?? '',
});

/** A new experiment, or (with `experimentId`) a draft loaded afresh by id: its name and variants change until it starts. */
function ExperimentDialog({ paywalls, experimentId, onClose }: { paywalls: Array<{ id: string; name: string }>; experimentId?: string; onClose: () => void }) {
  const existing = useQuery({ ...queries.experiment(experimentId ?? ''), enabled: Boolean(experimentId) });
  if (experimentId && !existing.data) {
    return (
      <Dialog open onOpenChange={(open) => !open && onClose()} title="Edit experiment">
        {existing.error ? <ErrorMessage error={existing.error} /> : <Loading what="the experiment" />}
      </Dialog>
    );
  }
  return <ExperimentEditor paywalls={paywalls} experiment={existing.data} onClose={onClose} />;
}

function ExperimentEditor({ paywalls, experiment, onClose }: { paywalls: Array<{ id: string; name: string }>; experiment?: ExperimentView; onClose: () => void }) {
  const queryClient = useQueryClient();
  const form = useForm<ExperimentForm>({
    resolver: zodResolver(experimentSchema),
    defaultValues: experiment ? { name: experiment.name, paywallId: experiment.paywallId, variants: experiment.variants.map(toFormVariant) } : {
      name: '',
      paywallId: paywalls[0]?.id ?? '',
      variants: [
        { name: 'A', weight: '50', presentation: '', heading: '', ctaText: '', offerCode: '' },
        { name: 'B', weight: '50', presentation: '', heading: '', ctaText: '', offerCode: '' },
      ],
    },
  });
  const variants = useFieldArray({ control: form.control, name: 'variants' });
  const save = useMutation({
    mutationFn: (values: ExperimentForm) => {
      const draft = toDraft(values);
      return experiment ? api.experiments.update(experiment.id, { name: draft.name, variants: draft.variants }) : api.experiments.create(draft);
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: keys.experiments.all });
      onClose();
    },
    onError: (error) => showFieldErrors(form, error),
  });
  const total = form.watch('variants').reduce((sum, v) => sum + (Number(v.weight) || 0), 0);
  const errors = form.formState.errors;

  return (
    <Dialog wide open onOpenChange={(open) => !open && onClose()} title={experiment ? `Edit ${experiment.name}` : 'New experiment'} description="Variants override the paywall’s presentation and copy, and may offer an offer’s code; empty fields keep the paywall’s own.">
      <form className="space-y-4" onSubmit={form.handleSubmit((values) => save.mutate(values))} noValidate>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Name" error={errors.name?.message}>{(control) => <Input {...control} {...form.register('name')} />}</Field>
          <Field label="Paywall" error={errors.paywallId?.message}>
            {(control) => (
              <Select {...control} disabled={Boolean(experiment)} {...form.register('paywallId')}>
                {paywalls.map((p) => <option key={p.id} value={p.id}>{p.name}</option>)}
              </Select>
            )}
          </Field>
        </div>
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium">Variants</legend>
          {variants.fields.map((field, index) => {
            const n = index + 1;
            const rowErrors = errors.variants?.[index];
            return (
              <fieldset key={field.id} className="min-w-0 rounded-md border border-slate-200 px-3 pb-3">
                <legend className="px-1 text-sm font-medium">Variant {n}</legend>
                <div className="grid gap-2 sm:grid-cols-[1fr_5rem_10rem] sm:items-end lg:grid-cols-[1fr_5rem_10rem_1fr_1fr_7rem_auto]">
                  <RowField label="Name">
                    <Input aria-label={`Variant ${n} name`} {...form.register(`variants.${index}.name`)} aria-invalid={Boolean(rowErrors?.name)} />
                  </RowField>
                  <RowField label="Weight %">
                    <Input aria-label={`Variant ${n} weight`} inputMode="numeric" {...form.register(`variants.${index}.weight`)} aria-invalid={Boolean(rowErrors?.weight)} />
                  </RowField>
                  <RowField label="Presentation">
                    <Select aria-label={`Variant ${n} presentation`} {...form.register(`variants.${index}.presentation`)}>
                      <option value="">As the paywall</option>
                      {Object.entries(PRESENTATIONS).map(([value, label]) => <option key={value} value={value}>{label}</option>)}
                    </Select>
                  </RowField>
                  <RowField label="Heading">
                    <Input aria-label={`Variant ${n} heading`} placeholder="As the paywall" {...form.register(`variants.${index}.heading`)} />
                  </RowField>
                  <RowField label="Button text">
                    <Input aria-label={`Variant ${n} button text`} placeholder="As the paywall" {...form.register(`variants.${index}.ctaText`)} />
                  </RowField>
                  <RowField label="Offer code">
                    <Input aria-label={`Variant ${n} offer code`} placeholder="None" {...form.register(`variants.${index}.offerCode`)} aria-invalid={Boolean(rowErrors?.offerCode)} />
                  </RowField>
                  <Button size="sm" variant="ghost" disabled={variants.fields.length <= 2} onClick={() => variants.remove(index)} aria-label={`Remove variant ${n}`}>Remove</Button>
                </div>
              </fieldset>
            );
          })}
          <p role="status" className={total === 100 ? 'text-xs text-slate-700' : 'text-xs font-medium text-amber-800'}>
            Weights add up to {total} %{total === 100 ? '.' : ` — they must add up to 100 (${total < 100 ? `${100 - total} to go` : `${total - 100} too many`}).`}
          </p>
          {(errors.variants?.message ?? errors.variants?.root?.message) && <p className="text-xs font-medium text-red-700">{errors.variants?.message ?? errors.variants?.root?.message}</p>}
          <Button size="sm" variant="secondary" onClick={() => variants.append({ name: String.fromCharCode(65 + variants.fields.length), weight: '0', presentation: '', heading: '', ctaText: '', offerCode: '' })}>
            Add variant
          </Button>
        </fieldset>
        <FormFooter error={save.error} onCancel={onClose} submitLabel={experiment ? 'Save experiment' : 'Create experiment'} pending={save.isPending} />
      </form>
    </Dialog>
  );
}
