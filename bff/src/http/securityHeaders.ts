/**
 * Security headers on every answer (helmet): a strict Content-Security-Policy for the SPA
 * and the BFF's JSON (scripts, styles, fonts, images and connections from this origin
 * only; no plugins, no <base>, never framed), no Referer sent anywhere, no MIME sniffing.
 * The rendered docs need inline scripts and styles, so `/docs` replaces the policy with
 * its own (`docsContentSecurityPolicy`); nothing else relaxes it.
 */
import type { RequestHandler } from 'express';
import helmet from 'helmet';

/** The SPA's policy: everything from 'self', nothing inline. */
const spaCspDirectives = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/** The security-headers middleware. `https` adds upgrade-insecure-requests. */
export function securityHeaders(options: { https: boolean }): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { ...spaCspDirectives, ...(options.https ? { upgradeInsecureRequests: [] } : {}) },
    },
    referrerPolicy: { policy: 'no-referrer' },
    xContentTypeOptions: true,
    xFrameOptions: { action: 'deny' },
    strictTransportSecurity: options.https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });
}

/**
 * The docs' policy: Redocly's page runs two inline scripts (its colour-mode snippet and
 * its bundle), allowed by their SHA-256 hashes rather than 'unsafe-inline', and its
 * styled-components inject <style> elements at run time, which only 'unsafe-inline'
 * allows for styles. Everything else stays as strict as the SPA's.
 */
export function docsContentSecurityPolicy(inlineScriptHashes: readonly string[]): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${inlineScriptHashes.map((hash) => `'sha256-${hash}'`).join(' ')}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
