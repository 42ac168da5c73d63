import { once } from 'node:events';
import { Agent, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import express from 'express';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { runSideWrite } from '../domain/sideWrites.ts';
import { currentContext } from '../request/requestContext.ts';
import { requestLog } from './requestLog.ts';
import { requestScope } from './requestScope.ts';

// A full collection on demand: the flag, then the function it exposes in a fresh context.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

let server: Server | undefined;
let agent: Agent | undefined;
afterEach(() => {
  agent?.destroy();
  server?.closeAllConnections();
  server?.close();
  server = agent = undefined;
});

/** GETs `path` on `agent` (keep-alive) and reads the whole answer. */
async function get(base: string, path: string, via: Agent): Promise<{ status: number; body: string }> {
  const req = request(`${base}${path}`, { agent: via });
  req.end();
  const [res] = (await once(req, 'response')) as [import('node:http').IncomingMessage];
  let body = '';
  for await (const chunk of res) body += String(chunk);
  return { status: res.statusCode!, body };
}

describe('requestScope', () => {
  it('gives the request its context, whose logger names its traceId', async () => {
    const app = express();
    app.use(requestLog(pino({ level: 'silent' })));
    app.use(requestScope());
    app.get('/context', async (req, res) => {
      await new Promise((resolve) => setImmediate(resolve));
      const context = currentContext()!;
      // A side write runs in a copy of the context (sideWrites.ts): the copy logs for the request too.
      const copy = await runSideWrite(async () => currentContext()!, { budgetMs: 1_000 });
      res.json({
        sameId: context.traceId === req.id,
        logsIt: context.log.bindings().traceId === req.id,
        armed: context.signal.aborted === false,
        copyLogsIt: copy !== context && copy.log === context.log && copy.traceId === req.id,
        copyHasItsOwnSignal: copy.signal !== context.signal && copy.deadline === context.deadline,
      });
    });
    server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    agent = new Agent({ keepAlive: true });
    const answer = await get(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, '/context', agent);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ sameId: true, logsIt: true, armed: true, copyLogsIt: true, copyHasItsOwnSignal: true });
  });

  // Node makes the keep-alive timer of a connection as its answer finishes, in the request's
  // async scope, so that timer holds the scope's store until the next request on the
  // connection (or its keep-alive timeout). When the store led to the request, every idle
  // connection kept its last request's whole object graph alive.
  it('lets a finished request be collected while its keep-alive connection waits for the next', async () => {
    const app = express();
    app.use(requestLog(pino({ level: 'silent' })));
    app.use(requestScope());
    const requests: WeakRef<object>[] = [];
    app.get('/work', async (req, res) => {
      requests.push(new WeakRef(req));
      // Work in the scope (a timer and a promise of its own), and the logger made, as a request's work would.
      await new Promise((resolve) => setTimeout(resolve, 1));
      currentContext()!.log.debug('working');
      res.json({ ok: true });
    });
    server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    for (let i = 0; i < 3; i++) expect((await get(base, '/work', agent)).status).toBe(200);
    // The connection is open and idle (the agent keeps it): nothing of the requests should be reachable.
    expect(Object.values(agent.freeSockets).flat()).toHaveLength(1);
    for (let i = 0; i < 3; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      collectGarbage();
    }
    expect(requests.map((ref) => ref.deref() === undefined)).toEqual([true, true, true]);
  });
});
