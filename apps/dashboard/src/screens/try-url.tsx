import { useMutation } from '@tanstack/react-query';
import type { AccessCheckResult, AccessReason } from '@gatehouse/contracts';
import { useState, type FormEvent } from 'react';
import { api } from '../api/client';
import { useSession } from '../api/session';
import { Button } from '../components/ui/button';
import { Card } from '../components/ui/card';
import { Field, Input, Select } from '../components/ui/field';
import { ErrorMessage } from '../components/ui/states';

const WHY: Record<AccessReason, string> = {
  no_rule: 'no enabled paywall covers this page for this visitor',
  subscriber: 'the visitor is a subscriber',
  meter_allowance: 'the meter still has free articles',
  registered: 'the visitor is signed in',
  newsletter_passed: 'the visitor subscribed to the newsletter',
  data_passed: 'the visitor filled in the form',
  soft: 'the paywall is soft: a prompt the reader can dismiss',
  blocked: 'the paywall applies',
  search_crawler_granted: 'a verified search-engine crawler, granted by the crawler policy',
  search_crawler_denied: 'a verified search-engine crawler, denied by the crawler policy',
  ai_crawler_allowed: 'an AI crawler, allowed by the crawler policy',
  ai_crawler_denied: 'an AI crawler, denied by the crawler policy',
  shared_link: 'a subscriber shared this page with the visitor',
  pass: 'the visitor holds a time pass',
  single_article: 'the visitor bought this article',
  organisation: "the visitor holds an organisation's seat or reads from its network",
};

/** "Try a URL": the decision an anonymous visitor would get, and why; counted in no stats. */
export function TryUrl() {
  const { publication } = useSession();
  const host = publication.domains.find((domain) => !domain.startsWith('*.')) ?? 'example.com';
  const [url, setUrl] = useState(`https://${host}/`);
  const [device, setDevice] = useState<'' | 'desktop' | 'mobile' | 'tablet'>('');
  const [country, setCountry] = useState('');
  const [utmSource, setUtmSource] = useState('');
  const trial = useMutation({
    mutationFn: () => api.paywalls.tryUrl({ url, ...(device ? { device } : {}), ...(country ? { country } : {}), ...(utmSource ? { utm_source: utmSource } : {}) }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    trial.mutate();
  };
  return (
    <Card aria-labelledby="try-url-heading" className="space-y-3">
      <h2 id="try-url-heading" className="text-base font-semibold">Try a URL</h2>
      <p className="text-sm text-slate-600">The decision an anonymous visitor would get. Trials count in no stats and use up no meter.</p>
      <form className="grid gap-3 sm:grid-cols-[2fr_1fr_1fr_1fr_auto] sm:items-end" onSubmit={submit}>
        <Field label="Page URL">{(control) => <Input type="url" value={url} onChange={(e) => setUrl(e.target.value)} {...control} />}</Field>
        <Field label="Device">
          {(control) => (
            <Select value={device} onChange={(e) => setDevice(e.target.value as typeof device)} {...control}>
              <option value="">Desktop (this browser)</option>
              <option value="mobile">mobile</option>
              <option value="tablet">tablet</option>
              <option value="desktop">desktop</option>
            </Select>
          )}
        </Field>
        <Field label="Country">{(control) => <Input placeholder="DE" maxLength={2} value={country} onChange={(e) => setCountry(e.target.value)} {...control} />}</Field>
        <Field label="UTM source">{(control) => <Input value={utmSource} onChange={(e) => setUtmSource(e.target.value)} {...control} />}</Field>
        <Button type="submit" disabled={trial.isPending}>Try</Button>
      </form>
      <ErrorMessage error={trial.error} />
      {trial.data && <Decision result={trial.data} />}
    </Card>
  );
}

function Decision({ result }: { result: AccessCheckResult }) {
  return (
    <div role="status" className={`rounded-md border px-4 py-3 text-sm ${result.granted ? 'border-green-300 bg-green-50 text-green-900' : 'border-red-300 bg-red-50 text-red-900'}`}>
      <strong>{result.granted ? 'Granted' : 'Denied'}</strong>: {WHY[result.reason]}
      {result.paywallRule && <> — paywall “{result.paywallRule.name}” ({result.paywallRule.type}, shown as {result.paywallRule.presentation.replace('_', ' ')})</>}
      {result.meter && <>. Meter: {result.meter.used} of {result.meter.limit} this {result.meter.period}{result.granted ? '' : ' (an anonymous visitor has none)'}.</>}
    </div>
  );
}
