/**
 * Errors as values: every call the SPA makes resolves to `{ data }` or `{ error }`, never
 * throws. Stores branch on the two.
 */
import { toApiProblem, type ApiProblem } from './apiProblem.ts';

/** A call's outcome. */
export type Result<T> = { data: T; error?: undefined } | { data?: undefined; error: ApiProblem };

/** What an openapi-fetch call resolves to, loosely. */
interface ClientAnswer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** Runs one openapi-fetch call and folds its answer, or what it threw, into a Result. */
export async function settle<T>(call: () => Promise<ClientAnswer<T>>): Promise<Result<T>> {
  try {
    const { data, error, response } = await call();
    if (!response.ok) return { error: toApiProblem(response, error) };
    return { data: data as T };
  } catch (failure) {
    return { error: toApiProblem(failure) };
  }
}
