import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CustomerRecord, PriceView, SubscriptionView } from '@gatehouse/contracts';
import { useState, type FormEvent } from 'react';
import { api } from '../api/client';
import { Button } from '../components/ui/button';
import { Badge, Card, PageHeader } from '../components/ui/card';
import { ConfirmDialog } from '../components/ui/dialog';
import { Field, Input, Select } from '../components/ui/field';
import { Empty, ErrorMessage, Loading, Notice } from '../components/ui/states';
import { formatDate, formatPrice } from '../lib/format';

const date = formatDate;
const money = (price: PriceView) => `${formatPrice(price)}${price.interval === 'lifetime' ? ' once' : ` a ${price.interval}`}`;

export function CustomersScreen() {
  const [email, setEmail] = useState('');
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<CustomerRecord | null>(null);
  const customers = useQuery({ queryKey: ['customers', search], queryFn: () => api.customers.find(search) });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSearch(email.trim().toLowerCase());
    setSelected(null);
  };

  return (
    <>
      <PageHeader title="Customers" description="Your readers with an account: their subscriptions, manual grants and cancellations." />
      <form role="search" className="flex items-end gap-2" onSubmit={submit}>
        <div className="flex-1">
          <Field label="Find by email">{(control) => <Input type="email" value={email} onChange={(e) => setEmail(e.target.value)} {...control} />}</Field>
        </div>
        <Button type="submit">Search</Button>
      </form>
      {customers.isPending && <Loading what="customers" />}
      {customers.error && <ErrorMessage error={customers.error} onRetry={() => void customers.refetch()} />}
      {customers.data?.length === 0 && (
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
      {selected && <CustomerPage customer={selected} onClose={() => setSelected(null)} onDeleted={() => { setSelected(null); void customers.refetch(); }} />}
    </>
  );
}

function CustomerPage({ customer, onClose, onDeleted }: { customer: CustomerRecord; onClose: () => void; onDeleted: () => void }) {
  const queryClient = useQueryClient();
  const key = ['subscriptions', customer.id];
  const subscriptions = useQuery({ queryKey: key, queryFn: () => api.subscriptions.ofCustomer(customer.id) });
  const prices = useQuery({
    queryKey: ['prices'],
    queryFn: async () => (await Promise.all((await api.catalog.products()).map(async (product) => (await api.catalog.prices(product.id)).map((price) => ({ product, price }))))).flat(),
  });
  const [notice, setNotice] = useState<string | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: key });
  const cancel = useMutation({
    mutationFn: (args: { id: string; atPeriodEnd: boolean }) => api.subscriptions.cancel(args.id, args.atPeriodEnd),
    onSuccess: (s) => setNotice(s.cancelAtPeriodEnd && s.status !== 'cancelled' ? `It ends on ${date(s.currentPeriodEnd)}.` : 'Cancelled now.'),
    onSettled: refresh,
  });
  const remove = useMutation({ mutationFn: () => api.customers.remove(customer.id), onSuccess: onDeleted });
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
          <ConfirmDialog
            trigger={<Button size="sm" variant="danger">Delete customer</Button>}
            title={`Delete ${customer.email}?`}
            consequence="Their account, sign-in sessions and tokens are removed at once and the email may register again. Their subscription records stay for your accounts; cancel them first if they should stop."
            confirmLabel="Delete customer"
            onConfirm={() => remove.mutate()}
          />
        </div>
      </div>
      {notice && <Notice>{notice}</Notice>}
      <ErrorMessage error={cancel.error ?? remove.error} />
      <h3 className="font-semibold">Subscriptions</h3>
      {subscriptions.isPending && <Loading what="subscriptions" />}
      {subscriptions.error && <ErrorMessage error={subscriptions.error} />}
      {subscriptions.data?.length === 0 && <p className="text-sm text-slate-600">No subscriptions. Grant one below.</p>}
      {subscriptions.data && subscriptions.data.length > 0 && (
        <table className="w-full text-left text-sm">
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
                    {s.status !== 'cancelled' && (
                      <div className="flex justify-end gap-1">
                        {!s.cancelAtPeriodEnd && (
                          <Button size="sm" variant="secondary" onClick={() => cancel.mutate({ id: s.subscriptionId, atPeriodEnd: true })}>Cancel at period end</Button>
                        )}
                        <ConfirmDialog
                          trigger={<Button size="sm" variant="danger">Cancel now</Button>}
                          title="Cancel this subscription now?"
                          consequence="The customer loses access at once; nothing is refunded by this action."
                          confirmLabel="Cancel now"
                          onConfirm={() => cancel.mutate({ id: s.subscriptionId, atPeriodEnd: false })}
                        />
                      </div>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <Grant customerId={customer.id} prices={prices.data ?? []} onGranted={(s) => { setNotice(`Granted until ${date(s.currentPeriodEnd)}.`); refresh(); }} />
    </Card>
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
      <Field label="Grant a subscription to">
        {(control) => (
          <Select value={priceId} onChange={(e) => setPriceId(e.target.value)} {...control}>
            {prices.map(({ product, price }) => <option key={price.id} value={price.id}>{product.name}, {money(price)}</option>)}
          </Select>
        )}
      </Field>
      <Field label="Until (optional)">{(control) => <Input type="date" value={until} onChange={(e) => setUntil(e.target.value)} {...control} />}</Field>
      <Button type="submit" disabled={grant.isPending}>Grant</Button>
      <div className="sm:col-span-3"><ErrorMessage error={grant.error} /></div>
    </form>
  );
}
