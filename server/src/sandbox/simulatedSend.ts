/**
 * The sandbox's request side (adr/0044): which money send of this request meets which
 * failure (`Tidewater-Simulate`). The header is read once at the edge, after the spec's
 * validator has checked its value, and kept beside the request's context (a WeakMap: the
 * context's own type stays the data layer's), where the sandbox's data layer finds it.
 *
 * An API without the sandbox refuses the header (400 VALIDATION_FAILED): an integrator
 * who points a test at a real bank learns it at once, instead of moving money a test
 * thought would fail.
 */
import type { RequestHandler } from 'express';
import type { operations } from '@tidewater/spec/openapi';
import { ApiProblem } from '../errors/apiProblem.ts';
import { currentContext, type RequestContext } from '../request/requestContext.ts';
import { hashRequest } from '../domain/idempotency/idempotency.ts';

/** The failures a money send can be made to meet (the spec's enum). */
type Simulation = NonNullable<NonNullable<operations['deposit']['parameters']['header']>['Tidewater-Simulate']>;

/** One request's simulated send: what it meets, and what names its key's record. */
export interface SimulatedSend {
  readonly simulation: Simulation;
  readonly key: string;
  readonly operationId: string;
  /** The fingerprint the money runner computes (idempotency.ts `hashRequest`), for a claim made on its behalf. */
  readonly requestHash: string;
  /** The signed-in customer, once authentication named them. */
  userId?: string;
  /** True until the send's transaction met its failure: a later transaction of the request runs as it is. */
  pending: boolean;
}

const moneySends = new Set(['deposit', 'withdraw', 'createInternalTransfer', 'createExternalTransfer']);
const simulatedSends = new WeakMap<RequestContext, SimulatedSend>();

/** The current request's simulated send, if it carries one. */
export function simulatedSend(): SimulatedSend | undefined {
  const context = currentContext();
  return context ? simulatedSends.get(context) : undefined;
}

interface ValidatedRequest {
  openapi?: { schema?: { operationId?: string }; pathParams?: Record<string, string> };
}

/** Reads `Tidewater-Simulate` (after the validator): kept for the sandbox's data layer, or refused without the sandbox. */
export function simulateHeader(sandbox: boolean): RequestHandler {
  return (req, _res, next) => {
    const simulation = req.get('tidewater-simulate');
    if (simulation === undefined) return next();
    if (!sandbox) return next(new ApiProblem('VALIDATION_FAILED', 'Tidewater-Simulate is answered only by a sandbox API (API_SANDBOX=true); this API simulates nothing.'));
    const { openapi } = req as unknown as ValidatedRequest;
    const operationId = openapi?.schema?.operationId ?? '';
    if (!moneySends.has(operationId)) return next(new ApiProblem('VALIDATION_FAILED', 'Tidewater-Simulate applies to money sends only.'));
    const context = currentContext();
    const key = req.get('idempotency-key');
    // The validator requires the key on a money send; without a context nothing could read the simulation.
    if (context && key) {
      const requestHash = hashRequest(operationId, openapi?.pathParams ?? {}, req.body);
      simulatedSends.set(context, { simulation: simulation as Simulation, key, operationId, requestHash, pending: true });
    }
    next();
  };
}
