/**
 * What a session holds, and the few ways it changes. The tokens live only here, on the
 * server: no answer body or header ever carries them (the cookie holds only the signed
 * session id).
 */
import type { Request } from 'express';
import type { Session, SessionData } from 'express-session';
import type { components } from '@tidewater/spec/openapi';

/** The signed-in customer, as the API describes them. */
export type User = components['schemas']['User'];

/** The API's tokens of a signed-in session, and who they belong to. */
export interface SessionAuth {
  accessToken: string;
  refreshToken: string;
  /** Epoch ms at which the access token expires (counted from when it was asked for). */
  accessExpiresAt: number;
  user: User;
}

declare module 'express-session' {
  interface SessionData {
    /** The synchronizer CSRF token (csrf.ts). */
    csrfToken: string;
    /** Epoch ms of the last activity that slides the inactivity timer. */
    lastActiveAt: number;
    /** Present while signed in. */
    auth: SessionAuth;
  }
}

/** A loaded session. */
export type LoadedSession = Session & Partial<SessionData>;

/** The new tokens of a sign-in or a renewal. */
export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  accessExpiresAt: number;
}

/** The API's TokenPair, turned into what the session keeps; `askedAt` is when it was requested. */
export function issuedTokens(pair: components['schemas']['TokenPair'], askedAt: number): IssuedTokens {
  return {
    accessToken: pair.accessToken,
    refreshToken: pair.refreshToken,
    accessExpiresAt: askedAt + pair.expiresIn * 1000,
  };
}

/** True when the session is signed in. */
export function isSignedIn(
  session: Partial<SessionData> | undefined,
): session is Partial<SessionData> & { auth: SessionAuth } {
  return session?.auth !== undefined;
}

/**
 * Saves the session now (not at the end of the answer), so a store failure can still be
 * answered. The cookie's expiry restarts first: the store keeps the row until then, so a
 * save is what slides the session in the store too.
 */
export function saveSession(session: Session): Promise<void> {
  session.touch();
  return new Promise((resolve, reject) => session.save((error) => (error ? reject(error) : resolve())));
}

/** A new, empty session for the same visitor (sign-in: neither an id nor a CSRF token from before it survives). */
export function regenerateSession(req: Request): Promise<LoadedSession> {
  return new Promise((resolve, reject) =>
    req.session.regenerate((error) => (error ? reject(error) : resolve(req.session as LoadedSession))),
  );
}

/** Ends the session in the store. */
export function destroySession(session: Session): Promise<void> {
  return new Promise((resolve, reject) => session.destroy((error) => (error ? reject(error) : resolve())));
}
