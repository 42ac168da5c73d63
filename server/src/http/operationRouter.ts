/**
 * The typed operation router: every `operationId` of the spec maps to exactly one
 * handler whose parameters, body and answers are typed from the generated spec types.
 * `Handlers` names every operation, so a missing handler is a type error.
 */
import type { Express, Request, Response } from 'express';
import { operations, type OperationId } from '@tidewater/spec/operations';
import type { operations as OperationTypes } from '@tidewater/spec/openapi';
import type { AccessClaims } from '../domain/accessTokens.ts';

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

/** Hooks the router runs around each handler (authentication). */
export interface RouterHooks {
  authenticate(req: Request): Promise<AccessClaims>;
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
      const caller = operation.secured ? await hooks.authenticate(req) : anonymous;
      const answer: LooseAnswer = await handler({
        operationId,
        path: req.params,
        query: req.query,
        headers: req.headers,
        body: req.body,
        caller,
        req,
      } as unknown as OperationInput<OperationId>);
      res.locals.answer = answer;
      if (answer.headers) res.set(answer.headers);
      if (answer.body === undefined) res.status(answer.status).end();
      else res.status(answer.status).json(answer.body);
    });
  }
}
