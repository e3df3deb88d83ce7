import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ShareSettings } from '@gatehouse/contracts';
import { useState, type FormEvent } from 'react';
import { api } from '../api/client';
import { queries } from '../api/queries';
import { Button } from '../components/ui/button';
import { Card } from '../components/ui/card';
import { Field, GuardedFields, Input } from '../components/ui/field';
import { ErrorMessage, Loading, Notice } from '../components/ui/states';

/** Shared articles (docs/access.md#shared-articles): whether subscribers may share, and within what limits. */
export function ShareSettingsCard() {
  const queryClient = useQueryClient();
  const settings = useQuery(queries.shareSettings());
  const [saved, setSaved] = useState(false);
  return (
    <Card aria-labelledby="sharing-heading" className="space-y-3">
      <h2 id="sharing-heading" className="text-base font-semibold">Shared articles</h2>
      <p className="text-sm text-slate-600">A subscriber can send a link that opens one article for anyone, a number of times and for a while, with an offer to subscribe.</p>
      {settings.isPending && <Loading what="the sharing settings" />}
      {settings.error && <ErrorMessage error={settings.error} onRetry={() => void settings.refetch()} />}
      {saved && <Notice>Saved: new links follow it; links already sent keep their opens and end.</Notice>}
      {settings.data && (
        <ShareForm
          key={settings.data.updatedAt ?? 'default'}
          initial={settings.data}
          onSaving={() => setSaved(false)}
          onSaved={(next) => {
            queryClient.setQueryData(queries.shareSettings().queryKey, next);
            setSaved(true);
          }}
        />
      )}
    </Card>
  );
}

function ShareForm({ initial, onSaving, onSaved }: { initial: ShareSettings; onSaving: () => void; onSaved: (saved: ShareSettings) => void }) {
  const [enabled, setEnabled] = useState(initial.enabled);
  const [opensPerLink, setOpens] = useState(String(initial.opensPerLink));
  const [linkLifetimeHours, setHours] = useState(String(initial.linkLifetimeHours));
  const [monthlyAllowance, setAllowance] = useState(String(initial.monthlyAllowance));
  const save = useMutation({
    mutationFn: () => api.shareSettings.save({ enabled, opensPerLink: Number(opensPerLink), linkLifetimeHours: Number(linkLifetimeHours), monthlyAllowance: Number(monthlyAllowance) }),
    onMutate: onSaving,
    onSuccess: onSaved,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form aria-label="Sharing settings" className="space-y-3" onSubmit={submit}>
      <GuardedFields requires="edit" className="grid gap-3 sm:grid-cols-3">
        <Field label="Opens per link" hint="1 to 1,000">
          {(control) => <Input type="number" min={1} max={1000} value={opensPerLink} onChange={(e) => setOpens(e.target.value)} {...control} />}
        </Field>
        <Field label="Link lifetime (hours)" hint="1 to 8,760">
          {(control) => <Input type="number" min={1} max={8760} value={linkLifetimeHours} onChange={(e) => setHours(e.target.value)} {...control} />}
        </Field>
        <Field label="Links per subscriber a month" hint="1 to 1,000">
          {(control) => <Input type="number" min={1} max={1000} value={monthlyAllowance} onChange={(e) => setAllowance(e.target.value)} {...control} />}
        </Field>
        <label className="flex items-center gap-2 text-sm sm:col-span-3">
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
          Subscribers may share articles
        </label>
      </GuardedFields>
      <ErrorMessage error={save.error} />
      <div className="flex justify-end">
        <Button requires="edit" type="submit" disabled={save.isPending}>Save sharing settings</Button>
      </div>
    </form>
  );
}
