/**
 * The typed operation router: every `operationId` of the spec maps to exactly one
 * handler (the types are `contract/operations.ts`). The router turns Express's request
 * into the handler's plain input: path, query, the declared headers under the spec's
 * names, body, caller and client address; the domain never sees `req`.
 */
import { Readable } from 'node:stream';
import type { Express, Request, Response } from 'express';
import { operations, type OperationId } from '@tidewater/spec/operations';
import spec from '@tidewater/spec/openapi.json' with { type: 'json' };
import type { AccessClaims, Handler, Handlers, OperationInput } from '../contract/operations.ts';
import { currentContext, type RequestContext } from '../request/requestContext.ts';
import { requestIsSettlingCommit } from '../request/commitOutcome.ts';
import { writeRateLimitFields } from '../request/rateLimitFields.ts';
import { noteOperation } from './requestMetrics.ts';

/** Hooks and numbers the router runs each handler with. */
export interface RouterHooks {
  authenticate(req: Request): Promise<AccessClaims>;
  /** Names the signed-in caller to the data layer (read-your-writes). */
  beginRequest(userId: string): Promise<void>;
  /** REQUEST_DEADLINE_MS: armed for every operation; `x-no-deadline` ones ignore hang-ups. Undefined: none (the bench's layers-off API, app.ts). */
  deadlineMs: number | undefined;
}

/**
 * Settles with the handler's answer, or rejects with the signal's reason the moment it
 * fires, unless a failed COMMIT's outcome is being settled then: that answer is awaited
 * (its look is bounded by a budget of its own, in the chain's answer budget).
 */
function raceSignal<T>(work: Promise<T>, context: RequestContext): Promise<T> {
  const { signal } = context;
  if (signal.aborted && !requestIsSettlingCommit(context)) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      if (!requestIsSettlingCommit(context)) reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** An answer of any operation, as the router writes it. */
interface LooseAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

interface HeaderParameter {
  name: string;
  in: string;
}
type SpecOperation = { operationId?: string; parameters?: Array<HeaderParameter | { $ref: string }> };

/** The header parameters each operation declares, by the spec's names (`Idempotency-Key`). */
function declaredHeaders(): Map<string, string[]> {
  const shared = spec.components.parameters as Record<string, HeaderParameter>;
  const byOperation = new Map<string, string[]>();
  for (const item of Object.values(spec.paths) as Array<Record<string, SpecOperation>>) {
    for (const operation of Object.values(item)) {
      if (!operation.operationId) continue;
      const parameters = (operation.parameters ?? []).map((p) => ('$ref' in p ? shared[p.$ref.split('/').pop()!]! : p));
      byOperation.set(operation.operationId, parameters.filter((p) => p.in === 'header').map((p) => p.name));
    }
  }
  return byOperation;
}

/** The declared headers a request carries, under the spec's names. */
function headersOf(req: Request, names: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of names) {
    const value = req.get(name);
    if (value !== undefined) headers[name] = value;
  }
  return headers;
}

/**
 * Streams a file answer (its headers set): a break in the middle can no longer become a
 * problem, so the connection is cut and the client sees a truncated download, never a
 * file that looks whole; a visitor who leaves stops the making of the rest.
 */
function sendFile(res: Response, body: Readable, context: RequestContext): void {
  body.on('error', (error) => {
    context.log.warn({ err: error }, 'a file answer broke off midway');
    res.destroy(error);
  });
  res.on('close', () => body.destroy());
  body.pipe(res);
}

const anonymous: AccessClaims = { userId: '', familyId: '' };

/** Mounts every operation on the app at its spec path. */
export function mountOperations(app: Express, handlers: Handlers, hooks: RouterHooks): void {
  const headerNames = declaredHeaders();
  for (const operationId of Object.keys(operations) as OperationId[]) {
    const operation = operations[operationId];
    const handler = handlers[operationId] as Handler<OperationId>;
    const method = operation.method.toLowerCase() as 'get' | 'post' | 'patch' | 'put' | 'delete';
    app[method](operation.expressPath, async (req: Request, res: Response) => {
      const context = currentContext()!;
      noteOperation(res, operationId);
      if (operation.noDeadline) context.deadline.ignoreClientHangUp();
      if (hooks.deadlineMs !== undefined) context.deadline.arm(hooks.deadlineMs);
      const work = (async () => {
        const caller = operation.secured ? await hooks.authenticate(req) : anonymous;
        if (caller.userId) await hooks.beginRequest(caller.userId);
        return handler({
          operationId,
          path: req.params,
          query: req.query,
          headers: headersOf(req, headerNames.get(operationId) ?? []),
          body: req.body,
          caller,
          clientAddress: req.ip,
        } as unknown as OperationInput<OperationId>) as Promise<LooseAnswer>;
      })();
      // The deadline answers even when the database never does (a hung server ignores cancels);
      // the abandoned work can no longer commit (the gate refuses), so its outcome is logged only.
      work.catch((error: unknown) => {
        if (context.signal.aborted) context.log.debug({ err: error }, 'work abandoned at the deadline ended');
      });
      const answer = await raceSignal(work, context);
      // The result filter: a result that exists is sent whole; nothing may cut it now.
      context.deadline.disarmForResult();
      res.locals.answer = answer;
      if (answer.headers) res.set(answer.headers);
      writeRateLimitFields(res, context);
      if (answer.body === undefined) res.status(answer.status).end();
      else if (answer.body instanceof Readable) sendFile(res.status(answer.status), answer.body, context);
      else res.status(answer.status).json(answer.body);
    });
  }
}
