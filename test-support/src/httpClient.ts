/**
 * A tiny JSON client for tests that talk to a real server over a real socket: it
 * answers status, headers and parsed body, and never throws on an HTTP error.
 */

/** One answer. */
export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
  contentType: string;
}

/** Sends one request; a JSON body is serialised unless it is already a string. */
export async function call<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<Reply<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body, signal: options.signal });
  const text = await response.text();
  const contentType = response.headers.get('content-type') ?? '';
  let parsed: unknown = text;
  if (text && contentType.includes('json')) parsed = JSON.parse(text);
  return { status: response.status, headers: response.headers, body: parsed as T, contentType };
}
