import { QueryClient } from '@tanstack/react-query';
import { createRootRoute, createRoute, createRouter, lazyRouteComponent, Outlet, redirect } from '@tanstack/react-router';
import { ApiError, whenSessionExpires } from './api/client';
import { keys, queries } from './api/queries';
import { Shell } from './screens/shell';
import { Loading } from './components/ui/states';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: (count, error) => !(error instanceof ApiError) && count < 2, refetchOnWindowFocus: false },
  },
});

const rootRoute = createRootRoute({ component: Outlet });

export interface SignInSearch {
  /** Where to go back to after signing in. */
  redirect?: string;
  expired?: boolean;
}

const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'sign-in',
  validateSearch: (search: Record<string, unknown>): SignInSearch => ({
    redirect: typeof search['redirect'] === 'string' && search['redirect'].startsWith('/') ? search['redirect'] : undefined,
    expired: search['expired'] === true || search['expired'] === 'true' ? true : undefined,
  }),
  component: lazyRouteComponent(() => import('./screens/sign-in'), 'SignIn'),
});

const invitationRoute = createRoute({ getParentRoute: () => rootRoute, path: 'invitation', component: lazyRouteComponent(() => import('./screens/accept-invitation'), 'AcceptInvitation') });

/** Every page behind sign-in: without a session, go to sign-in and come back here afterwards. */
const shellRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'signed-in',
  beforeLoad: async ({ location }) => {
    try {
      await queryClient.ensureQueryData(queries.session());
    } catch (error) {
      if (error instanceof ApiError && error.code === 'session_required') throw redirect({ to: '/sign-in', search: { redirect: location.href } });
      throw error;
    }
  },
  pendingComponent: () => <Loading what="your session" />,
  component: Shell,
});

function screen<const TPath extends string>(path: TPath, load: Parameters<typeof lazyRouteComponent>[0], exportName: string) {
  return createRoute({ getParentRoute: () => shellRoute, path, component: lazyRouteComponent(load, exportName), pendingComponent: () => <Loading what="the page" /> });
}

export interface EditSearch {
  /** The item whose editor is open, loaded by id: a link to it opens the same editor. */
  edit?: string;
}

/** A screen whose editor is a deep link, `?edit=<id>`. */
function editableScreen<const TPath extends string>(path: TPath, load: Parameters<typeof lazyRouteComponent>[0], exportName: string) {
  return createRoute({
    getParentRoute: () => shellRoute,
    path,
    validateSearch: (search: Record<string, unknown>): EditSearch => ({ edit: typeof search['edit'] === 'string' && search['edit'] ? search['edit'] : undefined }),
    component: lazyRouteComponent(load, exportName),
    pendingComponent: () => <Loading what="the page" />,
  });
}

const indexRoute = screen('/', () => import('./screens/home'), 'HomeScreen');

const routeTree = rootRoute.addChildren([
  signInRoute,
  invitationRoute,
  shellRoute.addChildren([
    indexRoute,
    screen('publications', () => import('./screens/publications'), 'PublicationsScreen'),
    screen('team', () => import('./screens/team'), 'TeamScreen'),
    screen('api-keys', () => import('./screens/api-keys'), 'ApiKeysScreen'),
    screen('branding', () => import('./screens/branding'), 'BrandingScreen'),
    screen('webhooks', () => import('./screens/webhooks'), 'WebhooksScreen'),
    editableScreen('paywalls', () => import('./screens/paywalls'), 'PaywallsScreen'),
    editableScreen('segments', () => import('./screens/segments'), 'SegmentsScreen'),
    screen('experiments', () => import('./screens/experiments'), 'ExperimentsScreen'),
    screen('catalog', () => import('./screens/catalog'), 'CatalogScreen'),
    screen('offers', () => import('./screens/offers'), 'OffersScreen'),
    screen('retention', () => import('./screens/retention'), 'RetentionScreen'),
    screen('gifts', () => import('./screens/gifts'), 'GiftsScreen'),
    screen('organisations', () => import('./screens/organisations'), 'OrganisationsScreen'),
    screen('customers', () => import('./screens/customers'), 'CustomersScreen'),
    screen('imports', () => import('./screens/imports'), 'ImportsScreen'),
    screen('stats', () => import('./screens/stats'), 'StatsScreen'),
    screen('email', () => import('./screens/email'), 'EmailScreen'),
    screen('audit-log', () => import('./screens/audit-log'), 'AuditLogScreen'),
  ]),
]);

export const router = createRouter({ routeTree, basepath: '/dashboard', context: {}, defaultPreload: 'intent' });

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

whenSessionExpires(() => {
  const { pathname, searchStr, hash } = router.state.location;
  // Only a session that existed can expire: a first visit is sent to sign-in by the shell's loader, without "expired".
  if (!queryClient.getQueryData(keys.session)) return;
  if (pathname.endsWith('/sign-in') || pathname.endsWith('/invitation')) return;
  queryClient.clear();
  void router.navigate({ to: '/sign-in', search: { redirect: `${pathname}${searchStr}${hash ? `#${hash}` : ''}`, expired: true } });
});
