/**
 * The visitor's device token (adr/0043): the API answers one at every sign-in; the BFF
 * keeps it in a cookie of its own (`__Host-tw_device`, HttpOnly, beside the session, not
 * in it: it outlives sign-out, as the device does) and hands it to the API at the next
 * sign-in, so failures of the visitor's email from elsewhere never hold this browser back.
 * Only the cookie supplies it, never the visitor's body; a cookie that is not a token's
 * shape is ignored, never a refusal.
 */
import type { Request, Response } from 'express';
import type { CookieConfig } from '../http/cookies.ts';
import { cookieName, cookieOptions, readCookie } from '../http/cookies.ts';

/** 90 days: the API's KNOWN_DEVICE_TTL_SECONDS by default; the API decides whether a token is still live. */
const deviceCookieMaxAgeMs = 90 * 24 * 3600 * 1000;

const tokenShape = /^[A-Za-z0-9_-]{43}$/;

/** The sign-in body the API gets: the visitor's credentials and this browser's device token, if it has one. */
export function withDeviceToken<Body extends object>(req: Request, config: CookieConfig, body: Body): Body & { deviceToken?: string } {
  const { deviceToken: _fromVisitor, ...credentials } = body as Body & { deviceToken?: unknown };
  const deviceToken = readCookie(req, cookieName('tw_device', config));
  return (deviceToken !== undefined && tokenShape.test(deviceToken) ? { ...credentials, deviceToken } : credentials) as Body & { deviceToken?: string };
}

/** Keeps the device token a sign-in answered (renewing the cookie's lifetime). */
export function keepDeviceToken(res: Response, config: CookieConfig, deviceToken: string | undefined): void {
  if (deviceToken === undefined || !tokenShape.test(deviceToken)) return;
  res.cookie(cookieName('tw_device', config), deviceToken, { ...cookieOptions(config), maxAge: deviceCookieMaxAgeMs });
}
