import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { GiftStatus, GiftView } from '@gatehouse/contracts';
import { useState } from 'react';
import { api } from '../api/client';
import { keys, queries } from '../api/queries';
import { Button } from '../components/ui/button';
import { Badge, Card, PageHeader, Table } from '../components/ui/card';
import { Empty, ErrorMessage, Loading } from '../components/ui/states';
import { formatDate, formatDateTime, formatMoney } from '../lib/format';

const STATUS: Record<GiftStatus, { label: string; tone: 'neutral' | 'good' | 'bad' | 'warn' }> = {
  pending: { label: 'not paid', tone: 'neutral' },
  purchased: { label: 'paid', tone: 'warn' },
  redeemed: { label: 'redeemed', tone: 'good' },
  voided: { label: 'voided', tone: 'bad' },
};

/** Where the gift stands for its recipient: when it is (or was) emailed, redeemed, or why it was voided. */
function progressOf(gift: GiftView): string {
  if (gift.status === 'voided') return `${gift.voidReason === 'refunded' ? 'Refunded' : 'Cancelled'} ${formatDateTime(gift.voidedAt)}`;
  if (gift.status === 'redeemed') return `Redeemed ${formatDateTime(gift.redeemedAt)}`;
  if (gift.status === 'pending') return 'Checkout not completed';
  if (gift.emailedAt) return `Emailed ${formatDateTime(gift.emailedAt)}`;
  return `To be emailed on ${formatDate(gift.sendAt)}`;
}

export function GiftsScreen() {
  const gifts = useQuery(queries.gifts());
  return (
    <>
      <PageHeader
        title="Gifts"
        description="Gift subscriptions readers bought for someone: paid once at the payment processor, emailed on the buyer's date, redeemed for a subscription that ends after its months. A refund at the processor voids a gift not redeemed yet; so does Void here, which refunds a paid gift's payment at the processor."
      />
      {gifts.isPending && <Loading what="gifts" />}
      {gifts.error && <ErrorMessage error={gifts.error} onRetry={() => void gifts.refetch()} />}
      {gifts.data?.length === 0 && (
        <Empty title="No gifts yet">
          Readers buy gifts with the <code>&lt;gatehouse-gift&gt;</code> element (gift.js) on your site; each one shows here once its checkout starts.
        </Empty>
      )}
      {gifts.data && gifts.data.length > 0 && (
        <Card aria-labelledby="gifts-heading" className="space-y-3">
          <h2 id="gifts-heading" className="text-base font-semibold">Gifts</h2>
          <Table>
            <caption className="sr-only">Gifts</caption>
            <thead className="bg-slate-50 text-xs uppercase text-slate-600">
              <tr>
                <th scope="col" className="px-2 py-2">Bought</th>
                <th scope="col" className="px-2 py-2">Gift</th>
                <th scope="col" className="px-2 py-2">From</th>
                <th scope="col" className="px-2 py-2">To</th>
                <th scope="col" className="px-2 py-2">Status</th>
                <th scope="col" className="px-2 py-2"><span className="sr-only">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              {gifts.data.map((gift) => (
                <GiftRow key={gift.id} gift={gift} />
              ))}
            </tbody>
          </Table>
        </Card>
      )}
    </>
  );
}

function GiftRow({ gift }: { gift: GiftView }) {
  const queryClient = useQueryClient();
  const voiding = useMutation({
    mutationFn: () => api.gifts.void(gift.id),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: keys.gifts.all }),
  });
  const [details, setDetails] = useState(false);
  const status = STATUS[gift.status];
  return (
    <tr className="border-t border-slate-100 align-top">
      <td className="px-2 py-2">{formatDateTime(gift.createdAt)}</td>
      <td className="px-2 py-2">
        {gift.productName}, {gift.months} {gift.months === 1 ? 'month' : 'months'}
        <p className="text-xs text-slate-600">{formatMoney(gift.amount, gift.currency)}</p>
      </td>
      <td className="px-2 py-2 break-all">{gift.buyerEmail}</td>
      <td className="px-2 py-2">
        {gift.recipientName}
        <p className="text-xs text-slate-600 break-all">{gift.recipientEmail}</p>
      </td>
      <td className="px-2 py-2">
        <Badge tone={status.tone}>{status.label}</Badge>
        <p className="text-xs text-slate-600">{progressOf(gift)}</p>
      </td>
      <td className="px-2 py-2 text-right">
        <div className="flex justify-end gap-1">
          <Button size="sm" variant="secondary" onClick={() => setDetails(!details)} aria-expanded={details} aria-label={`Details of the gift to ${gift.recipientName}`}>
            Details
          </Button>
          {(gift.status === 'pending' || gift.status === 'purchased') && (
            <Button requires="edit" size="sm" variant="secondary" onClick={() => voiding.mutate()} disabled={voiding.isPending} aria-label={`Void the gift to ${gift.recipientName}`}>
              Void
            </Button>
          )}
        </div>
        {details && <GiftDetails giftId={gift.id} />}
        <ErrorMessage error={voiding.error} />
      </td>
    </tr>
  );
}

/** The ids support staff look up: the gift's own, the buyer's and redeemer's accounts, the subscription it made. */
function GiftDetails({ giftId }: { giftId: string }) {
  const gift = useQuery(queries.gift(giftId));
  if (gift.isPending) return <Loading what="the gift" />;
  if (gift.error) return <ErrorMessage error={gift.error} onRetry={() => void gift.refetch()} />;
  const rows: Array<[string, string | null]> = [
    ['Gift', gift.data.id],
    ['Paid', formatDateTime(gift.data.purchasedAt)],
    ["Buyer's account", gift.data.buyerCustomerId],
    ['Redeemed by', gift.data.redeemedBy],
    ['Subscription', gift.data.subscriptionId],
  ];
  return (
    <dl className="mt-2 grid grid-cols-[max-content_1fr] gap-x-3 text-left text-xs">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="font-medium">{label}</dt>
          <dd className="break-all font-mono">{value ?? '—'}</dd>
        </div>
      ))}
    </dl>
  );
}
