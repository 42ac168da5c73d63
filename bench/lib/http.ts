/**
 * The bench's HTTP client: undici's `request` over one keep-alive pool per origin. The
 * load generator shares the machine's two cores with the API and PostgreSQL, so what it
 * spends is taken from what it measures; `fetch` cost about 0.7–1 ms of CPU per request
 * here, this about a third of that (measured with bench/profile/run.sh).
 */
import { Pool } from 'undici';

const pools = new Map<string, Pool>();

function poolFor(origin: string): Pool {
  let pool = pools.get(origin);
  if (!pool) {
    pool = new Pool(origin, { connections: 512, keepAliveTimeout: 10_000 });
    pools.set(origin, pool);
  }
  return pool;
}

/** One answer: its status and its body as text. */
export interface Reply {
  status: number;
  text: string;
}

/** Sends one request to `url` (an absolute URL) and reads the whole answer; fails after `timeoutMs`. */
export async function send(
  url: string,
  options: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string; timeoutMs?: number } = {},
): Promise<Reply> {
  const { origin, pathname, search } = new URL(url);
  const response = await poolFor(origin).request({
    path: `${pathname}${search}`,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    headersTimeout: options.timeoutMs ?? 120_000,
    bodyTimeout: options.timeoutMs ?? 120_000,
  });
  return { status: response.statusCode, text: await response.body.text() };
}
