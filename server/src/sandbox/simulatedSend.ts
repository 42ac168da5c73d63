/**
 * The sandbox's request side (adr/0044): which money send of this request meets which
 * failure (`Tidewater-Simulate`). The header is read once at the edge, after the spec's
 * validator has checked its value, and kept beside the request's context (a WeakMap: the
 * context's own type stays the data layer's), where the sandbox's data layer finds it.
 *
 * Mounted only in the sandbox (app.ts): any other API never reads the header, so it runs
 * no sandbox code at all, and a schema-valid send stays acceptable to it (adr/0044).
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

/** Reads `Tidewater-Simulate` (after the validator) for the sandbox's data layer; on an operation that sends no money it is refused. */
export function simulateHeader(): RequestHandler {
  return (req, _res, next) => {
    const simulation = req.get('tidewater-simulate');
    if (simulation === undefined) return next();
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
