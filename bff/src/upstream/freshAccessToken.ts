/**
 * Before a proxied request: slide the inactivity timer and make sure the access token
 * outlives the request, renewing it when it expires within 60 s. The visitor waits for a
 * renewal at most `renewalWaitMs` (5 s): after that the request is not forwarded (503, so
 * 5 + 55 s stays below the SPA's 65 s abort), while the renewal runs on to its own 30 s
 * and, when it lands, is written into the session for the next request. The session is
 * saved before anything is forwarded, so its new tokens are never lost to a slow answer.
 *
 * Only the API's refusal of the refresh token ends the session; a failed renewal leaves
 * it as it was.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Request } from 'express';
import type { BffDeps } from '../deps.ts';
import { isSignedIn, saveSession, type LoadedSession } from '../session/sessionData.ts';
import type { RenewalOutcome } from './renewals.ts';
import { countRenewal } from '../metrics.ts';

/** What the proxy may do next. */
export type FreshToken =
  { kind: 'ready'; accessToken: string } | { kind: 'ended' } | { kind: 'unavailable'; detail: string };

/** Puts a renewal's outcome into a session that still holds the token it renewed. */
function applyOutcome(session: LoadedSession, renewedToken: string, outcome: RenewalOutcome): void {
  if (session.auth?.refreshToken !== renewedToken) return;
  if (outcome.kind === 'renewed') session.auth = { ...session.auth, ...outcome.tokens };
  if (outcome.kind === 'refused') delete session.auth;
}

/** Reloads the session and applies a late renewal, unless the session ended meanwhile. */
function applyLate(req: Request, renewedToken: string, outcome: RenewalOutcome): void {
  if (outcome.kind === 'unavailable') return;
  const session = req.session as LoadedSession | undefined;
  if (!session) return;
  session.reload((error?: unknown) => {
    const reloaded = req.session as LoadedSession | undefined;
    if (error || !reloaded || !isSignedIn(reloaded)) return; // signed out or gone: nothing to keep
    applyOutcome(reloaded, renewedToken, outcome);
    saveSession(reloaded).catch((saveError: unknown) =>
      req.log.warn({ err: saveError }, 'could not keep a late renewal'),
    );
  });
}

/** Slides the timer, renews when due, saves; the signed-in session is `req.session`. */
export async function freshAccessToken(
  req: Request,
  { config, renewals }: BffDeps,
  traceId: string,
): Promise<FreshToken> {
  const session = req.session as LoadedSession;
  if (!isSignedIn(session)) return { kind: 'ended' };
  session.lastActiveAt = Date.now();
  const { refreshToken, accessExpiresAt } = session.auth;
  if (accessExpiresAt - Date.now() <= config.renewAheadMs) {
    const renewal = renewals.renew(refreshToken, traceId);
    const stopWaiting = new AbortController();
    const late = sleep(config.renewalWaitMs, 'late' as const, { signal: stopWaiting.signal });
    // Stopping the wait rejects `late` with an AbortError, which the race has already handled.
    const outcome = await Promise.race([renewal, late]).finally(() => stopWaiting.abort());
    if (outcome === 'late') {
      countRenewal('late');
      const saved = saveSession(session);
      // Only after this save has landed, so it cannot overwrite the late pair with the old one.
      void Promise.all([renewal, saved.catch(() => undefined)]).then(([lateOutcome]) =>
        applyLate(req, refreshToken, lateOutcome),
      );
      await saved;
      return { kind: 'unavailable', detail: `the renewal took longer than ${config.renewalWaitMs} ms` };
    }
    applyOutcome(session, refreshToken, outcome);
    await saveSession(session);
    if (outcome.kind === 'refused') return { kind: 'ended' };
    if (outcome.kind === 'unavailable') return { kind: 'unavailable', detail: outcome.detail };
  } else {
    await saveSession(session);
  }
  return isSignedIn(session) ? { kind: 'ready', accessToken: session.auth.accessToken } : { kind: 'ended' };
}
