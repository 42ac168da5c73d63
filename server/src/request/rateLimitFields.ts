/**
 * The RateLimit header fields (IETF draft-ietf-httpapi-ratelimit-headers-12): a limited
 * operation says which quota policies applied to this request (`RateLimit-Policy`: each a
 * name, its quota `q` and window `w` in seconds) and what is left of each (`RateLimit`: the
 * name, the units remaining `r` and the seconds `t` until its oldest counted unit leaves the
 * window). Both are Structured Field lists of items, the policy names strings.
 *
 * The limits report here (signInLimits.ts, signUpLimits.ts, payeeLookups.ts), in the
 * request's context, and the HTTP layer writes the fields on whatever the request answers,
 * a 2xx or a problem (a 429's `t` is its `Retry-After`). A request no limit applied to
 * (another operation, or a sign-in from a known device) carries neither field.
 */
import { currentContext, type RateLimitReport, type RequestContext } from './requestContext.ts';

/** Notes `report` for the current request (replacing an earlier one of the same policy). */
export function reportRateLimit(report: RateLimitReport): void {
  const context = currentContext();
  if (!context) return;
  const reports = (context.rateLimits ??= []);
  const at = reports.findIndex((earlier) => earlier.policy === report.policy);
  if (at >= 0) reports[at] = report;
  else reports.push(report);
}

/**
 * Changes what is left of `policy` for the current request by `units` (a failure counted
 * after the look: -1); a window that held nothing now gives a unit back in a whole window.
 */
export function spendRateLimit(policy: string, units: number): void {
  const report = currentContext()?.rateLimits?.find((earlier) => earlier.policy === policy);
  if (!report) return;
  report.remaining = Math.min(report.quota, Math.max(0, report.remaining - units));
  if (report.remaining === report.quota) report.resetSeconds = 0;
  else if (report.resetSeconds === 0) report.resetSeconds = report.windowSeconds;
}

const quoted = (name: string) => `"${name}"`;

/** The two fields' values for `reports`, or undefined when no policy applied. */
function rateLimitFields(reports: RequestContext['rateLimits']): { 'RateLimit-Policy': string; RateLimit: string } | undefined {
  if (!reports || reports.length === 0) return undefined;
  return {
    'RateLimit-Policy': reports.map((r) => `${quoted(r.policy)};q=${r.quota};w=${r.windowSeconds}`).join(', '),
    RateLimit: reports.map((r) => `${quoted(r.policy)};r=${r.remaining};t=${Math.max(0, Math.ceil(r.resetSeconds))}`).join(', '),
  };
}

/** Writes the fields of `context`'s reports on `res` (before its head is sent). */
export function writeRateLimitFields(res: { setHeader(name: string, value: string): unknown }, context: RequestContext | undefined): void {
  const fields = rateLimitFields(context?.rateLimits);
  if (!fields) return;
  res.setHeader('RateLimit-Policy', fields['RateLimit-Policy']);
  res.setHeader('RateLimit', fields.RateLimit);
}
