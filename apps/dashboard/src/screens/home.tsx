import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { queries } from '../api/queries';
import { useSession } from '../api/session';
import { Button } from '../components/ui/button';
import { Card, PageHeader } from '../components/ui/card';
import { ErrorMessage } from '../components/ui/states';
import { LocalProcessor } from './local-processor';

/** While a step waits for something outside the dashboard (a page loading the snippet, a reader subscribing), it looks again this often. */
const WATCH_MS = 5_000;

type Screen = '/publications' | '/api-keys' | '/branding' | '/catalog' | '/paywalls' | '/customers';

interface Step {
  id: string;
  title: string;
  /** What to do, while it is not done. */
  todo: ReactNode;
  /** What is there, once it is. */
  done: ReactNode;
  /** Null while its state is loading; an error when it could not be read. */
  state: boolean | null | { error: unknown };
  screen: Screen;
  /** The link to the screen where it is done; worded unlike the navigation's areas, so each name leads one place. */
  action: string;
  extra?: ReactNode;
}

/**
 * The getting-started checklist (issue #28): every step ticks itself from the publication's real
 * state, read through the same admin routes as the screens; the two that wait for the outside
 * world (the snippet's first access check, the first subscriber) look again every few seconds.
 */
export function HomeScreen() {
  const session = useSession();
  const keyList = useQuery({ ...queries.apiKeys(), refetchInterval: (query) => (query.state.data?.some((k) => k.kind === 'publishable' && !k.revokedAt && k.lastUsedAt) ? false : WATCH_MS) });
  const branding = useQuery(queries.branding());
  const processor = useQuery(queries.processor());
  const prices = useQuery(queries.allPrices());
  const paywalls = useQuery(queries.paywalls());
  const subscribers = useQuery({ ...queries.subscribers(), refetchInterval: (query) => ((query.state.data ?? 0) > 0 ? false : WATCH_MS) });

  const publishable = keyList.data?.filter((key) => key.kind === 'publishable' && !key.revokedAt) ?? [];
  const stateOf = <T,>(query: { data?: T; error: unknown }, done: (data: T) => boolean): Step['state'] =>
    query.error ? { error: query.error } : query.data === undefined ? null : done(query.data);

  const steps: Step[] = [
    {
      id: 'domains',
      title: 'Name the domains of your site',
      todo: 'Paywalls and the SDK answer only for pages on these domains.',
      done: <>Pages on {session.publication.domains.join(', ')} can ask for access.</>,
      state: session.publication.domains.length > 0,
      screen: '/publications',
      action: 'Edit the domains',
    },
    {
      id: 'keys',
      title: 'Create a key pair',
      todo: 'A publishable key for your pages, a secret key for your servers.',
      done: <>Your publishable key is ready to paste, with the snippet, on the API keys screen.</>,
      state: stateOf(keyList, () => publishable.length > 0),
      screen: '/api-keys',
      action: 'Create a key pair',
    },
    {
      id: 'branding',
      title: 'Make the paywall look like your site',
      todo: 'Choose your colour, font, corners and logo: the built-in look is the generic one.',
      done: 'Your pages show your own branding.',
      state: stateOf(branding, (loaded) => loaded.configuration.brandingMode !== 'generic'),
      screen: '/branding',
      action: 'Choose your look',
    },
    {
      id: 'processor',
      title: 'Connect the payment processor',
      todo: 'Readers pay through it; checkouts fail until it is connected.',
      done: 'Checkouts go to your processor account, and its events come back signed.',
      state: stateOf(processor, (settings) => settings.configured),
      screen: '/catalog',
      action: 'Connect a processor',
      extra: processor.data && !processor.data.configured && processor.data.localTestKey && <LocalProcessor secretKey={processor.data.localTestKey} />,
    },
    {
      id: 'price',
      title: 'Create a product with a price on sale',
      todo: 'What readers buy: a product unlocks paywalls, its prices say what it costs.',
      done: 'Readers are offered your prices in the paywalls.',
      state: stateOf(prices, (all) => all.some(({ product, price }) => product.active && price.active)),
      screen: '/catalog',
      action: 'Add a product',
    },
    {
      id: 'paywall',
      title: 'Create a paywall',
      todo: 'Which pages it covers, for whom, and how it is shown.',
      done: 'Access checks on your pages now meet a paywall.',
      state: stateOf(paywalls, (list) => list.some((paywall) => paywall.enabled)),
      screen: '/paywalls',
      action: 'Create a paywall',
    },
    {
      id: 'snippet',
      title: 'Put the snippet on a page',
      todo: 'Paste the snippet from the API keys screen into your pages; this ticks itself when the first access check with your key arrives.',
      done: 'Your pages are asking Gatehouse who may read them.',
      state: stateOf(keyList, () => publishable.some((key) => key.lastUsedAt !== null)),
      screen: '/api-keys',
      action: 'Copy the snippet',
    },
    {
      id: 'subscriber',
      title: 'Welcome your first subscriber',
      todo: 'This ticks itself when a reader subscribes through a checkout, or when you grant someone a subscription.',
      done: 'Someone is reading as a subscriber.',
      state: stateOf(subscribers, (count) => count > 0),
      screen: '/customers',
      action: 'Grant a subscription',
    },
  ];
  const finished = steps.filter((step) => step.state === true).length;

  return (
    <>
      <PageHeader title="Home" description={`Getting ${session.publication.name} ready: each step ticks itself once it is done.`} />
      <Card aria-labelledby="checklist-heading" className="space-y-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="checklist-heading" className="text-base font-semibold">
            Getting started
          </h2>
          <span className="text-sm text-slate-700">
            {finished} of {steps.length} done
          </span>
        </div>
        <div role="progressbar" aria-label="Getting started" aria-valuemin={0} aria-valuemax={steps.length} aria-valuenow={finished} className="h-2 overflow-hidden rounded-full bg-slate-200">
          <div className="h-full rounded-full bg-brand transition-[width]" style={{ width: `${(finished / steps.length) * 100}%` }} />
        </div>
        {finished === steps.length && <p className="text-sm font-medium text-green-800">All done: {session.publication.name} is selling subscriptions.</p>}
        <ol className="divide-y divide-slate-100">
          {steps.map((step) => (
            <ChecklistStep key={step.id} step={step} />
          ))}
        </ol>
      </Card>
    </>
  );
}

function ChecklistStep({ step }: { step: Step }) {
  const done = step.state === true;
  const failed = step.state !== null && typeof step.state === 'object';
  return (
    <li className="flex flex-col gap-3 py-4 sm:flex-row sm:items-start" data-step={step.id} data-done={done}>
      <span
        aria-hidden="true"
        className={`flex h-7 w-7 shrink-0 items-center justify-center rounded-full border-2 text-sm font-bold ${done ? 'border-green-700 bg-green-700 text-white' : 'border-slate-300 text-transparent'}`}
      >
        ✓
      </span>
      <div className="min-w-0 flex-1 space-y-1">
        <h3 className="font-medium">
          <span className="sr-only">{done ? 'Done: ' : step.state === null ? 'Checking: ' : 'To do: '}</span>
          {step.title}
        </h3>
        <p className="text-sm text-slate-600">{done ? step.done : step.todo}</p>
        {failed && <ErrorMessage error={(step.state as { error: unknown }).error} />}
        {!done && step.extra}
      </div>
      <Button asChild size="sm" variant={done ? 'ghost' : 'secondary'} className="self-start">
        <Link to={step.screen}>{step.action}</Link>
      </Button>
    </li>
  );
}
