import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AiCrawlerRule, SearchCrawlerRule } from '@gatehouse/contracts';
import { useState, type FormEvent } from 'react';
import { api } from '../api/client';
import { queries } from '../api/queries';
import { Button } from '../components/ui/button';
import { Card } from '../components/ui/card';
import { Field, Select, GuardedFields } from '../components/ui/field';
import { ErrorMessage, Loading, Notice } from '../components/ui/states';
import { formatDateTime } from '../lib/format';

const SEARCH: Record<SearchCrawlerRule, string> = {
  grant: 'Let them read the page',
  meter: 'Decide as for any visitor',
  deny: 'Refuse the page',
};
const AI: Record<AiCrawlerRule, string> = {
  allow: 'Let them read the page',
  meter: 'Decide as for any visitor',
  deny: 'Refuse the page',
};

/** How the paywalls treat verified search engines and AI crawlers (docs/server.md, "Crawler policy"). */
export function CrawlerPolicyCard() {
  const queryClient = useQueryClient();
  const policy = useQuery(queries.crawlerPolicy());
  // Here rather than in the form, which starts afresh with the saved policy.
  const [saved, setSaved] = useState(false);
  return (
    <Card aria-labelledby="crawler-heading" className="space-y-3">
      <h2 id="crawler-heading" className="text-base font-semibold">Crawlers</h2>
      <p className="text-sm text-slate-600">
        On pages a paywall covers: search engines are verified by their address; AI crawlers (GPTBot, ClaudeBot, CCBot, …) are known by their User-Agent.
      </p>
      {policy.isPending && <Loading what="the crawler policy" />}
      {policy.error && <ErrorMessage error={policy.error} onRetry={() => void policy.refetch()} />}
      {saved && <Notice>Saved: the next access check follows it.</Notice>}
      {policy.data && (
        <CrawlerForm
          key={policy.data.updatedAt ?? 'default'}
          initial={policy.data}
          onSaving={() => setSaved(false)}
          onSaved={(policy) => {
            queryClient.setQueryData(queries.crawlerPolicy().queryKey, policy);
            setSaved(true);
          }}
        />
      )}
    </Card>
  );
}

function CrawlerForm({
  initial,
  onSaving,
  onSaved,
}: {
  onSaving: () => void;
  initial: { searchEngines: SearchCrawlerRule; aiCrawlers: AiCrawlerRule; updatedAt: string | null };
  onSaved: (saved: { searchEngines: SearchCrawlerRule; aiCrawlers: AiCrawlerRule; updatedAt: string | null }) => void;
}) {
  const [searchEngines, setSearchEngines] = useState(initial.searchEngines);
  const [aiCrawlers, setAiCrawlers] = useState(initial.aiCrawlers);
  const save = useMutation({ mutationFn: () => api.crawlerPolicy.save({ searchEngines, aiCrawlers }), onMutate: onSaving, onSuccess: onSaved });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form aria-label="Crawler policy" className="space-y-3" onSubmit={submit}>
      <GuardedFields requires="edit" className="grid gap-3 sm:grid-cols-2">
        <Field label="Search engines">
          {(control) => (
            <Select value={searchEngines} onChange={(e) => setSearchEngines(e.target.value as SearchCrawlerRule)} {...control}>
              {Object.entries(SEARCH).map(([value, label]) => <option key={value} value={value}>{label}</option>)}
            </Select>
          )}
        </Field>
        <Field
          label="AI crawlers"
          hint={
            aiCrawlers === 'allow'
              ? 'Warning: AI crawlers cannot be verified, so this makes covered pages free to anyone who sends an AI crawler’s User-Agent (GPTBot, ClaudeBot, …).'
              : 'Known by User-Agent alone: anyone can claim to be one.'
          }
        >
          {(control) => (
            <Select value={aiCrawlers} onChange={(e) => setAiCrawlers(e.target.value as AiCrawlerRule)} {...control}>
              {Object.entries(AI).map(([value, label]) => <option key={value} value={value}>{label}</option>)}
            </Select>
          )}
        </Field>
      </GuardedFields>
      <p className="text-xs text-slate-600">{initial.updatedAt ? `Last changed ${formatDateTime(initial.updatedAt)}.` : 'Never changed: both are decided as for any visitor.'}</p>
      <ErrorMessage error={save.error} />
      <div className="flex justify-end">
        <Button requires="edit" type="submit" disabled={save.isPending}>Save crawler policy</Button>
      </div>
    </form>
  );
}
