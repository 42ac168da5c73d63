/**
 * The typed operation router: every `operationId` of the spec maps to exactly one
 * handler whose parameters, body and answers are typed from the generated spec types.
 * `Handlers` names every operation, so a missing handler is a type error.
 */
import type { Express, Request, Response } from 'express';
import { operations, type OperationId } from '@tidewater/spec/operations';
import type { operations as OperationTypes } from '@tidewater/spec/openapi';
import type { AccessClaims } from '../domain/accessTokens.ts';
import { currentContext } from './requestContext.ts';

type Op<K extends OperationId> = OperationTypes[K];
type Params<K extends OperationId> = Op<K> extends { parameters: infer P } ? P : never;
type Part<P, Name extends string> = P extends { [N in Name]?: infer V } ? (undefined extends V ? Exclude<V, undefined> : V) : never;
type JsonOf<T> = T extends { content: { 'application/json': infer B } } ? B : undefined;
type RequestBody<K extends OperationId> = Op<K> extends { requestBody?: infer R } ? JsonOf<Exclude<R, undefined>> : undefined;

/** The successful answers an operation declares, as `{ status, body }` pairs. */
export type Answer<K extends OperationId> = {
  [S in keyof Op<K>['responses'] & (200 | 201 | 204)]: { status: S; body: JsonOf<Op<K>['responses'][S]>; headers?: Record<string, string> };
}[keyof Op<K>['responses'] & (200 | 201 | 204)];

/** What a handler receives: validated inputs, typed from the spec. */
export interface OperationInput<K extends OperationId> {
  readonly operationId: K;
  readonly path: Part<Params<K>, 'path'>;
  readonly query: Part<Params<K>, 'query'>;
  readonly headers: Part<Params<K>, 'header'>;
  readonly body: RequestBody<K>;
  /** The signed-in caller; present on every secured operation. */
  readonly caller: AccessClaims;
  readonly req: Request;
}

/** One handler per operation. */
export type Handler<K extends OperationId> = (input: OperationInput<K>) => Promise<Answer<K>>;

/** The whole API: a handler for every operation of the spec. */
export type Handlers = { [K in OperationId]: Handler<K> };

/** Hooks and numbers the router runs each handler with. */
export interface RouterHooks {
  authenticate(req: Request): Promise<AccessClaims>;
  /** Names the signed-in caller to the data layer (read-your-writes). */
  beginRequest(userId: string): Promise<void>;
  /** REQUEST_DEADLINE_MS: armed for every operation; `x-no-deadline` ones ignore hang-ups. */
  deadlineMs: number;
}

/** Settles with the handler's answer, or rejects with the signal's reason the moment it fires. */
function raceSignal<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
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

const anonymous: AccessClaims = { userId: '', familyId: '' };

/** Mounts every operation on the app at its spec path. */
export function mountOperations(app: Express, handlers: Handlers, hooks: RouterHooks): void {
  for (const operationId of Object.keys(operations) as OperationId[]) {
    const operation = operations[operationId];
    const handler = handlers[operationId] as Handler<OperationId>;
    const method = operation.method.toLowerCase() as 'get' | 'post' | 'patch' | 'put' | 'delete';
    app[method](operation.expressPath, async (req: Request, res: Response) => {
      const context = currentContext()!;
      if (operation.noDeadline) context.deadline.ignoreClientHangUp();
      context.deadline.arm(hooks.deadlineMs);
      const work = (async () => {
        const caller = operation.secured ? await hooks.authenticate(req) : anonymous;
        if (caller.userId) await hooks.beginRequest(caller.userId);
        return handler({
        operationId,
        path: req.params,
        query: req.query,
        headers: req.headers,
        body: req.body,
        caller,
        req,
      } as unknown as OperationInput<OperationId>) as Promise<LooseAnswer>;
      })();
      // The deadline answers even when the database never does (a hung server ignores cancels);
      // the abandoned work can no longer commit (the gate refuses), so its outcome is logged only.
      work.catch((error: unknown) => {
        if (context.signal.aborted) context.log.debug({ err: error }, 'work abandoned at the deadline ended');
      });
      const answer = await raceSignal(work, context.signal);
      // The result filter: a result that exists is sent whole; nothing may cut it now.
      context.deadline.disarmForResult();
      res.locals.answer = answer;
      if (answer.headers) res.set(answer.headers);
      if (answer.body === undefined) res.status(answer.status).end();
      else res.status(answer.status).json(answer.body);
    });
  }
}
