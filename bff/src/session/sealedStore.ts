/**
 * A session store that keeps a session's `auth` (the API's tokens and who they belong to)
 * sealed (sealedTokens.ts): it seals on the way in and opens on the way out, so the rest
 * of the BFF sees plain sessions and the store sees no token. A session whose seal no key
 * opens comes back without `auth`: signed out.
 */
import type { SessionData, Store } from 'express-session';
import type { SessionAuth } from './sessionData.ts';
import { open, seal, type TokenKeyRing } from './sealedTokens.ts';

/** A session as it is stored: `auth` replaced by its seal. */
type StoredSession = Omit<SessionData, 'auth'> & { sealedAuth?: string };

type Callback<T> = (error: unknown, value?: T) => void;

/** The session as stored. */
export function sealedSession(ring: TokenKeyRing, session: SessionData): StoredSession {
  const { auth, ...rest } = session;
  return auth ? { ...rest, sealedAuth: seal(ring, JSON.stringify(auth)) } : rest;
}

/** The session as the BFF uses it; `auth` dropped when it cannot be opened. */
export function openedSession(ring: TokenKeyRing, stored: StoredSession): SessionData {
  const { sealedAuth, ...rest } = stored;
  const opened = sealedAuth === undefined ? undefined : open(ring, sealedAuth);
  return (opened === undefined ? rest : { ...rest, auth: JSON.parse(opened) as SessionAuth }) as SessionData;
}

/** Wraps `store` (in place: express-session keeps its event emitter) so that it keeps `auth` sealed. */
export function sealingStore(store: Store, ring: TokenKeyRing): Store {
  const get = store.get.bind(store);
  const set = store.set.bind(store);
  store.get = (sid: string, callback: Callback<SessionData | null>) =>
    get(sid, (error, stored) => callback(error, stored ? openedSession(ring, stored as unknown as StoredSession) : stored));
  store.set = (sid: string, session: SessionData, callback?: (error?: unknown) => void) =>
    set(sid, sealedSession(ring, session) as unknown as SessionData, callback);
  return store;
}
