import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, Outlet, useRouter } from '@tanstack/react-router';
import { api } from '../api/client';
import { keys } from '../api/queries';
import { canWrite, ROLE_LABELS, useSession } from '../api/session';
import { Button } from '../components/ui/button';
import { Select } from '../components/ui/field';
import { ErrorMessage } from '../components/ui/states';

/** Every area of spec 1. */
const AREAS = [
  { to: '/publications', label: 'Publications' },
  { to: '/team', label: 'Team' },
  { to: '/api-keys', label: 'API keys' },
  { to: '/branding', label: 'Branding' },
  { to: '/webhooks', label: 'Webhooks' },
  { to: '/paywalls', label: 'Paywalls' },
  { to: '/segments', label: 'Segments' },
  { to: '/experiments', label: 'Experiments' },
  { to: '/catalog', label: 'Catalog' },
  { to: '/customers', label: 'Customers' },
  { to: '/stats', label: 'Stats' },
  { to: '/email', label: 'Email' },
] as const;

export function Shell() {
  const session = useSession();
  const queryClient = useQueryClient();
  const router = useRouter();
  const switchPublication = useMutation({
    mutationFn: api.session.switchPublication,
    onSuccess: (view) => {
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== keys.session[0] });
      queryClient.setQueryData(keys.session, view);
    },
  });
  const signOut = useMutation({
    mutationFn: api.session.signOut,
    onSettled: () => {
      queryClient.clear();
      router.history.push('/dashboard/sign-in');
    },
  });

  return (
    <div className="min-h-screen">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2">
        Skip to content
      </a>
      <header className="flex flex-wrap items-center gap-4 border-b border-slate-200 bg-white px-6 py-3">
        <span className="text-lg font-semibold text-brand-strong">Gatehouse</span>
        <div className="flex items-center gap-2">
          <label htmlFor="publication-switcher" className="text-sm text-slate-700">
            Publication
          </label>
          <Select
            id="publication-switcher"
            className="w-56"
            value={session.publication.id}
            disabled={switchPublication.isPending}
            onChange={(event) => switchPublication.mutate(event.target.value)}
          >
            {session.publications.map((publication) => (
              <option key={publication.id} value={publication.id}>
                {publication.name}
              </option>
            ))}
          </Select>
        </div>
        <div className="ml-auto flex items-center gap-3 text-sm">
          <span className="text-slate-700">
            {session.staff.email} · {ROLE_LABELS[session.publication.role]}
          </span>
          <Button variant="secondary" size="sm" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
            Sign out
          </Button>
        </div>
      </header>
      <div className="flex">
        <nav aria-label="Areas" className="min-h-[calc(100vh-57px)] w-52 shrink-0 border-r border-slate-200 bg-white p-3">
          <ul className="space-y-1">
            {AREAS.map((area) => (
              <li key={area.to}>
                <Link
                  to={area.to}
                  className="block rounded-md px-3 py-2 text-sm text-slate-700 hover:bg-slate-100"
                  activeProps={{ className: 'bg-slate-100 font-semibold text-slate-900', 'aria-current': 'page' }}
                >
                  {area.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" tabIndex={-1} className="flex-1 p-6 lg:p-8">
          <div className="mx-auto max-w-5xl space-y-4">
            {switchPublication.error && <ErrorMessage error={switchPublication.error} />}
            {!canWrite(session.publication) && (
              <div role="note" className="rounded-md border border-sky-300 bg-sky-50 px-4 py-2 text-sm text-sky-900">
                You are a viewer of {session.publication.name}: you can look at everything, and the gateway refuses any change you try.
              </div>
            )}
            <Outlet key={session.publication.id} />
          </div>
        </main>
      </div>
    </div>
  );
}
