import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { isOneTime, MAX_PASS_HOURS, PRICE_INTERVALS, type ProductView } from '@gatehouse/contracts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { api } from '../api/client';
import { keys, queries } from '../api/queries';
import { Button } from '../components/ui/button';
import { Badge, Card, PageHeader, Table } from '../components/ui/card';
import { ConfirmDialog, Dialog } from '../components/ui/dialog';
import { Field, Input, Select, GuardedFields } from '../components/ui/field';
import { FormFooter } from '../components/ui/form-footer';
import { Empty, ErrorMessage, Loading, Notice } from '../components/ui/states';
import { showFieldErrors } from '../lib/forms';
import { Toggle } from '../components/ui/toggle';
import { LocalProcessor } from './local-processor';
import { formatDateTime, formatInterval, formatPrice } from '../lib/format';

const money = formatPrice;

/** The currencies a price may be in: ISO 4217 codes with two decimals (amounts are typed in major units). */
const CURRENCIES = {
  eur: 'EUR — euro',
  usd: 'USD — US dollar',
  gbp: 'GBP — pound sterling',
  chf: 'CHF — Swiss franc',
  sek: 'SEK — Swedish krona',
  nok: 'NOK — Norwegian krone',
  dkk: 'DKK — Danish krone',
  pln: 'PLN — Polish złoty',
  czk: 'CZK — Czech koruna',
  cad: 'CAD — Canadian dollar',
  aud: 'AUD — Australian dollar',
  nzd: 'NZD — New Zealand dollar',
} as const;
type Currency = keyof typeof CURRENCIES;
const CURRENCY_CODES = Object.keys(CURRENCIES) as [Currency, ...Currency[]];

const NO_PROCESSOR = 'Connect the payment processor first: a checkout with this price would fail.';

/** Whether checkouts can work: null while unknown. */
function useProcessorConnected(): boolean | null {
  const settings = useQuery(queries.processor());
  return settings.data ? settings.data.configured : null;
}

export function CatalogScreen() {
  const products = useQuery(queries.products());
  const paywalls = useQuery(queries.paywalls());
  const [creating, setCreating] = useState(false);
  return (
    <>
      <PageHeader title="Catalog" description="What readers buy: products, the paywalls each unlocks, and their prices; and the payment processor behind them." actions={<Button requires="edit" onClick={() => setCreating(true)}>New product</Button>} />
      <ProcessorCard />
      <PausedAccessCard />
      <PastDueGraceCard />
      {products.isPending && <Loading what="products" />}
      {products.error && <ErrorMessage error={products.error} onRetry={() => void products.refetch()} />}
      {products.data?.length === 0 && <Empty title="No products yet" action={<Button requires="edit" onClick={() => setCreating(true)}>Create your first product</Button>}>A product unlocks paywalls; its prices say what it costs.</Empty>}
      {products.data?.map((product) => (
        <ProductCard key={product.id} product={product} paywalls={paywalls.data ?? []} paywallName={(id) => paywalls.data?.find((p) => p.id === id)?.name ?? 'a paywall'} />
      ))}
      {creating && <ProductDialog paywalls={paywalls.data ?? []} onClose={() => setCreating(false)} />}
    </>
  );
}

const settingsSchema = z.object({
  secretKey: z.string().regex(/^(sk|rk)_[A-Za-z0-9_]{8,250}$/, 'A processor secret key: sk_… or rk_…'),
  webhookSecret: z.string().refine((v) => v === '' || /^whsec_[A-Za-z0-9+/=_-]{8,250}$/.test(v), 'A webhook signing secret: whsec_…'),
});
type SettingsForm = z.infer<typeof settingsSchema>;

function ProcessorCard() {
  const queryClient = useQueryClient();
  const settings = useQuery(queries.processor());
  const form = useForm<SettingsForm>({ resolver: zodResolver(settingsSchema), defaultValues: { secretKey: '', webhookSecret: '' } });
  const save = useMutation({
    mutationFn: (v: SettingsForm) => api.processor.save({ secretKey: v.secretKey, ...(v.webhookSecret ? { webhookSecret: v.webhookSecret } : {}) }),
    onSuccess: (saved) => {
      queryClient.setQueryData(queries.processor().queryKey, saved);
      form.reset();
    },
    onError: (error) => showFieldErrors(form, error),
  });
  const s = settings.data;
  return (
    <Card aria-labelledby="processor-heading" className="space-y-3">
      <h2 id="processor-heading" className="text-base font-semibold">Payment processor</h2>
      {settings.isPending && <Loading what="processor settings" />}
      {settings.error && <ErrorMessage error={settings.error} />}
      {s && !s.configured && (
        <div role="note" className="space-y-2 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          <p>No payment processor is connected: prices can be prepared, but none goes on sale until one is, because every checkout would fail.</p>
          {s.localTestKey && <LocalProcessor secretKey={s.localTestKey} />}
        </div>
      )}
      {s && (
        <dl className="grid gap-1 text-sm sm:grid-cols-[10rem_1fr]">
          <dt className="text-slate-600">Secret key</dt>
          <dd className="font-mono">{s.secretKey ?? 'not set'}</dd>
          <dt className="text-slate-600">Webhook</dt>
          <dd>{!s.configured ? 'not set up' : s.webhookEndpointId ? `created automatically at the processor (${s.webhookEndpointId})` : 'secret supplied by you'}</dd>
          <dt className="text-slate-600">Webhook address</dt>
          <dd className="break-all font-mono text-xs">{s.webhookUrl}</dd>
        </dl>
      )}
      {save.isSuccess && <Notice>The processor accepted the key; settings saved.</Notice>}
      <form className="grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end" onSubmit={form.handleSubmit((v) => save.mutate(v))} noValidate>
        <GuardedFields requires="edit" className="contents">
          <Field label="Secret key" error={form.formState.errors.secretKey?.message}>
            {(control) => <Input type="password" autoComplete="off" {...control} {...form.register('secretKey')} />}
          </Field>
          <Field label="Webhook secret (optional)" hint="Leave empty to have the webhook created for you." error={form.formState.errors.webhookSecret?.message}>
            {(control) => <Input type="password" autoComplete="off" {...control} {...form.register('webhookSecret')} />}
          </Field>
        </GuardedFields>
        <Button requires="edit" type="submit" disabled={save.isPending}>Check the key and save</Button>
      </form>
      <ErrorMessage error={save.error && !form.formState.errors.secretKey ? save.error : null} />
    </Card>
  );
}

/** What a paused subscription is worth to its reader (docs/billing.md, pause and resume). */
function PausedAccessCard() {
  const queryClient = useQueryClient();
  const settings = useQuery(queries.subscriptionSettings());
  const save = useMutation({
    mutationFn: (keep: boolean) => api.subscriptionSettings.save({ pausedAccess: keep ? 'keep' : 'suspend' }),
    onSuccess: (saved) => queryClient.setQueryData(queries.subscriptionSettings().queryKey, saved),
  });
  return (
    <Card aria-labelledby="paused-heading" className="space-y-3">
      <h2 id="paused-heading" className="text-base font-semibold">Paused subscriptions</h2>
      <p className="text-sm text-slate-600">Subscribers may pause paying for one to three months. Nothing is charged meanwhile.</p>
      {settings.isPending && <Loading what="subscription settings" />}
      {settings.error && <ErrorMessage error={settings.error} />}
      {settings.data && (
        <Toggle requires="edit" checked={settings.data.pausedAccess === 'keep'} onCheckedChange={(keep) => save.mutate(keep)} label="Paused subscribers keep reading">
          Paused subscribers keep reading (off: they are shown the paywall until they resume)
        </Toggle>
      )}
      {save.isSuccess && <Notice>Saved: {save.data.pausedAccess === 'keep' ? 'paused subscribers keep reading.' : 'paused subscribers see the paywall until they resume.'}</Notice>}
      <ErrorMessage error={save.error} />
    </Card>
  );
}

/** How long a subscriber whose payment failed keeps reading (docs/billing.md, failed-payment recovery). */
function PastDueGraceCard() {
  const queryClient = useQueryClient();
  const settings = useQuery(queries.subscriptionSettings());
  const [days, setDays] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (pastDueGraceDays: number | null) => api.subscriptionSettings.save({ pastDueGraceDays }),
    onSuccess: (saved) => {
      queryClient.setQueryData(queries.subscriptionSettings().queryKey, saved);
      setDays(null);
    },
  });
  const shown = days ?? (settings.data?.pastDueGraceDays === null || settings.data === undefined ? '' : String(settings.data.pastDueGraceDays));
  return (
    <Card aria-labelledby="past-due-heading" className="space-y-3">
      <h2 id="past-due-heading" className="text-base font-semibold">Failed payments</h2>
      <p className="text-sm text-slate-600">
        When a renewal cannot be charged, the processor tries again and the subscriber gets an email after each attempt with a link to update
        their payment method. Meanwhile they keep reading for the grace period.
      </p>
      {settings.isPending && <Loading what="subscription settings" />}
      {settings.error && <ErrorMessage error={settings.error} />}
      {settings.data && (
        <form
          className="flex flex-wrap items-end gap-3"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            save.mutate(shown.trim() === '' ? null : Number(shown));
          }}
        >
          <GuardedFields requires="edit" className="flex flex-wrap items-end gap-3">
            <Field label="Grace period in days" hint="0 to 60; empty: the service's default (3 days unless configured).">
              {(control) => <Input type="number" min={0} max={60} step={1} value={shown} onChange={(e) => setDays(e.target.value)} {...control} />}
            </Field>
            <Button type="submit" requires="edit" disabled={save.isPending}>Save grace period</Button>
          </GuardedFields>
        </form>
      )}
      {save.isSuccess && <Notice>Saved: {save.data.pastDueGraceDays === null ? 'the default grace period applies.' : `subscribers whose payment failed keep reading for ${save.data.pastDueGraceDays} days.`}</Notice>}
      <ErrorMessage error={save.error} />
    </Card>
  );
}

function ProductCard({ product, paywalls, paywallName }: { product: ProductView; paywalls: Array<{ id: string; name: string }>; paywallName: (id: string) => string }) {
  const queryClient = useQueryClient();
  const prices = useQuery(queries.prices(product.id));
  const refresh = () => void queryClient.invalidateQueries({ queryKey: keys.prices.all });
  const refreshProducts = () => void queryClient.invalidateQueries({ queryKey: keys.products.all });
  const setActive = useMutation({ mutationFn: (p: { id: string; active: boolean }) => api.catalog.setPriceActive(p.id, p.active), onSettled: refresh });
  const setProductActive = useMutation({ mutationFn: (active: boolean) => api.catalog.updateProduct(product.id, { active }), onSettled: refreshProducts });
  const removeProduct = useMutation({ mutationFn: () => api.catalog.removeProduct(product.id), onSuccess: refreshProducts });
  const removePrice = useMutation({ mutationFn: (priceId: string) => api.catalog.removePrice(priceId), onSettled: refresh });
  const [editing, setEditing] = useState(false);
  const [details, setDetails] = useState<string | null>(null);
  const connected = useProcessorConnected();
  return (
    <Card aria-labelledby={`product-${product.id}`} className="space-y-3">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id={`product-${product.id}`} className="font-semibold">{product.name} {!product.active && <Badge tone="warn">inactive</Badge>}</h2>
          {product.description && <p className="text-sm text-slate-600">{product.description}</p>}
          <p className="text-sm">Unlocks: {product.entitlements.length === 0 ? 'every paywall' : product.entitlements.map(paywallName).join(', ')}</p>
        </div>
        <div className="flex gap-2">
          <Button requires="edit" size="sm" variant="secondary" onClick={() => setEditing(true)} aria-label={`Edit ${product.name}`}>Edit</Button>
          <Button requires="edit" size="sm" variant="secondary" onClick={() => setProductActive.mutate(!product.active)}>{product.active ? 'Deactivate' : 'Activate'}</Button>
          <ConfirmDialog
            trigger={<Button requires="edit" size="sm" variant="danger">Delete product</Button>}
            title={`Delete ${product.name}?`}
            consequence="The product and its prices are deleted here and archived at the processor; no one can buy them again. This is refused while a subscription uses one of its prices: deactivate it instead."
            confirmLabel="Delete product"
            onConfirm={() => removeProduct.mutate()}
          />
        </div>
      </div>
      <ErrorMessage error={prices.error ?? setActive.error ?? setProductActive.error ?? removeProduct.error ?? removePrice.error} />
      {prices.data && prices.data.length > 0 && (
        <Table>
          <caption className="sr-only">Prices of {product.name}</caption>
          <thead className="bg-slate-50 text-xs uppercase text-slate-600">
            <tr>
              <th scope="col" className="px-2 py-2">Amount</th>
              <th scope="col" className="px-2 py-2">Interval</th>
              <th scope="col" className="px-2 py-2">Trial</th>
              <th scope="col" className="px-2 py-2">Status</th>
              <th scope="col" className="px-2 py-2"><span className="sr-only">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            {prices.data.map((price) => (
              <tr key={price.id} className="border-t border-slate-100">
                <td className="px-2 py-2">{money(price)}</td>
                <td className="px-2 py-2">{formatInterval(price)}</td>
                <td className="px-2 py-2">{price.trialDays > 0 ? `${price.trialDays} days` : '—'}</td>
                <td className="px-2 py-2">{price.active ? <Badge tone="good">on sale</Badge> : <Badge>withdrawn</Badge>}</td>
                <td className="px-2 py-2 text-right">
                  <div className="flex justify-end gap-1">
                    <Button size="sm" variant="secondary" onClick={() => setDetails(details === price.id ? null : price.id)} aria-expanded={details === price.id} aria-label={`Details of ${money(price)} ${formatInterval(price)}`}>
                      Details
                    </Button>
                    <Button
                      requires="edit"
                      refusal={!price.active && connected === false ? NO_PROCESSOR : null}
                      size="sm"
                      variant="secondary"
                      onClick={() => setActive.mutate({ id: price.id, active: !price.active })}
                    >
                      {price.active ? 'Withdraw' : 'Put on sale'}
                    </Button>
                    <ConfirmDialog
                      trigger={<Button requires="edit" size="sm" variant="danger">Delete</Button>}
                      title={`Delete the price ${money(price)}?`}
                      consequence="It is deleted here and archived at the processor; checkouts with it stop working. This is refused while a subscription uses it: withdraw it instead."
                      confirmLabel="Delete price"
                      onConfirm={() => removePrice.mutate(price.id)}
                    />
                  </div>
                  {details === price.id && <PriceDetails priceId={price.id} />}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <PriceForm productId={product.id} onSale={connected !== false} onCreated={refresh} />
      {editing && <ProductDialog paywalls={paywalls} productId={product.id} onClose={() => setEditing(false)} />}
    </Card>
  );
}

/** The price loaded afresh by id, with the id a publisher's server passes to a checkout. */
function PriceDetails({ priceId }: { priceId: string }) {
  const price = useQuery(queries.price(priceId));
  if (price.isPending) return <Loading what="the price" />;
  if (price.error) return <ErrorMessage error={price.error} />;
  return (
    <dl className="mt-2 grid gap-1 text-left text-xs sm:grid-cols-[8rem_1fr]">
      <dt className="text-slate-600">Price id</dt>
      <dd className="font-mono">{price.data.id}</dd>
      <dt className="text-slate-600">Created</dt>
      <dd>{formatDateTime(price.data.createdAt)}</dd>
    </dl>
  );
}

const priceSchema = z
  .object({
    currency: z.enum(CURRENCY_CODES, 'Choose a currency from the list.'),
    amount: z.string().regex(/^\d+([.,]\d{1,2})?$/, 'An amount such as 9 or 9.50.'),
    interval: z.enum(PRICE_INTERVALS),
    trialDays: z.string().regex(/^\d{1,3}$/, 'Whole days, 0 to 730.'),
    passHours: z.string(),
  })
  .refine((v) => v.interval !== 'pass' || (/^\d{1,4}$/.test(v.passHours) && Number(v.passHours) >= 1 && Number(v.passHours) <= MAX_PASS_HOURS), {
    path: ['passHours'],
    message: `Whole hours, 1 to ${MAX_PASS_HOURS} (24: a day pass; 168: a week).`,
  });
type PriceForm = z.infer<typeof priceSchema>;

/** A new price: on sale at once while the processor is connected, else prepared withdrawn. */
function PriceForm({ productId, onSale, onCreated }: { productId: string; onSale: boolean; onCreated: () => void }) {
  const form = useForm<PriceForm>({ resolver: zodResolver(priceSchema), defaultValues: { currency: 'eur', amount: '', interval: 'month', trialDays: '0', passHours: '24' } });
  const interval = form.watch('interval');
  const create = useMutation({
    mutationFn: (v: PriceForm) =>
      api.catalog.createPrice(productId, {
        currency: v.currency,
        unitAmount: Math.round(Number(v.amount.replace(',', '.')) * 100),
        interval: v.interval,
        ...(isOneTime(v.interval) ? {} : { trialDays: Number(v.trialDays) }),
        ...(v.interval === 'pass' ? { passHours: Number(v.passHours) } : {}),
        active: onSale,
      }),
    onSuccess: () => {
      form.reset();
      onCreated();
    },
    onError: (error) => showFieldErrors(form, error),
  });
  const e = form.formState.errors;
  return (
    <form aria-label="Add a price" className="space-y-2 border-t border-slate-200 pt-3" onSubmit={form.handleSubmit((v) => create.mutate(v))} noValidate>
      <p className="text-xs text-slate-600">
        A price cannot be changed once created (readers may hold it); withdraw it and add a new one instead.
        {!onSale && ' It is created withdrawn: put it on sale once the payment processor is connected.'}
      </p>
      <div className="grid gap-3 sm:grid-cols-[minmax(9rem,1fr)_1fr_1fr_7rem_auto] sm:items-end">
        <GuardedFields requires="edit" className="contents">
        <Field label="Currency" error={e.currency?.message}>
          {(control) => (
            <Select {...control} {...form.register('currency')}>
              {CURRENCY_CODES.map((code) => (
                <option key={code} value={code}>
                  {CURRENCIES[code]}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field label="Amount" error={e.amount?.message}>{(control) => <Input inputMode="decimal" placeholder="9.00" {...control} {...form.register('amount')} />}</Field>
        <Field label="Interval">
          {(control) => (
            <Select {...control} {...form.register('interval')}>
              <option value="month">every month</option>
              <option value="year">every year</option>
              <option value="lifetime">once, for life</option>
              <option value="pass">once, a time pass</option>
              <option value="single_article">once, for one article</option>
            </Select>
          )}
        </Field>
        {interval === 'pass' && (
          <Field label="Pass hours" error={e.passHours?.message}>{(control) => <Input inputMode="numeric" {...control} {...form.register('passHours')} />}</Field>
        )}
        {!isOneTime(interval) && (
          <Field label="Trial days" error={e.trialDays?.message}>{(control) => <Input inputMode="numeric" {...control} {...form.register('trialDays')} />}</Field>
        )}
        </GuardedFields>
        <Button requires="edit" type="submit" disabled={create.isPending}>Add price</Button>
      </div>
      <ErrorMessage error={create.error} />
    </form>
  );
}

const productSchema = z.object({ name: z.string().trim().min(1, 'Name the product.').max(200), description: z.string().max(2000), entitlements: z.array(z.string()) });
type ProductForm = z.infer<typeof productSchema>;

/** A new product, or (with `productId`) the product loaded afresh by id and edited. */
function ProductDialog({ paywalls, productId, onClose }: { paywalls: Array<{ id: string; name: string }>; productId?: string; onClose: () => void }) {
  const queryClient = useQueryClient();
  const existing = useQuery({ ...queries.product(productId ?? ''), enabled: Boolean(productId) });
  const form = useForm<ProductForm>({
    resolver: zodResolver(productSchema),
    defaultValues: { name: '', description: '', entitlements: [] },
    values: existing.data ? { name: existing.data.name, description: existing.data.description ?? '', entitlements: existing.data.entitlements } : undefined,
  });
  const create = useMutation({
    mutationFn: (v: ProductForm) => {
      const body = { name: v.name, description: v.description || null, entitlements: v.entitlements };
      return productId ? api.catalog.updateProduct(productId, body) : api.catalog.createProduct(body);
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: keys.products.all });
      onClose();
    },
    onError: (error) => showFieldErrors(form, error),
  });
  if (productId && !existing.data) {
    return (
      <Dialog open onOpenChange={(open) => !open && onClose()} title="Edit product">
        {existing.error ? <ErrorMessage error={existing.error} /> : <Loading what="the product" />}
      </Dialog>
    );
  }
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={productId ? 'Edit product' : 'New product'}>
      <form className="space-y-4" onSubmit={form.handleSubmit((v) => create.mutate(v))} noValidate>
        <Field label="Name" error={form.formState.errors.name?.message}>{(control) => <Input {...control} {...form.register('name')} />}</Field>
        <Field label="Description (optional)">{(control) => <Input {...control} {...form.register('description')} />}</Field>
        <fieldset>
          <legend className="text-sm font-medium">Paywalls it unlocks (none ticked: every paywall)</legend>
          {paywalls.map((p) => (
            <label key={p.id} className="mt-1 flex items-center gap-2 text-sm"><input type="checkbox" value={p.id} className="accent-brand" {...form.register('entitlements')} /> {p.name}</label>
          ))}
        </fieldset>
        <FormFooter error={create.error} onCancel={onClose} submitLabel={productId ? 'Save product' : 'Create product'} pending={create.isPending} />
      </form>
    </Dialog>
  );
}
