/**
 * The contract between the http layer and the domain: what a handler of an operation
 * receives and answers, typed from the spec's generated types. `Handlers` names every
 * operation, so a missing handler is a type error. Plain values only: the domain never
 * sees Express (the router in `http/operationRouter.ts` builds these inputs).
 */
import type { Readable } from 'node:stream';
import type { OperationId } from '@tidewater/spec/operations';
import type { operations as OperationTypes } from '@tidewater/spec/openapi';

type Op<K extends OperationId> = OperationTypes[K];
type Params<K extends OperationId> = Op<K> extends { parameters: infer P } ? P : never;
type Part<P, Name extends string> = P extends { [N in Name]?: infer V } ? (undefined extends V ? Exclude<V, undefined> : V) : never;
type JsonOf<T> = T extends { content: { 'application/json': infer B } } ? B : undefined;
/** A success answer's body: its JSON, or a stream of bytes for a file (a statement), or nothing. */
type AnswerBodyOf<T> = T extends { content: { 'application/json': infer B } } ? B : T extends { content: object } ? Readable : undefined;
type RequestBody<K extends OperationId> = Op<K> extends { requestBody?: infer R } ? JsonOf<Exclude<R, undefined>> : undefined;

/** Who a verified access token names: the signed-in caller of a secured operation. */
export interface AccessClaims {
  userId: string;
  familyId: string;
}

/** The successful answers an operation declares, as `{ status, body }` pairs. */
type Answer<K extends OperationId> = {
  [S in keyof Op<K>['responses'] & (200 | 201 | 204)]: { status: S; body: AnswerBodyOf<Op<K>['responses'][S]>; headers?: Record<string, string> };
}[keyof Op<K>['responses'] & (200 | 201 | 204)];

/** What a handler receives: validated inputs, typed from the spec. */
export interface OperationInput<K extends OperationId> {
  readonly operationId: K;
  readonly path: Part<Params<K>, 'path'>;
  readonly query: Part<Params<K>, 'query'>;
  /** The header parameters the operation declares, under the spec's names (`Idempotency-Key`). */
  readonly headers: Part<Params<K>, 'header'>;
  readonly body: RequestBody<K>;
  /** The signed-in caller; present on every secured operation. */
  readonly caller: AccessClaims;
  /** The visitor's address as the trusted proxy forwards it (Express's `req.ip`), if known. */
  readonly clientAddress: string | undefined;
}

/** One handler per operation. */
export type Handler<K extends OperationId> = (input: OperationInput<K>) => Promise<Answer<K>>;

/** The whole API: a handler for every operation of the spec. */
export type Handlers = { [K in OperationId]: Handler<K> };
