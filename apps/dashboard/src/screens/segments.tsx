import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SegmentAttribute, SegmentCondition, SegmentDraft, SegmentOperator, SegmentView } from '@gatehouse/contracts';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { useFieldArray, useForm, type UseFormReturn } from 'react-hook-form';
import { z } from 'zod';
import { api } from '../api/client';
import { keys, queries } from '../api/queries';
import { Button } from '../components/ui/button';
import { Badge, Card, PageHeader } from '../components/ui/card';
import { ConfirmDialog, Dialog } from '../components/ui/dialog';
import { Field, Input, Select } from '../components/ui/field';
import { FormFooter } from '../components/ui/form-footer';
import { Empty, ErrorMessage, Loading } from '../components/ui/states';
import { showFieldErrors } from '../lib/forms';

type Kind = 'boolean' | 'number' | 'text';

/** Decisions E7: every attribute, what it means to a publisher, and the operators it takes. */
const ATTRIBUTES: Record<SegmentAttribute, { label: string; kind: Kind; choices?: string[] }> = {
  authenticated: { label: 'Signed in', kind: 'boolean' },
  subscriber: { label: 'Subscriber', kind: 'boolean' },
  device: { label: 'Device', kind: 'text', choices: ['desktop', 'mobile', 'tablet'] },
  country: { label: 'Country (ISO code)', kind: 'text' },
  referrer: { label: 'Referrer', kind: 'text' },
  utm_source: { label: 'UTM source', kind: 'text' },
  utm_medium: { label: 'UTM medium', kind: 'text' },
  utm_campaign: { label: 'UTM campaign', kind: 'text' },
  path: { label: 'Page path', kind: 'text' },
  visit_count: { label: 'Visits this period', kind: 'number' },
};
const OPERATORS: Record<Kind, SegmentOperator[]> = {
  boolean: ['eq', 'neq'],
  number: ['eq', 'neq', 'in', 'gt', 'lt'],
  text: ['eq', 'neq', 'contains', 'in'],
};
const OPERATOR_WORDS: Record<SegmentOperator, string> = {
  eq: 'is',
  neq: 'is not',
  contains: 'contains',
  in: 'is one of',
  gt: 'is more than',
  lt: 'is less than',
};
const ATTRIBUTE_NAMES = Object.keys(ATTRIBUTES) as SegmentAttribute[];

const conditionSchema = z.object({ attribute: z.string(), operator: z.string(), value: z.string().trim().min(1, 'Give a value.') });
const segmentSchema = z.object({
  name: z.string().trim().min(1, 'Name the segment.').max(200),
  match: z.enum(['all', 'any']),
  conditions: z.array(conditionSchema).min(1, 'Add at least one condition.').max(20, 'At most 20 conditions.'),
});
type SegmentForm = z.infer<typeof segmentSchema>;

/** The form's text values as the API's typed values: `in` takes a comma-separated list. */
function toDraft(form: SegmentForm): SegmentDraft {
  const conditions = form.conditions.map(({ attribute, operator, value }): SegmentCondition => {
    const kind = ATTRIBUTES[attribute as SegmentAttribute].kind;
    const one = (text: string) => (kind === 'number' ? Number(text) : kind === 'boolean' ? text === 'true' : text);
    const typed = operator === 'in' ? value.split(',').map((v) => v.trim()).filter(Boolean).map(one) : one(value);
    return { attribute: attribute as SegmentAttribute, operator: operator as SegmentOperator, value: typed as SegmentCondition['value'] };
  });
  return { name: form.name, match: form.match, conditions };
}

function toForm(segment: SegmentView | null): SegmentForm {
  if (!segment) return { name: '', match: 'all', conditions: [{ attribute: 'device', operator: 'eq', value: 'mobile' }] };
  return {
    name: segment.name,
    match: segment.match,
    conditions: segment.conditions.map((c) => ({ attribute: c.attribute, operator: c.operator, value: Array.isArray(c.value) ? c.value.join(', ') : String(c.value) })),
  };
}

export function describeCondition({ attribute, operator, value }: SegmentCondition): string {
  const shown = Array.isArray(value) ? value.join(', ') : typeof value === 'boolean' ? (value ? 'yes' : 'no') : String(value);
  return `${ATTRIBUTES[attribute].label} ${OPERATOR_WORDS[operator]} ${shown}`;
}

export function SegmentsScreen() {
  const queryClient = useQueryClient();
  const segments = useQuery(queries.segments());
  const paywalls = useQuery(queries.paywalls());
  const [creating, setCreating] = useState(false);
  const { edit } = useSearch({ from: '/signed-in/segments' });
  const navigate = useNavigate({ from: '/segments' });
  const setEditing = (segmentId: string | undefined) => void navigate({ search: segmentId ? { edit: segmentId } : {} });
  const remove = useMutation({ mutationFn: api.segments.remove, onSettled: () => void queryClient.invalidateQueries({ queryKey: keys.segments.all }) });

  return (
    <>
      <PageHeader
        title="Segments"
        description="Groups of visitors a paywall can target: by device, country, referrer, campaign, path, visits, sign-in or subscription."
        actions={<Button requires="edit" onClick={() => setCreating(true)}>New segment</Button>}
      />
      <ErrorMessage error={remove.error} />
      {segments.isPending && <Loading what="segments" />}
      {segments.error && <ErrorMessage error={segments.error} onRetry={() => void segments.refetch()} />}
      {segments.data?.length === 0 && (
        <Empty title="No segments yet" action={<Button requires="edit" onClick={() => setCreating(true)}>Create your first segment</Button>}>
          For example “mobile visitors from a newsletter campaign”, to show them a softer paywall.
        </Empty>
      )}
      {segments.data?.map((segment) => {
        const users = (paywalls.data ?? []).filter((p) => p.segmentId === segment.id);
        return (
          <Card key={segment.id} aria-labelledby={`segment-${segment.id}`} className="space-y-2">
            <div className="flex items-start justify-between gap-3">
              <h2 id={`segment-${segment.id}`} className="font-semibold">{segment.name}</h2>
              <div className="flex gap-2">
                <Button requires="edit" size="sm" variant="secondary" onClick={() => setEditing(segment.id)} aria-label={`Edit ${segment.name}`}>Edit</Button>
                <ConfirmDialog
                  trigger={<Button requires="edit" size="sm" variant="danger" aria-label={`Delete ${segment.name}`}>Delete</Button>}
                  title={`Delete ${segment.name}?`}
                  consequence={users.length > 0 ? `Paywalls use it (${users.map((p) => p.name).join(', ')}): point them elsewhere first, or the deletion is refused.` : 'No paywall uses it; it is removed for good.'}
                  confirmLabel="Delete segment"
                  onConfirm={() => remove.mutate(segment.id)}
                />
              </div>
            </div>
            <p className="text-sm text-slate-700">Visitors matching {segment.match === 'all' ? 'all' : 'any'} of:</p>
            <ul className="list-disc pl-6 text-sm">
              {segment.conditions.map((condition, i) => <li key={i}>{describeCondition(condition)}</li>)}
            </ul>
            <p className="text-sm">
              Used by: {users.length === 0 ? <span className="text-slate-600">no paywall</span> : users.map((p) => <Badge key={p.id}>{p.name}</Badge>)}
            </p>
          </Card>
        );
      })}
      {creating && <SegmentDialog segment={null} onClose={() => setCreating(false)} />}
      {edit && <SegmentById segmentId={edit} onClose={() => setEditing(undefined)} />}
    </>
  );
}

/** The editor of `?edit=<id>`: the segment loaded afresh by id, so a link to it works. */
function SegmentById({ segmentId, onClose }: { segmentId: string; onClose: () => void }) {
  const segment = useQuery(queries.segment(segmentId));
  if (segment.data) return <SegmentDialog key={segment.data.updatedAt} segment={segment.data} onClose={onClose} />;
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title="Edit segment">
      {segment.error ? <ErrorMessage error={segment.error} /> : <Loading what="the segment" />}
    </Dialog>
  );
}

function SegmentDialog({ segment, onClose }: { segment: SegmentView | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const form = useForm<SegmentForm>({ resolver: zodResolver(segmentSchema), defaultValues: toForm(segment) });
  const conditions = useFieldArray({ control: form.control, name: 'conditions' });
  const save = useMutation({
    mutationFn: (values: SegmentForm) => (segment ? api.segments.update(segment.id, toDraft(values)) : api.segments.create(toDraft(values))),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: keys.segments.all });
      onClose();
    },
    onError: (error) => showFieldErrors(form, error),
  });
  const errors = form.formState.errors;

  return (
    <Dialog wide open onOpenChange={(open) => !open && onClose()} title={segment ? `Edit ${segment.name}` : 'New segment'}>
      <form className="space-y-4" onSubmit={form.handleSubmit((values) => save.mutate(values))} noValidate>
        <Field label="Name" error={errors.name?.message}>
          {(control) => <Input {...control} {...form.register('name')} />}
        </Field>
        <fieldset>
          <legend className="text-sm font-medium">Visitors must match</legend>
          <div className="mt-1 flex gap-4 text-sm">
            <label className="flex items-center gap-2"><input type="radio" value="all" className="accent-brand" {...form.register('match')} /> all conditions</label>
            <label className="flex items-center gap-2"><input type="radio" value="any" className="accent-brand" {...form.register('match')} /> any condition</label>
          </div>
        </fieldset>
        <fieldset className="space-y-3">
          <legend className="text-sm font-medium">Conditions</legend>
          {conditions.fields.map((field, index) => (
            <ConditionRow key={field.id} form={form} index={index} onRemove={conditions.fields.length > 1 ? () => conditions.remove(index) : undefined} />
          ))}
          {(errors.conditions?.message ?? errors.conditions?.root?.message) && (
            <p className="text-xs font-medium text-red-700">{errors.conditions?.message ?? errors.conditions?.root?.message}</p>
          )}
          <Button size="sm" variant="secondary" onClick={() => conditions.append({ attribute: 'country', operator: 'eq', value: '' })}>
            Add condition
          </Button>
        </fieldset>
        <FormFooter error={save.error} onCancel={onClose} submitLabel={segment ? 'Save' : 'Create segment'} pending={save.isPending} />
      </form>
    </Dialog>
  );
}

function ConditionRow({ form, index, onRemove }: { form: UseFormReturn<SegmentForm>; index: number; onRemove?: () => void }) {
  const attribute = form.watch(`conditions.${index}.attribute`) as SegmentAttribute;
  const operator = form.watch(`conditions.${index}.operator`) as SegmentOperator;
  const { kind, choices, label } = ATTRIBUTES[attribute];
  const error = form.formState.errors.conditions?.[index];
  const n = index + 1;
  const attributeField = form.register(`conditions.${index}.attribute`, {
    onChange: (event: { target: { value: SegmentAttribute } }) => {
      const next = ATTRIBUTES[event.target.value].kind;
      if (!OPERATORS[next].includes(operator)) form.setValue(`conditions.${index}.operator`, OPERATORS[next][0]);
      form.setValue(`conditions.${index}.value`, next === 'boolean' ? 'true' : '');
    },
  });
  const valueField = form.register(`conditions.${index}.value`);
  return (
    <div className="rounded-md border border-slate-200 p-3">
      <div className="grid grid-cols-1 items-start gap-2 sm:grid-cols-[1fr_1fr_1.3fr_auto]">
        <Select aria-label={`Condition ${n} attribute`} {...attributeField}>
          {ATTRIBUTE_NAMES.map((name) => <option key={name} value={name}>{ATTRIBUTES[name].label}</option>)}
        </Select>
        <Select aria-label={`Condition ${n} operator`} {...form.register(`conditions.${index}.operator`)}>
          {OPERATORS[kind].map((op) => <option key={op} value={op}>{OPERATOR_WORDS[op]}</option>)}
        </Select>
        {kind === 'boolean' ? (
          <Select aria-label={`Condition ${n} value`} {...valueField}>
            <option value="true">yes</option>
            <option value="false">no</option>
          </Select>
        ) : choices && operator !== 'in' ? (
          <Select aria-label={`Condition ${n} value`} {...valueField}>
            <option value="">Choose…</option>
            {choices.map((choice) => <option key={choice} value={choice}>{choice}</option>)}
          </Select>
        ) : (
          <Input
            aria-label={`Condition ${n} value`}
            aria-invalid={Boolean(error?.value)}
            inputMode={kind === 'number' ? 'numeric' : undefined}
            placeholder={operator === 'in' ? (choices ? choices.join(', ') : 'comma, separated, values') : label}
            {...valueField}
          />
        )}
        {onRemove ? (
          <Button size="sm" variant="ghost" onClick={onRemove} aria-label={`Remove condition ${n}`}>Remove</Button>
        ) : (
          <span />
        )}
      </div>
      {(error?.value?.message ?? error?.operator?.message ?? error?.attribute?.message) && (
        <p className="mt-1 text-xs font-medium text-red-700">{error?.value?.message ?? error?.operator?.message ?? error?.attribute?.message}</p>
      )}
    </div>
  );
}
