import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { isPurchase, type CustomerPurchaseView, type CustomerRecord, type PriceView, type SubscriptionSource, type SubscriptionView } from '@gatehouse/contracts';
import { useEffect, useState, type FormEvent } from 'react';
import { ApiError, api } from '../api/client';
import { keys, queries } from '../api/queries';
import { FormFooter } from '../components/ui/form-footer';
import { Button } from '../components/ui/button';
import { Badge, Card, PageHeader, Table } from '../components/ui/card';
import { ConfirmDialog, Dialog } from '../components/ui/dialog';
import { Field, Input, Select, GuardedFields } from '../components/ui/field';
import { Empty, ErrorMessage, Loading, Notice } from '../components/ui/states';
import { formatDate, formatDateTime, formatInterval, formatPrice } from '../lib/format';

const date = formatDate;
const money = (price: PriceView) => `${formatPrice(price)}${price.interval === 'lifetime' ? ' once' : ` a ${price.interval}`}`;

export function CustomersScreen() {
  const [email, setEmail] = useState('');
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<CustomerRecord | null>(null);
  const [creating, setCreating] = useState(false);
  const customers = useQuery(queries.customers(search));
  /** Shows `customer` with the search set to their email, so the list behind them is theirs. */
  const open = (customer: CustomerRecord) => {
    setEmail(customer.email);
    setSearch(customer.email);
    setSelected(customer);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSearch(email.trim().toLowerCase());
    setSelected(null);
  };

  return (
    <>
      <PageHeader
        title="Customers"
        description="Your readers with an account: their subscriptions, passes and single articles, manual grants and cancellations."
        actions={<Button requires="edit" onClick={() => setCreating(true)}>New customer</Button>}
      />
      <form role="search" className="flex items-end gap-2" onSubmit={submit}>
        <div className="flex-1">
          <Field label="Find by email">{(control) => <Input type="email" value={email} onChange={(e) => setEmail(e.target.value)} {...control} />}</Field>
        </div>
        <Button type="submit">Search</Button>
      </form>
      {customers.isPending && <Loading what="customers" />}
      {customers.error && <ErrorMessage error={customers.error} onRetry={() => void customers.refetch()} />}
      {customers.data?.length === 0 && !selected && (
        <Empty title={search ? `No customer with the email ${search}` : 'No customers yet'}>
          Customers appear when readers register on your site, or when your server creates them.
        </Empty>
      )}
      {customers.data && customers.data.length > 0 && !selected && (
        <Card className="p-0">
          <ul>
            {customers.data.map((customer) => (
              <li key={customer.id} className="flex items-center justify-between border-b border-slate-100 px-4 py-3 last:border-0">
                <span>
                  <span className="font-medium">{customer.name}</span> <span className="text-sm text-slate-600">{customer.email}</span>
                </span>
                <Button size="sm" variant="secondary" onClick={() => setSelected(customer)} aria-label={`Open ${customer.email}`}>Open</Button>
              </li>
            ))}
          </ul>
        </Card>
      )}
      {selected && (
        <CustomerPage
          key={selected.id}
          customer={selected}
          onChanged={open}
          onClose={() => setSelected(null)}
          onDeleted={() => { setSelected(null); void customers.refetch(); }}
        />
      )}
      {creating && <CustomerDialog onClose={() => setCreating(false)} onSaved={(customer) => { setCreating(false); open(customer); }} />}
    </>
  );
}

/** A new customer (no password: granted access, cannot sign in until they reset it), or an existing one's name and email. */
function CustomerDialog({ customer, onClose, onSaved }: { customer?: CustomerRecord; onClose: () => void; onSaved: (customer: CustomerRecord) => void }) {
  const [email, setEmail] = useState(customer?.email ?? '');
  const [name, setName] = useState(customer?.name ?? '');
  const save = useMutation({
    mutationFn: () => (customer ? api.customers.update(customer.id, { email: email.trim(), name: name.trim() }) : api.customers.create({ email: email.trim(), name: name.trim() })),
    onSuccess: onSaved,
  });
  const fieldError = (field: string) => (save.error instanceof ApiError ? save.error.fieldError(field) : undefined);
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={customer ? `Edit ${customer.email}` : 'New customer'} description={customer ? undefined : 'Created without a password: you can grant them access; they sign in after resetting it.'}>
      <form
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate();
        }}
        noValidate
      >
        <Field label="Email" error={fieldError('email')}>{(control) => <Input type="email" value={email} onChange={(e) => setEmail(e.target.value)} {...control} />}</Field>
        <Field label="Name" error={fieldError('name')}>{(control) => <Input value={name} onChange={(e) => setName(e.target.value)} {...control} />}</Field>
        <FormFooter error={save.error} onCancel={onClose} submitLabel={customer ? 'Save customer' : 'Create customer'} pending={save.isPending} />
      </form>
    </Dialog>
  );
}

function CustomerPage({ customer, onChanged, onClose, onDeleted }: { customer: CustomerRecord; onChanged: (customer: CustomerRecord) => void; onClose: () => void; onDeleted: () => void }) {
  const [editing, setEditing] = useState(false);
  const [details, setDetails] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const subscriptions = useQuery(queries.subscriptions(customer.id));
  const prices = useQuery(queries.allPrices());
  const [notice, setNotice] = useState<string | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: keys.subscriptions.all });
  const cancel = useMutation({
    mutationFn: (args: { id: string; atPeriodEnd: boolean }) => api.subscriptions.cancel(args.id, args.atPeriodEnd),
    onSuccess: (s) => setNotice(s.cancelAtPeriodEnd && s.status !== 'cancelled' ? `It ends on ${date(s.currentPeriodEnd)}.` : 'Cancelled now.'),
    onSettled: refresh,
  });
  const remove = useMutation({ mutationFn: () => api.customers.remove(customer.id), onSuccess: onDeleted });
  const [download, setDownload] = useState<{ href: string; file: string } | null>(null);
  // The saved document's blob is let go when the page closes or a newer one replaces it.
  useEffect(() => () => { if (download) URL.revokeObjectURL(download.href); }, [download]);
  const exportData = useMutation({
    mutationFn: () => api.customers.exportData(customer.id),
    onSuccess: (document) => {
      const saved = { href: URL.createObjectURL(new Blob([JSON.stringify(document, null, 2)], { type: 'application/json' })), file: `personal-data-${customer.id}.json` };
      setDownload(saved);
      saveFile(saved.href, saved.file);
    },
  });
  const priceOf = (priceId: string) => prices.data?.find((p) => p.price.id === priceId);

  return (
    <Card aria-labelledby="customer-heading" className="space-y-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="customer-heading" className="text-lg font-semibold">{customer.name}</h2>
          <p className="text-sm text-slate-700">{customer.email} · customer since {date(customer.createdAt)} · {customer.hasPassword ? 'can sign in' : 'no password: cannot sign in'}</p>
        </div>
        <div className="flex gap-2">
          <Button size="sm" variant="secondary" onClick={onClose}>Back to the list</Button>
          <Button requires="edit" size="sm" variant="secondary" onClick={() => setEditing(true)}>Edit customer</Button>
          <Button size="sm" variant="secondary" onClick={() => exportData.mutate()} disabled={exportData.isPending}>Download data</Button>
          <ConfirmDialog
            trigger={<Button requires="edit" size="sm" variant="danger">Erase customer</Button>}
            title={`Erase ${customer.email}?`}
            consequence="Everything held about them is deleted in every service: account, sessions, reading history, newsletter and data-wall submissions, email log, and their account at the payment processor, which cancels its subscriptions. Your webhooks get customer.deleted. Only what your accounts need stays (what was sold, when, at what price), linked to no one. This cannot be undone: download their data first if they asked for it."
            confirmLabel="Erase customer"
            onConfirm={() => remove.mutate()}
          />
        </div>
      </div>
      {notice && <Notice>{notice}</Notice>}
      {download && (
        <Notice>
          Their data is saved as {download.file}. If the download did not start, <a className="font-medium underline" href={download.href} download={download.file}>save {download.file}</a>.
        </Notice>
      )}
      <ErrorMessage error={cancel.error ?? remove.error ?? exportData.error} />
      <h3 className="font-semibold">Subscriptions</h3>
      {subscriptions.isPending && <Loading what="subscriptions" />}
      {subscriptions.error && <ErrorMessage error={subscriptions.error} />}
      {subscriptions.data?.length === 0 && <p className="text-sm text-slate-600">No subscriptions. Grant one below.</p>}
      {subscriptions.data && subscriptions.data.length > 0 && (
        <Table>
          <caption className="sr-only">Subscriptions of {customer.email}</caption>
          <thead className="bg-slate-50 text-xs uppercase text-slate-600">
            <tr>
              <th scope="col" className="px-2 py-2">Status</th>
              <th scope="col" className="px-2 py-2">Price</th>
              <th scope="col" className="px-2 py-2">Period</th>
              <th scope="col" className="px-2 py-2">Source</th>
              <th scope="col" className="px-2 py-2"><span className="sr-only">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            {subscriptions.data.map((s: SubscriptionView) => {
              const price = priceOf(s.priceId);
              return (
                <tr key={s.subscriptionId} className="border-t border-slate-100">
                  <td className="px-2 py-2">
                    <Badge tone={s.status === 'cancelled' ? 'bad' : s.status === 'past_due' ? 'warn' : 'good'}>{s.status}</Badge>
                    {s.cancelAtPeriodEnd && s.status !== 'cancelled' && <span className="ml-2 text-xs text-amber-800">ends at period end</span>}
                  </td>
                  <td className="px-2 py-2">{price ? `${price.product.name}, ${money(price.price)}` : s.priceId}</td>
                  <td className="px-2 py-2">{date(s.currentPeriodStart)} – {date(s.currentPeriodEnd)}</td>
                  <td className="px-2 py-2">{s.source}</td>
                  <td className="px-2 py-2 text-right">
                    <div className="flex justify-end gap-1">
                      <Button size="sm" variant="secondary" onClick={() => setDetails(s.subscriptionId)}>History</Button>
                    {s.status !== 'cancelled' && (
                      <>
                        {!s.cancelAtPeriodEnd && (
                          <Button requires="edit" size="sm" variant="secondary" onClick={() => cancel.mutate({ id: s.subscriptionId, atPeriodEnd: true })}>Cancel at period end</Button>
                        )}
                        <ConfirmDialog
                          trigger={<Button requires="edit" size="sm" variant="danger">Cancel now</Button>}
                          title="Cancel this subscription now?"
                          consequence="The customer loses access at once; nothing is refunded by this action."
                          confirmLabel="Cancel now"
                          onConfirm={() => cancel.mutate({ id: s.subscriptionId, atPeriodEnd: false })}
                        />
                      </>
                    )}
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </Table>
      )}
      <Purchases customer={customer} priceLabel={(priceId) => { const p = priceOf(priceId); return p ? `${formatPrice(p.price)} ${formatInterval(p.price)}` : ''; }} />
      {/* Passes and single articles are bought, never granted. */}
      <Grant customerId={customer.id} prices={(prices.data ?? []).filter(({ price }) => !isPurchase(price.interval))} onGranted={(s) => { setNotice(`Granted until ${date(s.currentPeriodEnd)}.`); refresh(); }} />
      {editing && <CustomerDialog customer={customer} onClose={() => setEditing(false)} onSaved={(saved) => { setEditing(false); onChanged(saved); }} />}
      {details && <SubscriptionHistory subscriptionId={details} priceLabel={(priceId) => { const p = priceOf(priceId); return p ? `${p.product.name}, ${money(p.price)}` : priceId; }} onClose={() => setDetails(null)} />}
    </Card>
  );
}

/** The customer's passes and single articles (bought at the processor, never granted here), newest first, ended passes included. */
function Purchases({ customer, priceLabel }: { customer: CustomerRecord; priceLabel: (priceId: string) => string }) {
  const purchases = useQuery(queries.purchases(customer.id));
  const live = (purchase: CustomerPurchaseView) => !purchase.endsAt || new Date(purchase.endsAt) > new Date();
  return (
    <>
      <h3 className="font-semibold">Passes and single articles</h3>
      {purchases.isPending && <Loading what="passes and single articles" />}
      {purchases.error && <ErrorMessage error={purchases.error} />}
      {purchases.data?.length === 0 && <p className="text-sm text-slate-600">No passes or single articles bought.</p>}
      {purchases.data && purchases.data.length > 0 && (
        <Table>
          <caption className="sr-only">Passes and single articles of {customer.email}</caption>
          <thead className="bg-slate-50 text-xs uppercase text-slate-600">
            <tr>
              <th scope="col" className="px-2 py-2">Kind</th>
              <th scope="col" className="px-2 py-2">Product</th>
              <th scope="col" className="px-2 py-2">Bought</th>
              <th scope="col" className="px-2 py-2">Gives</th>
            </tr>
          </thead>
          <tbody>
            {purchases.data.map((purchase) => (
              <tr key={purchase.purchaseId} className="border-t border-slate-100">
                <td className="px-2 py-2">
                  <Badge tone={live(purchase) ? 'good' : 'bad'}>{purchase.kind === 'pass' ? (live(purchase) ? 'pass' : 'pass, ended') : 'single article'}</Badge>
                </td>
                <td className="px-2 py-2">{purchase.productName}{priceLabel(purchase.priceId) && <span className="text-slate-600">, {priceLabel(purchase.priceId)}</span>}</td>
                <td className="px-2 py-2">{formatDateTime(purchase.startsAt)}</td>
                <td className="px-2 py-2 break-all">
                  {purchase.url ? <a className="underline" href={purchase.url} target="_blank" rel="noreferrer">{purchase.url}</a> : `Until ${formatDateTime(purchase.endsAt)}`}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </>
  );
}

/** Starts the browser's download of a file at `href`. */
function saveFile(href: string, file: string): void {
  const link = document.createElement('a');
  link.href = href;
  link.download = file;
  link.click();
}

/**
 * One subscription loaded afresh by id, with its history as its own dates tell it. No route lists a
 * customer's events, so this is what the dashboard can show honestly (docs/dashboard.md).
 */
/** How a subscription began, by its source. */
const STARTED: Record<SubscriptionSource, string> = { processor: 'Started through a checkout', manual: 'Granted by staff', gift: 'Redeemed from a gift' };

function SubscriptionHistory({ subscriptionId, priceLabel, onClose }: { subscriptionId: string; priceLabel: (priceId: string) => string; onClose: () => void }) {
  const subscription = useQuery(queries.subscription(subscriptionId));
  const s = subscription.data;
  const history: Array<[string, string]> = s
    ? ([
        [s.createdAt, STARTED[s.source]],
        ...(s.trialStart ? [[s.trialStart, 'Trial started'] as [string, string]] : []),
        ...(s.trialEnd ? [[s.trialEnd, new Date(s.trialEnd) > new Date() ? 'Trial ends' : 'Trial ended'] as [string, string]] : []),
        [s.currentPeriodStart, 'Current period started'],
        [
          s.currentPeriodEnd,
          s.status === 'cancelled' ? 'Ended (cancelled)' : s.cancelAtPeriodEnd ? 'Ends (cancelled at period end)' : new Date(s.currentPeriodEnd) > new Date() ? 'Renews or ends' : 'Period ended',
        ],
      ] as Array<[string, string]>).sort(([a], [b]) => a.localeCompare(b))
    : [];
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title="Subscription history" description="From the subscription's own dates; payments and webhook deliveries are at the processor and on the Webhooks page.">
      {subscription.isPending && <Loading what="the subscription" />}
      {subscription.error && <ErrorMessage error={subscription.error} />}
      {s && (
        <>
          <p className="text-sm">{priceLabel(s.priceId)} · <Badge tone={s.status === 'cancelled' ? 'bad' : s.status === 'past_due' ? 'warn' : 'good'}>{s.status}</Badge> · {s.source}</p>
          <ol aria-label="History" className="mt-3 space-y-1 text-sm">
            {history.map(([when, what]) => (
              <li key={`${when}-${what}`}><span className="inline-block w-44 text-slate-600">{formatDateTime(when)}</span> {what}</li>
            ))}
          </ol>
          <p className="mt-3 font-mono text-xs text-slate-600">Subscription id {s.subscriptionId}</p>
        </>
      )}
    </Dialog>
  );
}

function Grant({ customerId, prices, onGranted }: { customerId: string; prices: Array<{ product: { name: string }; price: PriceView }>; onGranted: (s: SubscriptionView) => void }) {
  const [priceId, setPriceId] = useState('');
  const [until, setUntil] = useState('');
  const grant = useMutation({
    mutationFn: () => api.subscriptions.grant({ customerId, priceId: priceId || prices[0]?.price.id, ...(until ? { currentPeriodEnd: new Date(`${until}T23:59:59Z`).toISOString() } : {}) }),
    onSuccess: onGranted,
  });
  if (prices.length === 0) return <p className="text-sm text-slate-600">Create a product and a price to grant subscriptions by hand.</p>;
  return (
    <form
      aria-label="Grant a subscription"
      className="grid gap-3 border-t border-slate-200 pt-4 sm:grid-cols-[2fr_1fr_auto] sm:items-end"
      onSubmit={(event) => {
        event.preventDefault();
        grant.mutate();
      }}
    >
      <GuardedFields requires="edit" className="contents">
        <Field label="Grant a subscription to">
          {(control) => (
            <Select value={priceId} onChange={(e) => setPriceId(e.target.value)} {...control}>
              {prices.map(({ product, price }) => <option key={price.id} value={price.id}>{product.name}, {money(price)}</option>)}
            </Select>
          )}
        </Field>
        <Field label="Until (optional)">{(control) => <Input type="date" value={until} onChange={(e) => setUntil(e.target.value)} {...control} />}</Field>
      </GuardedFields>
      <Button requires="edit" type="submit" disabled={grant.isPending}>Grant</Button>
      <div className="sm:col-span-3"><ErrorMessage error={grant.error} /></div>
    </form>
  );
}
