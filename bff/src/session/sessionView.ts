/**
 * The answer of `GET /bff/session` and `POST /bff/session/keepalive` (spec/bff.yaml
 * `SessionState`): whether the visitor is signed in, who they are, the CSRF token for
 * their writes, and the inactivity timeout the SPA mirrors.
 */
import type { components } from '@tidewater/spec/bff';
import type { BffConfig } from '../config.ts';
import { isSignedIn, type LoadedSession } from './sessionData.ts';

/** The wire shape, generated from spec/bff.yaml. */
export type SessionState = components['schemas']['SessionState'];

/** The session as the SPA sees it, at `now`; `csrfToken` when it is not the session's (a visitor's cookie: http/csrf.ts). */
export function sessionState(
  session: LoadedSession,
  config: Pick<BffConfig, 'sessionIdleTimeoutMs'>,
  csrfToken = session.csrfToken,
  now = Date.now(),
): SessionState {
  const signedIn = isSignedIn(session);
  const idleEndsAt = (session.lastActiveAt ?? now) + config.sessionIdleTimeoutMs;
  return {
    authenticated: signedIn,
    user: signedIn ? session.auth.user : null,
    csrfToken: csrfToken ?? '',
    idleTimeoutSeconds: config.sessionIdleTimeoutMs / 1000,
    idleExpiresInSeconds: signedIn ? Math.max(0, Math.ceil((idleEndsAt - now) / 1000)) : null,
  };
}
