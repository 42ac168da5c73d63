/**
 * The answer of `GET /bff/session` and `POST /bff/session/keepalive` (spec/bff.yaml
 * `SessionState`): whether the visitor is signed in, who they are, the CSRF token for
 * their writes, and the inactivity timeout the SPA mirrors.
 */
import type { BffConfig } from '../config.ts';
import { isSignedIn, type LoadedSession, type User } from './sessionData.ts';

/** The wire shape. */
export interface SessionState {
  authenticated: boolean;
  user: User | null;
  csrfToken: string;
  /** The inactivity timeout, in seconds. */
  idleTimeoutSeconds: number;
  /** Seconds until the session ends unless it is used; null when nobody is signed in. */
  idleExpiresInSeconds: number | null;
}

/** The session as the SPA sees it, at `now`. */
export function sessionState(
  session: LoadedSession,
  config: Pick<BffConfig, 'sessionIdleTimeoutMs'>,
  now = Date.now(),
): SessionState {
  const signedIn = isSignedIn(session);
  const idleEndsAt = (session.lastActiveAt ?? now) + config.sessionIdleTimeoutMs;
  return {
    authenticated: signedIn,
    user: signedIn ? session.auth.user : null,
    csrfToken: session.csrfToken ?? '',
    idleTimeoutSeconds: config.sessionIdleTimeoutMs / 1000,
    idleExpiresInSeconds: signedIn ? Math.max(0, Math.ceil((idleEndsAt - now) / 1000)) : null,
  };
}
