import * as DialogPrimitive from '@radix-ui/react-dialog';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, Outlet, useRouter } from '@tanstack/react-router';
import { useState } from 'react';
import { api } from '../api/client';
import { canWrite, ROLE_LABELS, sessionSwitched, useSession } from '../api/session';
import { Button } from '../components/ui/button';
import { Select } from '../components/ui/field';
import { ErrorMessage } from '../components/ui/states';
import { useKeepFocusOnScreen } from '../lib/keep-focus';
import { RoleContext } from '../lib/permissions';

/** Every area of spec 1, after the home screen. */
const AREAS = [
  { to: '/', label: 'Home' },
  { to: '/publications', label: 'Publications' },
  { to: '/team', label: 'Team' },
  { to: '/api-keys', label: 'API keys' },
  { to: '/branding', label: 'Branding' },
  { to: '/webhooks', label: 'Webhooks' },
  { to: '/paywalls', label: 'Paywalls' },
  { to: '/segments', label: 'Segments' },
  { to: '/experiments', label: 'Experiments' },
  { to: '/catalog', label: 'Catalog' },
  { to: '/offers', label: 'Offers' },
  { to: '/retention', label: 'Retention' },
  { to: '/gifts', label: 'Gifts' },
  { to: '/organisations', label: 'Organisations' },
  { to: '/customers', label: 'Customers' },
  { to: '/imports', label: 'Import and export' },
  { to: '/stats', label: 'Stats' },
  { to: '/email', label: 'Email' },
  { to: '/audit-log', label: 'Audit log' },
] as const;

/**
 * The signed-in frame: from `lg` up a header with the publication switcher and a side navigation;
 * below it (tablets, phones) a Menu button opens the same navigation, switcher and account in a
 * panel, so the screen keeps its whole width.
 */
export function Shell() {
  const session = useSession();
  const [menuOpen, setMenuOpen] = useState(false);
  useKeepFocusOnScreen();

  return (
    <RoleContext.Provider value={session.publication.role}>
      <div className="min-h-screen">
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2">
          Skip to content
        </a>
        <header className="flex items-center gap-3 border-b border-slate-200 bg-white px-4 py-2 lg:gap-4 lg:px-6 lg:py-3">
          <DialogPrimitive.Root open={menuOpen} onOpenChange={setMenuOpen}>
            <DialogPrimitive.Trigger asChild>
              <Button variant="secondary" className="lg:hidden" aria-label="Menu">
                <span aria-hidden="true" className="text-lg leading-none">
                  ☰
                </span>
                Menu
              </Button>
            </DialogPrimitive.Trigger>
            <DialogPrimitive.Portal>
              <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-slate-900/50 lg:hidden" />
              <DialogPrimitive.Content className="fixed inset-y-0 start-0 z-50 flex w-[min(20rem,85vw)] flex-col gap-4 overflow-y-auto bg-white p-4 shadow-xl lg:hidden">
                <div className="flex items-center justify-between">
                  <DialogPrimitive.Title className="text-lg font-semibold text-brand-strong">Gatehouse</DialogPrimitive.Title>
                  <DialogPrimitive.Close asChild>
                    <Button variant="ghost" aria-label="Close the menu">
                      ✕
                    </Button>
                  </DialogPrimitive.Close>
                </div>
                <DialogPrimitive.Description className="sr-only">Areas, the current publication and your account</DialogPrimitive.Description>
                <PublicationSwitcher id="publication-switcher-menu" />
                <Areas onNavigate={() => setMenuOpen(false)} />
                <Account />
              </DialogPrimitive.Content>
            </DialogPrimitive.Portal>
          </DialogPrimitive.Root>
          <Link to="/" className="text-lg font-semibold text-brand-strong">
            Gatehouse
          </Link>
          <div className="hidden lg:block">
            <PublicationSwitcher id="publication-switcher" />
          </div>
          <div className="ms-auto hidden lg:block">
            <Account />
          </div>
        </header>
        <div className="flex">
          <nav aria-label="Areas" className="hidden min-h-[calc(100vh-61px)] w-52 shrink-0 border-e border-slate-200 bg-white p-3 lg:block">
            <AreaLinks />
          </nav>
          <main id="main" tabIndex={-1} className="min-w-0 flex-1 p-4 sm:p-6 lg:p-8">
            <div className="mx-auto max-w-5xl space-y-4">
              {!canWrite(session.publication) && (
                <div role="note" className="rounded-md border border-sky-300 bg-sky-50 px-4 py-2 text-sm text-sky-900">
                  You are a viewer of {session.publication.name}: you can look at everything, and controls that would change something are off (each says why).
                </div>
              )}
              <Outlet key={session.publication.id} />
            </div>
          </main>
        </div>
      </div>
    </RoleContext.Provider>
  );
}

function Areas({ onNavigate }: { onNavigate: () => void }) {
  return (
    <nav aria-label="Areas">
      <AreaLinks onNavigate={onNavigate} />
    </nav>
  );
}

function AreaLinks({ onNavigate }: { onNavigate?: () => void }) {
  return (
    <ul className="space-y-1">
      {AREAS.map((area) => (
        <li key={area.to}>
          <Link
            to={area.to}
            onClick={onNavigate}
            activeOptions={{ exact: area.to === '/' }}
            className="flex min-h-11 items-center rounded-md px-3 text-sm text-slate-700 hover:bg-slate-100 lg:min-h-9"
            activeProps={{ className: 'bg-slate-100 font-semibold text-slate-900', 'aria-current': 'page' }}
          >
            {area.label}
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** The current publication; choosing another switches the session to it (PUT /admin/session/publication). */
function PublicationSwitcher({ id }: { id: string }) {
  const session = useSession();
  const queryClient = useQueryClient();
  const switchPublication = useMutation({
    mutationFn: api.session.switchPublication,
    onSuccess: (view) => sessionSwitched(queryClient, view),
  });
  return (
    <div className="flex flex-col gap-1 lg:flex-row lg:items-center lg:gap-2">
      <label htmlFor={id} className="text-sm text-slate-700">
        Publication
      </label>
      <Select
        id={id}
        className="lg:w-56"
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
      <ErrorMessage error={switchPublication.error} />
    </div>
  );
}

function Account() {
  const session = useSession();
  const queryClient = useQueryClient();
  const router = useRouter();
  const signOut = useMutation({
    mutationFn: api.session.signOut,
    onSettled: () => {
      queryClient.clear();
      router.history.push('/dashboard/sign-in');
    },
  });
  return (
    <div className="flex flex-col gap-2 text-sm lg:flex-row lg:items-center lg:gap-3">
      <span className="break-all text-slate-700">
        {session.staff.email} · {ROLE_LABELS[session.publication.role]}
      </span>
      <Button variant="secondary" size="sm" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
        Sign out
      </Button>
    </div>
  );
}
