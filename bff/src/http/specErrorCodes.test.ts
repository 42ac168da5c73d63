/**
 * spec/bff.yaml and the BFF agree on each code's status, route by route: every code a
 * route declares is answered at one of the statuses it is declared at (the BFF's own
 * problems at their catalog status; a refusal it passes through at the status the API's
 * spec declares for it), and every code the BFF answers itself is declared at its status.
 */
import { readFileSync } from 'node:fs';
import { catalogDisagreements, declaredErrorCodes, statusCodePairsIn } from '@tidewater/spec/errorCodes';
import apiSpec from '@tidewater/spec/openapi.json' with { type: 'json' };
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { bffProblems } from './problem.ts';

const bffSpec = parse(readFileSync(new URL('../../../spec/bff.yaml', import.meta.url), 'utf8')) as {
  info: { description: string };
} & Record<string, unknown>;
const knownCodes = new Set((apiSpec.components.schemas.ErrorCode as unknown as { enum: string[] }).enum);

/** Answered before any route (no route of bff.yaml declares them): an unknown method; headers Node cannot parse. */
const outsideRoutes = new Set(['METHOD_NOT_ALLOWED', 'HEADERS_TOO_LARGE']);
/** Answered on /api/* only, which bff.yaml describes in its introduction rather than as routes. */
const proxyOnly = new Set(['UNAUTHENTICATED', 'NOT_FOUND']);

/** The status of each code the API's spec declares at one status only: what a pass-through answers. */
function apiStatuses(): Record<string, { status: number }> {
  const statuses = new Map<string, Set<number>>();
  for (const operation of declaredErrorCodes(apiSpec as unknown as Record<string, unknown>, knownCodes)) {
    for (const [code, at] of operation.codes)
      statuses.set(code, new Set([...(statuses.get(code) ?? []), ...at]));
  }
  return Object.fromEntries(
    [...statuses].filter(([, at]) => at.size === 1).map(([code, at]) => [code, { status: [...at][0]! }]),
  );
}

describe('spec/bff.yaml and the BFF', () => {
  const routes = declaredErrorCodes(bffSpec, knownCodes);

  it('declares codes on every route', () => {
    expect(routes.map((route) => route.operationId).sort()).toEqual([
      'getBffHealth',
      'getBffReady',
      'getSession',
      'keepSessionAlive',
      'registerVisitor',
      'signIn',
      'signOut',
    ]);
    for (const route of routes)
      expect([route.operationId, route.codes.size > 0]).toEqual([route.operationId, true]);
  });

  it("agree on each code's status route by route, in both directions", () => {
    const catalog = { ...apiStatuses(), ...bffProblems };
    const notOwn = Object.keys(catalog).filter((code) => !(code in bffProblems));
    const exempt = new Set([...outsideRoutes, ...proxyOnly, ...notOwn]);
    expect(catalogDisagreements(routes, catalog, exempt)).toEqual([]);
  });

  it("states the status of the /api/* proxy's own codes in its introduction", () => {
    const stated = statusCodePairsIn(bffSpec.info.description, knownCodes);
    for (const code of proxyOnly)
      expect([code, stated.filter(([, named]) => named === code).map(([status]) => status)]).toEqual([
        code,
        [bffProblems[code as keyof typeof bffProblems].status],
      ]);
  });
});
