import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CancellationReason, SaveKind, WinBackSettingsView } from '@gatehouse/contracts';
import { useState, type FormEvent } from 'react';
import { api, ApiError } from '../api/client';
import { queries } from '../api/queries';
import { Button } from '../components/ui/button';
import { Card, PageHeader, Table } from '../components/ui/card';
import { Field, GuardedFields, Input, Select } from '../components/ui/field';
import { ErrorMessage, Loading, Notice } from '../components/ui/states';
import { formatPrice } from '../lib/format';
import { offerSummary } from './offers';

/** What readers read for a reason unless staff write their own (the account element's English). */
const READER_WORDS: Record<CancellationReason, string> = {
  too_expensive: 'It costs too much',
  unused: 'I don’t read it enough',
  switched_service: 'I found another source',
  missing_features: 'Something I need is missing',
  low_quality: 'The content isn’t good enough',
  too_complex: 'It’s too hard to use',
  customer_service: 'I had a bad support experience',
  other: 'Another reason',
};

type Reasons = Awaited<ReturnType<typeof api.cancellation.reasons>>;
/** A save offer as the API carries it: `offerId`, `months` or `priceId` by its kind. */
type SaveSetting = { kind: SaveKind; offerId?: string; months?: number; priceId?: string };

/** The select's value for a save offer: `kind:value`, empty for none. */
const choiceOf = (save: SaveSetting | null): string => (save ? `${save.kind}:${save.offerId ?? save.months ?? save.priceId}` : '');

function saveOf(choice: string): SaveSetting | null {
  const [kind, value] = choice.split(':');
  if (kind === 'discount') return { kind, offerId: value };
  if (kind === 'pause') return { kind, months: Number(value) };
  if (kind === 'plan_change') return { kind, priceId: value };
  return null;
}

/**
 * Cancellation that tries to save, and win-back (issue #27 items 2 and 5): the reasons readers pick
 * from when they cancel, each with the save offer it brings, and the email former subscribers get.
 */
export function RetentionScreen() {
  return (
    <>
      <PageHeader
        title="Retention"
        description="What readers see when they cancel in the account element — the reasons and a save offer for each — and the win-back email that brings former subscribers an offer."
      />
      <div className="space-y-6">
        <ReasonsCard />
        <WinBackCard />
      </div>
    </>
  );
}

function ReasonsCard() {
  const queryClient = useQueryClient();
  const reasons = useQuery(queries.cancellationReasons());
  const [saved, setSaved] = useState(false);
  return (
    <Card aria-labelledby="reasons-heading" className="space-y-3">
      <h2 id="reasons-heading" className="text-base font-semibold">Cancellation reasons and save offers</h2>
      <p className="text-sm text-slate-600">
        A discount applies the offer to the reader's subscription; a pause stops collection for the months chosen; a cheaper plan switches at the period end. Readers who decline cancel at the period end.
      </p>
      {reasons.isPending && <Loading what="the reasons" />}
      {reasons.error && <ErrorMessage error={reasons.error} onRetry={() => void reasons.refetch()} />}
      {saved && <Notice>Saved: readers who cancel from now on see these reasons and offers.</Notice>}
      {reasons.data && (
        <ReasonsForm
          initial={reasons.data}
          onSaving={() => setSaved(false)}
          onSaved={(next) => {
            queryClient.setQueryData(queries.cancellationReasons().queryKey, next);
            setSaved(true);
          }}
        />
      )}
    </Card>
  );
}

function ReasonsForm({ initial, onSaving, onSaved }: { initial: Reasons; onSaving: () => void; onSaved: (saved: Reasons) => void }) {
  const offers = useQuery(queries.offers());
  const prices = useQuery(queries.allPrices());
  const [rows, setRows] = useState(initial.reasons.map((row) => ({ ...row, label: row.label ?? '', choice: choiceOf(row.save) })));
  const save = useMutation({
    mutationFn: () =>
      api.cancellation.saveReasons({
        reasons: rows.map(({ reason, label, enabled, choice }) => ({ reason, label: label.trim() || null, enabled, save: saveOf(choice) })),
      }),
    onMutate: onSaving,
    onSuccess: onSaved,
  });
  const change = (index: number, patch: Partial<(typeof rows)[number]>) => setRows(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  const move = (index: number, by: -1 | 1) => {
    const next = [...rows];
    [next[index], next[index + by]] = [next[index + by], next[index]];
    setRows(next);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const discounts = (offers.data ?? []).filter((offer) => offer.kind !== 'trial');
  const recurring = (prices.data ?? []).filter(({ price }) => price.interval === 'month' || price.interval === 'year');
  return (
    <form aria-label="Cancellation reasons" onSubmit={submit} className="space-y-3">
      <GuardedFields requires="edit">
        <Table>
          <thead>
            <tr>
              <th scope="col">Shown</th>
              <th scope="col">Reason</th>
              <th scope="col">Label readers see</th>
              <th scope="col">Save offer</th>
              <th scope="col">Order</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => (
              <tr key={row.reason}>
                <td>
                  <input type="checkbox" aria-label={`Show “${READER_WORDS[row.reason as CancellationReason]}”`} checked={row.enabled} onChange={(e) => change(index, { enabled: e.target.checked })} />
                </td>
                <td className="font-mono text-xs">{row.reason}</td>
                <td>
                  <Field label={<span className="sr-only">Label for {row.reason}</span>}>
                    {(control) => <Input maxLength={120} placeholder={READER_WORDS[row.reason as CancellationReason]} value={row.label} onChange={(e) => change(index, { label: e.target.value })} {...control} />}
                  </Field>
                </td>
                <td>
                  <Field label={<span className="sr-only">Save offer for {row.reason}</span>}>
                    {(control) => (
                      <Select value={row.choice} onChange={(e) => change(index, { choice: e.target.value })} {...control}>
                        <option value="">None</option>
                        <optgroup label="Discount">
                          {discounts.map((offer) => (
                            <option key={offer.id} value={`discount:${offer.id}`}>
                              {offer.code}: {offerSummary(offer)}
                            </option>
                          ))}
                        </optgroup>
                        <optgroup label="Pause">
                          {[1, 2, 3].map((months) => (
                            <option key={months} value={`pause:${months}`}>
                              Pause {months} {months === 1 ? 'month' : 'months'}
                            </option>
                          ))}
                        </optgroup>
                        <optgroup label="Cheaper plan">
                          {recurring.map(({ product, price }) => (
                            <option key={price.id} value={`plan_change:${price.id}`}>
                              {product.name} {formatPrice(price)}
                            </option>
                          ))}
                        </optgroup>
                      </Select>
                    )}
                  </Field>
                </td>
                <td className="whitespace-nowrap">
                  <Button type="button" variant="ghost" size="sm" aria-label={`Move ${row.reason} up`} disabled={index === 0} onClick={() => move(index, -1)}>↑</Button>
                  <Button type="button" variant="ghost" size="sm" aria-label={`Move ${row.reason} down`} disabled={index === rows.length - 1} onClick={() => move(index, 1)}>↓</Button>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      </GuardedFields>
      <ErrorMessage error={save.error} />
      <div className="flex justify-end">
        <Button requires="edit" type="submit" disabled={save.isPending}>Save reasons</Button>
      </div>
    </form>
  );
}

function WinBackCard() {
  const queryClient = useQueryClient();
  const settings = useQuery(queries.winBack());
  const [saved, setSaved] = useState(false);
  return (
    <Card aria-labelledby="win-back-heading" className="space-y-3">
      <h2 id="win-back-heading" className="text-base font-semibold">Win-back email</h2>
      <p className="text-sm text-slate-600">Some days after a subscription ends, the former subscriber is emailed an offer code (once), unless they subscribed again. Its copy is on the Email screen.</p>
      {settings.isPending && <Loading what="the win-back setting" />}
      {settings.error && <ErrorMessage error={settings.error} onRetry={() => void settings.refetch()} />}
      {saved && <Notice>Saved.</Notice>}
      {settings.data && (
        <WinBackForm
          initial={settings.data}
          onSaving={() => setSaved(false)}
          onSaved={(next) => {
            queryClient.setQueryData(queries.winBack().queryKey, next);
            setSaved(true);
          }}
        />
      )}
    </Card>
  );
}

function WinBackForm({ initial, onSaving, onSaved }: { initial: WinBackSettingsView; onSaving: () => void; onSaved: (saved: WinBackSettingsView) => void }) {
  const offers = useQuery(queries.offers());
  const [enabled, setEnabled] = useState(initial.enabled);
  const [days, setDays] = useState(String(initial.days));
  const [offerId, setOfferId] = useState(initial.offerId ?? '');
  const save = useMutation({
    mutationFn: () => api.cancellation.saveWinBack({ enabled, days: Number(days), offerId: offerId || null }),
    onMutate: onSaving,
    onSuccess: onSaved,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const fieldError = (field: string) => (save.error instanceof ApiError ? save.error.fieldError(field) : undefined);
  return (
    <form aria-label="Win-back" className="space-y-3" onSubmit={submit}>
      <GuardedFields requires="edit" className="grid gap-3 sm:grid-cols-2">
        <Field label="Days after the subscription ends" hint="1 to 365" error={fieldError('days')}>
          {(control) => <Input type="number" min={1} max={365} value={days} onChange={(e) => setDays(e.target.value)} {...control} />}
        </Field>
        <Field label="Offer in the email" hint="Needed to turn it on" error={fieldError('offerId')}>
          {(control) => (
            <Select value={offerId} onChange={(e) => setOfferId(e.target.value)} {...control}>
              <option value="">None</option>
              {(offers.data ?? []).map((offer) => (
                <option key={offer.id} value={offer.id}>
                  {offer.code}: {offerSummary(offer)}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <label className="flex items-center gap-2 text-sm sm:col-span-2">
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
          Send win-back email
        </label>
      </GuardedFields>
      <ErrorMessage error={save.error} />
      <div className="flex justify-end">
        <Button requires="edit" type="submit" disabled={save.isPending}>Save win-back</Button>
      </div>
    </form>
  );
}
