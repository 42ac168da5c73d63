/**
 * The visitor's session with the BFF (adr/0009). The browser never holds
 * a token: the BFF's cookie does; this store keeps who is signed in, the CSRF token, and
 * the SPA's copy of the inactivity clock.
 *
 * Sign-out rules: a 5xx, a lost connection or no answer never signs anyone out. At start-up
 * only a 4xx from /bff/session means signed out; anything else is 'unavailable' with
 * "Try again". A sign-out that fails with anything but a 401 ends nothing. At 0:00 of the
 * inactivity countdown the session ends as expired even if the check fails, so no
 * account data stays on screen.
 */
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { components } from '@tidewater/spec/openapi';
import type { ApiProblem } from '../api/apiProblem.ts';
import type { RegisterBody, SessionInfo } from '../api/bffClient.ts';
import { useClients } from '../api/instance.ts';
import type { Result } from '../api/result.ts';
import { SESSION_CHECK_MS } from '../api/timings.ts';
import { sessionMessages } from '../messages.ts';

type User = components['schemas']['User'];

/** Where the session stands. */
export type SessionStatus = 'checking' | 'signedIn' | 'signedOut' | 'unavailable';

/** Why the last session ended. */
export type EndReason = 'signedOut' | 'expired';

function isClientError(problem: ApiProblem): boolean {
  return problem.status !== null && problem.status >= 400 && problem.status < 500;
}

export const useSessionStore = defineStore('session', () => {
  const status = ref<SessionStatus>('checking');
  const user = ref<User | null>(null);
  const csrfToken = ref<string | null>(null);
  const idleTimeoutSeconds = ref<number | null>(null);
  /** Date.now() at which the BFF will end the session for inactivity, as far as we know. */
  const idleEndsAt = ref<number | null>(null);
  const endedBecause = ref<EndReason | null>(null);
  /** "We couldn't sign you out. You're still signed in." after a failed sign-out. */
  const signOutFailure = ref<string | null>(null);
  /** A sign-out is with the BFF: a page it is about to close no longer counts as showing anything (adr/0074). */
  const signingOut = ref(false);
  const startProblem = ref<ApiProblem | null>(null);
  let started: Promise<void> | null = null;

  function apply(info: SessionInfo): void {
    csrfToken.value = info.csrfToken ?? csrfToken.value;
    idleTimeoutSeconds.value = info.idleTimeoutSeconds ?? idleTimeoutSeconds.value;
    if (info.authenticated && info.user) {
      user.value = info.user;
      status.value = 'signedIn';
      idleEndsAt.value = info.idleExpiresInSeconds === null ? null : Date.now() + info.idleExpiresInSeconds * 1000;
    } else {
      clearUser();
      status.value = 'signedOut';
    }
  }

  function clearUser(): void {
    user.value = null;
    idleEndsAt.value = null;
  }

  /** Ends the session here (the BFF already has, or will at 0:00). */
  function end(reason: EndReason): void {
    clearUser();
    status.value = 'signedOut';
    endedBecause.value = reason;
    signOutFailure.value = null;
  }

  async function check(): Promise<void> {
    status.value = 'checking';
    startProblem.value = null;
    const { data, error } = await useClients().bff.getSession({ abortAfterMs: SESSION_CHECK_MS, readBudgetMs: SESSION_CHECK_MS });
    if (data) return apply(data);
    if (isClientError(error)) {
      clearUser();
      status.value = 'signedOut';
      return;
    }
    startProblem.value = error;
    status.value = 'unavailable';
  }

  /** The start-up check (and "Try again" on the unavailable page). */
  function start(): Promise<void> {
    started = check();
    return started;
  }

  /** Resolves once the start-up check has an outcome. */
  function whenStarted(): Promise<void> {
    return started ?? start();
  }

  /** After sign-in or sign-up: fetch the new CSRF token and idle clock; a failure here signs nobody out. */
  async function refreshAfterSignIn(signedInUser: User): Promise<void> {
    user.value = signedInUser;
    status.value = 'signedIn';
    endedBecause.value = null;
    const { data } = await useClients().bff.getSession();
    if (data?.authenticated) apply(data);
    else noteActivity();
  }

  /** Signs in; resolves with the BFF's answer. */
  async function signIn(email: string, password: string): Promise<Result<{ user: User }>> {
    const result = await useClients().bff.login({ email, password });
    if (result.data) await refreshAfterSignIn(result.data.user);
    return result;
  }

  /** Signs up (the BFF signs the new customer in). */
  async function register(body: RegisterBody): Promise<Result<{ user: User }>> {
    const result = await useClients().bff.register(body);
    if (result.data) await refreshAfterSignIn(result.data.user);
    return result;
  }

  /** "Sign out": only a 204 or a 401 ends the session here; anything else says so and keeps it. */
  async function signOut(): Promise<Result<void>> {
    signOutFailure.value = null;
    signingOut.value = true;
    const result = await useClients().bff.logout().finally(() => (signingOut.value = false));
    if (result.error && result.error.status !== 401) {
      signOutFailure.value = sessionMessages.signOutFailed;
      return result;
    }
    end('signedOut');
    // The session's CSRF token ended with it: the next sign-in needs the visitor's own (adr/0043).
    const { data } = await useClients().bff.getSession();
    if (data && !data.authenticated) csrfToken.value = data.csrfToken;
    return result;
  }

  /** "Stay signed in": slides the BFF's timer. A failure keeps the dialog (and the session) open. */
  async function staySignedIn(): Promise<Result<SessionInfo>> {
    const result = await useClients().bff.keepalive();
    if (result.data) apply(result.data);
    else if (result.error.status === 401) end('expired');
    return result;
  }

  /** The countdown reached 0:00: ask once; unless the BFF says it is alive, end it as expired. */
  async function idleRanOut(): Promise<void> {
    const { data } = await useClients().bff.getSession({ abortAfterMs: SESSION_CHECK_MS, readBudgetMs: SESSION_CHECK_MS });
    if (data?.authenticated && data.idleExpiresInSeconds !== null && data.idleExpiresInSeconds > 0) return apply(data);
    end('expired');
  }

  /** The BFF answered a request of ours: it slid its inactivity timer, so slide our copy. */
  function noteActivity(): void {
    if (status.value === 'signedIn' && idleTimeoutSeconds.value !== null) idleEndsAt.value = Date.now() + idleTimeoutSeconds.value * 1000;
  }

  /** The BFF said the session is gone (401 on /api). */
  function sessionGone(): void {
    if (status.value === 'signedIn') end('expired');
  }

  return {
    status,
    user,
    csrfToken,
    idleTimeoutSeconds,
    idleEndsAt,
    endedBecause,
    signOutFailure,
    signingOut,
    startProblem,
    isSignedIn: computed(() => status.value === 'signedIn'),
    start,
    whenStarted,
    signIn,
    register,
    signOut,
    staySignedIn,
    idleRanOut,
    noteActivity,
    sessionGone,
    dismissSignOutFailure: () => void (signOutFailure.value = null),
  };
});
