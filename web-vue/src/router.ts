/**
 * The routes (history mode) and the one guard: wait for the start-up session check, send
 * signed-out visitors to sign-in and signed-in ones away from it. While the service is
 * unavailable at start-up App.vue shows that page instead of any route.
 *
 * Every page is part of the app's one bundle, not loaded lazily: a page fetched on its
 * first click would meet an outage with no hint, no limit and no words ("Failed to fetch
 * dynamically imported module"), outside every rule of the request layer. Loaded ahead,
 * a page opens at once and its own reads wait, hint and word their failure (adr/0013).
 */
import { createRouter, createWebHistory, type RouteRecordRaw } from 'vue-router';
import AccountPage from './pages/AccountPage.vue';
import CheckByKeyPage from './pages/CheckByKeyPage.vue';
import DashboardPage from './pages/DashboardPage.vue';
import DepositPage from './pages/DepositPage.vue';
import ManageAccountPage from './pages/ManageAccountPage.vue';
import NotFoundPage from './pages/NotFoundPage.vue';
import SignInPage from './pages/SignInPage.vue';
import SignUpPage from './pages/SignUpPage.vue';
import TransferPage from './pages/TransferPage.vue';
import WithdrawPage from './pages/WithdrawPage.vue';
import { usePageAlertStore } from './stores/pageAlert.ts';
import { useSessionStore } from './stores/session.ts';

declare module 'vue-router' {
  interface RouteMeta {
    /** The document title's first part (useDocumentTitle sets it). */
    title: string;
    /** 'app' (signed in) or 'public'. */
    layout: 'app' | 'public';
    /** Only for signed-out visitors. */
    guestOnly?: boolean;
  }
}

/** Every page. */
const routes: RouteRecordRaw[] = [
  { path: '/', name: 'dashboard', component: DashboardPage, meta: { title: 'Your accounts', layout: 'app' } },
  { path: '/sign-in', name: 'sign-in', component: SignInPage, meta: { title: 'Sign in', layout: 'public', guestOnly: true } },
  { path: '/sign-up', name: 'sign-up', component: SignUpPage, meta: { title: 'Open your Tidewater account', layout: 'public', guestOnly: true } },
  { path: '/accounts/:accountId', name: 'account', component: AccountPage, props: true, meta: { title: 'Account', layout: 'app' } },
  { path: '/accounts/:accountId/deposit', name: 'deposit', component: DepositPage, props: true, meta: { title: 'Deposit money', layout: 'app' } },
  { path: '/accounts/:accountId/withdraw', name: 'withdraw', component: WithdrawPage, props: true, meta: { title: 'Withdraw money', layout: 'app' } },
  { path: '/accounts/:accountId/manage', name: 'manage', component: ManageAccountPage, props: true, meta: { title: 'Manage account', layout: 'app' } },
  { path: '/accounts/:accountId/check/:idempotencyKey', name: 'check', component: CheckByKeyPage, props: true, meta: { title: 'Did it go through?', layout: 'app' } },
  { path: '/transfer', name: 'transfer', component: TransferPage, meta: { title: 'Transfer money', layout: 'app' } },
  { path: '/:pathMatch(.*)*', name: 'not-found', component: NotFoundPage, meta: { title: 'Page not found', layout: 'public' } },
];

/** Creates the router with its guard. */
export function createAppRouter() {
  const router = createRouter({ history: createWebHistory(), routes });

  router.beforeEach(async (to) => {
    const session = useSessionStore();
    await session.whenStarted();
    if (session.status === 'unavailable' || to.name === 'not-found') return true;
    const signedIn = session.status === 'signedIn';
    if (to.meta.layout === 'app' && !signedIn) return { name: 'sign-in', query: to.fullPath === '/' ? {} : { next: to.fullPath } };
    if (to.meta.guestOnly && signedIn) return { name: 'dashboard' };
    return true;
  });

  router.afterEach((to, from) => {
    const alert = usePageAlertStore();
    alert.clear();
    alert.disarm();
    // Move focus to the new page's heading so a screen reader hears where it landed (not on first load).
    if (from.matched.length > 0) setTimeout(() => document.querySelector<HTMLElement>('main h1')?.focus(), 0);
  });

  return router;
}
