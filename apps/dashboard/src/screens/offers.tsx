import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OfferView, PriceView, SegmentView } from '@gatehouse/contracts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { api } from '../api/client';
import { keys, queries } from '../api/queries';
import { useSession } from '../api/session';
import { Button } from '../components/ui/button';
import { Badge, Card, PageHeader, Table } from '../components/ui/card';
import { Dialog } from '../components/ui/dialog';
import { Field, Input, Select } from '../components/ui/field';
import { FormFooter } from '../components/ui/form-footer';
import { CopyValue, Empty, ErrorMessage, Loading } from '../components/ui/states';
import { formatDateTime, formatInterval, formatMoney, formatPrice } from '../lib/format';
import { showFieldErrors } from '../lib/forms';

/** What an offer gives, in a few words: "€3.00 off for 3 months", "50% off the first payment", "a 30-day trial". */
export function offerSummary(offer: OfferView): string {
  if (offer.kind === 'trial') return `a ${offer.trialDays}-day free trial`;
  const off = offer.kind === 'percent' ? `${offer.percentOff}% off` : `${formatMoney(offer.amountOff ?? 0, offer.currency ?? 'eur')} off`;
  if (offer.duration === 'once') return `${off} the first payment`;
  if (offer.duration === 'repeating') return `${off} for ${offer.durationInMonths} ${offer.durationInMonths === 1 ? 'month' : 'months'}`;
  return `${off} for good`;
}

function limitsOf(offer: OfferView, priceName: (id: string) => string, segmentName: (id: string) => string): string {
  const limits = [
    offer.priceIds.length === 0 ? 'every price' : offer.priceIds.map(priceName).join(', '),
    offer.maxRedemptions !== null ? `at most ${offer.maxRedemptions} redemptions` : null,
    offer.startsAt ? `from ${formatDateTime(offer.startsAt)}` : null,
    offer.endsAt ? `until ${formatDateTime(offer.endsAt)}` : null,
    offer.newCustomersOnly ? 'new customers only' : null,
    offer.segmentId ? `readers in ${segmentName(offer.segmentId)}` : null,
  ];
  return limits.filter(Boolean).join('; ');
}

export function OffersScreen() {
  const offers = useQuery(queries.offers());
  const prices = useQuery(queries.allPrices());
  const segments = useQuery(queries.segments());
  const session = useSession();
  const [creating, setCreating] = useState(false);
  const priceName = (id: string) => {
    const found = prices.data?.find(({ price }) => price.id === id);
    return found ? `${found.product.name} ${formatPrice(found.price)}` : 'a deleted price';
  };
  const segmentName = (id: string) => (segments.data ? (segments.data.find((segment) => segment.id === id)?.name ?? 'a deleted segment') : 'a segment');
  const site = session.publication.domains.find((domain) => !domain.startsWith('*.')) ?? session.publication.domains[0]?.replace(/^\*\./, 'www.');
  return (
    <>
      <PageHeader
        title="Offers"
        description="Discounts, introductory prices and longer trials readers redeem with a code or a link. Each is made at the payment processor as a coupon with a promotion code."
        actions={<Button requires="edit" onClick={() => setCreating(true)}>New offer</Button>}
      />
      {offers.isPending && <Loading what="offers" />}
      {offers.error && <ErrorMessage error={offers.error} onRetry={() => void offers.refetch()} />}
      {offers.data?.length === 0 && (
        <Empty title="No offers yet" action={<Button requires="edit" onClick={() => setCreating(true)}>Create your first offer</Button>}>
          An offer gives readers who type its code, or open its link, a discount or a longer trial at checkout.
        </Empty>
      )}
      {offers.data && offers.data.length > 0 && (
        <Card aria-labelledby="offers-heading" className="space-y-3">
          <h2 id="offers-heading" className="text-base font-semibold">Your offers</h2>
          <Table>
            <caption className="sr-only">Offers</caption>
            <thead className="bg-slate-50 text-xs uppercase text-slate-600">
              <tr>
                <th scope="col" className="px-2 py-2">Code</th>
                <th scope="col" className="px-2 py-2">Gives</th>
                <th scope="col" className="px-2 py-2">For</th>
                <th scope="col" className="px-2 py-2">Redeemed</th>
                <th scope="col" className="px-2 py-2">Status</th>
                <th scope="col" className="px-2 py-2"><span className="sr-only">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              {offers.data.map((offer) => (
                <OfferRow key={offer.id} offer={offer} limits={limitsOf(offer, priceName, segmentName)} site={site} segmentName={segmentName} />
              ))}
            </tbody>
          </Table>
        </Card>
      )}
      {creating && <OfferDialog prices={prices.data ?? []} segments={segments.data ?? []} onClose={() => setCreating(false)} />}
    </>
  );
}

function OfferRow({ offer, limits, site, segmentName }: { offer: OfferView; limits: string; site: string | undefined; segmentName: (id: string) => string }) {
  const queryClient = useQueryClient();
  const [showLink, setShowLink] = useState(false);
  const setActive = useMutation({
    mutationFn: (active: boolean) => api.offers.update(offer.id, { active }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: keys.offers.all }),
  });
  const ended = !offer.active || (offer.endsAt !== null && Date.parse(offer.endsAt) <= Date.now());
  return (
    <tr className="border-t border-slate-100 align-top">
      <td className="px-2 py-2">
        <span className="font-mono">{offer.code}</span>
        <p className="text-xs text-slate-600">{offer.name}</p>
      </td>
      <td className="px-2 py-2">{offerSummary(offer)}</td>
      <td className="px-2 py-2 text-xs">{limits}</td>
      <td className="px-2 py-2">{offer.maxRedemptions !== null ? `${offer.redemptions} of ${offer.maxRedemptions}` : offer.redemptions}</td>
      <td className="px-2 py-2">{ended ? <Badge>ended</Badge> : <Badge tone="good">live</Badge>}</td>
      <td className="px-2 py-2 text-right">
        <div className="flex justify-end gap-1">
          <Button size="sm" variant="secondary" onClick={() => setShowLink(!showLink)} aria-expanded={showLink} aria-label={`Details of ${offer.code}`}>
            Details
          </Button>
          <Button requires="edit" size="sm" variant="secondary" onClick={() => setActive.mutate(!offer.active)} aria-label={`${offer.active ? 'End' : 'Resume'} ${offer.code}`}>
            {offer.active ? 'End' : 'Resume'}
          </Button>
        </div>
        {showLink && <OfferDetails offerId={offer.id} site={site} segmentName={segmentName} />}
        <ErrorMessage error={setActive.error} />
      </td>
    </tr>
  );
}

/** The offer loaded afresh by id: its link, and what the processor knows it by. */
function OfferDetails({ offerId, site, segmentName }: { offerId: string; site: string | undefined; segmentName: (id: string) => string }) {
  const offer = useQuery(queries.offer(offerId));
  if (offer.isPending) return <Loading what="the offer" />;
  if (offer.error) return <ErrorMessage error={offer.error} />;
  return (
    <div className="mt-2 space-y-2 text-left">
      <CopyValue label="Checkout link (any page with the snippet)" value={`https://${site ?? 'your-site.example'}/?offer=${encodeURIComponent(offer.data.code)}`} />
      <dl className="grid gap-1 text-xs sm:grid-cols-[8rem_1fr]">
        <dt className="text-slate-600">Offer id</dt>
        <dd className="font-mono">{offer.data.id}</dd>
        <dt className="text-slate-600">Created</dt>
        <dd>{formatDateTime(offer.data.createdAt)}</dd>
        <dt className="text-slate-600">Readers</dt>
        <dd>{offer.data.segmentId ? `in the segment ${segmentName(offer.data.segmentId)}` : 'every reader'}</dd>
      </dl>
    </div>
  );
}

const wholeNumber = (message: string) => z.string().regex(/^\d*$/, message);

const offerSchema = z
  .object({
    code: z.string().regex(/^[A-Za-z0-9_-]{3,40}$/, '3 to 40 letters, digits, - or _.'),
    name: z.string().trim().min(1, 'Name the offer: readers see it.').max(100),
    kind: z.enum(['percent', 'amount', 'trial']),
    percentOff: wholeNumber('A whole percentage, 1 to 100.'),
    amount: z.string().regex(/^(\d+([.,]\d{1,2})?)?$/, 'An amount such as 3 or 2.50.'),
    currency: z.string(),
    duration: z.enum(['once', 'repeating', 'forever']),
    durationInMonths: wholeNumber('Whole months, 1 to 36.'),
    trialDays: wholeNumber('Whole days, 1 to 730.'),
    priceIds: z.array(z.string()),
    maxRedemptions: wholeNumber('A whole number, or empty for no limit.'),
    endsAt: z.string(),
    newCustomersOnly: z.boolean(),
    segmentId: z.string(),
  })
  .superRefine((v, ctx) => {
    const need = (path: keyof typeof v, ok: boolean, message: string) => ok || ctx.addIssue({ code: 'custom', path: [path], message });
    if (v.kind === 'percent') need('percentOff', Number(v.percentOff) >= 1 && Number(v.percentOff) <= 100, 'A whole percentage, 1 to 100.');
    if (v.kind === 'amount') need('amount', Number(v.amount.replace(',', '.')) > 0, 'How much off each payment, e.g. 3.');
    if (v.kind === 'trial') need('trialDays', Number(v.trialDays) >= 1 && Number(v.trialDays) <= 730, 'Whole days, 1 to 730.');
    if (v.kind !== 'trial' && v.duration === 'repeating') need('durationInMonths', Number(v.durationInMonths) >= 1 && Number(v.durationInMonths) <= 36, 'Whole months, 1 to 36.');
  });
type OfferForm = z.infer<typeof offerSchema>;

function OfferDialog({
  prices,
  segments,
  onClose,
}: {
  prices: Array<{ product: { name: string }; price: Pick<PriceView, 'id' | 'currency' | 'unitAmount' | 'interval' | 'passHours' | 'active'> }>;
  segments: Array<Pick<SegmentView, 'id' | 'name'>>;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const form = useForm<OfferForm>({
    resolver: zodResolver(offerSchema),
    defaultValues: { code: '', name: '', kind: 'percent', percentOff: '', amount: '', currency: 'eur', duration: 'once', durationInMonths: '', trialDays: '', priceIds: [], maxRedemptions: '', endsAt: '', newCustomersOnly: false, segmentId: '' },
  });
  const create = useMutation({
    mutationFn: (v: OfferForm) =>
      api.offers.create({
        code: v.code,
        name: v.name,
        kind: v.kind,
        ...(v.kind === 'percent' ? { percentOff: Number(v.percentOff) } : {}),
        ...(v.kind === 'amount' ? { amountOff: Math.round(Number(v.amount.replace(',', '.')) * 100), currency: v.currency } : {}),
        ...(v.kind === 'trial' ? { trialDays: Number(v.trialDays) } : { duration: v.duration }),
        ...(v.kind !== 'trial' && v.duration === 'repeating' ? { durationInMonths: Number(v.durationInMonths) } : {}),
        priceIds: v.priceIds,
        maxRedemptions: v.maxRedemptions ? Number(v.maxRedemptions) : null,
        endsAt: v.endsAt ? new Date(v.endsAt).toISOString() : null,
        newCustomersOnly: v.newCustomersOnly,
        segmentId: v.segmentId || null,
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: keys.offers.all });
      onClose();
    },
    onError: (error) => showFieldErrors(form, error),
  });
  const e = form.formState.errors;
  const kind = form.watch('kind');
  const duration = form.watch('duration');
  const currencies = [...new Set(prices.map(({ price }) => price.currency))];
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title="New offer">
      <form className="space-y-4" onSubmit={form.handleSubmit((v) => create.mutate(v))} noValidate>
        <div className="grid gap-3 sm:grid-cols-2">
          <Field label="Code" hint="What readers type; not case-sensitive." error={e.code?.message}>{(control) => <Input autoComplete="off" {...control} {...form.register('code')} />}</Field>
          <Field label="Name" hint="Shown to readers beside the terms." error={e.name?.message}>{(control) => <Input {...control} {...form.register('name')} />}</Field>
        </div>
        <Field label="Kind">
          {(control) => (
            <Select {...control} {...form.register('kind')}>
              <option value="percent">a percentage off</option>
              <option value="amount">an amount off (an introductory price)</option>
              <option value="trial">a longer free trial</option>
            </Select>
          )}
        </Field>
        {kind === 'percent' && <Field label="Percent off" error={e.percentOff?.message}>{(control) => <Input inputMode="numeric" {...control} {...form.register('percentOff')} />}</Field>}
        {kind === 'amount' && (
          <div className="grid gap-3 sm:grid-cols-2">
            <Field label="Amount off each payment" error={e.amount?.message}>{(control) => <Input inputMode="decimal" placeholder="3.00" {...control} {...form.register('amount')} />}</Field>
            <Field label="Currency" error={e.currency?.message}>
              {(control) => (
                <Select {...control} {...form.register('currency')}>
                  {(currencies.length > 0 ? currencies : ['eur']).map((code) => (
                    <option key={code} value={code}>{code.toUpperCase()}</option>
                  ))}
                </Select>
              )}
            </Field>
          </div>
        )}
        {kind === 'trial' && <Field label="Trial days" hint="Instead of the price's own trial." error={e.trialDays?.message}>{(control) => <Input inputMode="numeric" {...control} {...form.register('trialDays')} />}</Field>}
        {kind !== 'trial' && (
          <div className="grid gap-3 sm:grid-cols-2">
            <Field label="For how long" error={e.duration?.message}>
              {(control) => (
                <Select {...control} {...form.register('duration')}>
                  <option value="once">the first payment</option>
                  <option value="repeating">some months</option>
                  <option value="forever">for good</option>
                </Select>
              )}
            </Field>
            {duration === 'repeating' && <Field label="Months" error={e.durationInMonths?.message}>{(control) => <Input inputMode="numeric" {...control} {...form.register('durationInMonths')} />}</Field>}
          </div>
        )}
        <fieldset>
          <legend className="text-sm font-medium">Prices it is for (none ticked: every price)</legend>
          {prices.map(({ product, price }) => (
            <label key={price.id} className="mt-1 flex items-center gap-2 text-sm">
              <input type="checkbox" value={price.id} className="accent-brand" {...form.register('priceIds')} /> {product.name} {formatMoney(price.unitAmount, price.currency)}{' '}
              {formatInterval(price)}
              {!price.active && ' (withdrawn)'}
            </label>
          ))}
          {e.priceIds?.message && <p className="text-xs font-medium text-red-700">{e.priceIds.message}</p>}
        </fieldset>
        <div className="grid gap-3 sm:grid-cols-2">
          <Field label="Redemptions at most (optional)" error={e.maxRedemptions?.message}>{(control) => <Input inputMode="numeric" {...control} {...form.register('maxRedemptions')} />}</Field>
          <Field label="Ends (optional)" error={e.endsAt?.message}>{(control) => <Input type="datetime-local" {...control} {...form.register('endsAt')} />}</Field>
        </div>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" className="accent-brand" {...form.register('newCustomersOnly')} /> New customers only (never subscribed before)
        </label>
        <Field label="Readers" hint="Only readers in a segment may redeem it, decided as for a paywall's segment." error={e.segmentId?.message}>
          {(control) => (
            <Select {...control} {...form.register('segmentId')}>
              <option value="">Every reader</option>
              {segments.map((segment) => (
                <option key={segment.id} value={segment.id}>in the segment {segment.name}</option>
              ))}
            </Select>
          )}
        </Field>
        <FormFooter error={create.error} onCancel={onClose} submitLabel="Create offer" pending={create.isPending} />
      </form>
    </Dialog>
  );
}
