import { once } from 'node:events';
import { request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import express from 'express';
import { pino, type Logger } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hangUpMessage, requestLog } from './requestLog.ts';

interface Line {
  level: number;
  msg: string;
  traceId?: string;
  req?: { method: string; url: string };
  res?: { statusCode: number };
  responseTime?: number;
  [key: string]: unknown;
}

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

/** An app behind the request log, on a real port, logging at `level` into `lines`. */
async function serve(level: string) {
  const lines: Line[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString('utf8').split('\n')) if (text) lines.push(JSON.parse(text) as Line);
      done();
    },
  });
  const logger: Logger = pino({ level }, sink);
  const children = vi.spyOn(logger, 'child');
  let holding = () => {};
  let leaving = () => {};
  const held = new Promise<void>((resolve) => (holding = resolve));
  const hungUp = new Promise<void>((resolve) => (leaving = resolve));
  const app = express();
  app.use(requestLog(logger));
  app.get('/ok', (_req, res) => void res.json({ ok: true }));
  app.get('/unavailable', (_req, res) => void res.status(503).json({ status: 503 }));
  app.get('/speaks', (req, res) => {
    req.log.warn({ step: 1 }, 'a line of its own');
    res.status(204).end();
  });
  app.get('/hangs', (_req, res) => {
    res.on('close', () => leaving());
    holding();
  });
  server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  /** Waits for the closing line of the request named `traceId` (written on the response's close). */
  const closingLine = async (traceId: string) => {
    await vi.waitFor(() => expect(lines.some((line) => line.traceId === traceId && line.responseTime !== undefined)).toBe(true));
    return lines.find((line) => line.traceId === traceId && line.responseTime !== undefined)!;
  };
  return { base, lines, children, held, hungUp, closingLine };
}

describe('the request log', () => {
  it('writes one closing line per request, named by the traceId the answer carries', async () => {
    const { base, closingLine, lines } = await serve('info');
    const reply = await fetch(`${base}/ok?page=2`, { headers: { authorization: 'Bearer never-in-a-log-line', cookie: 'tw_sid=also-never' } });
    const traceId = reply.headers.get('x-trace-id')!;
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    const line = await closingLine(traceId);
    expect(line).toMatchObject({ level: 30, msg: 'request completed', req: { method: 'GET', url: '/ok?page=2' }, res: { statusCode: 200 } });
    expect(line.responseTime).toBeGreaterThanOrEqual(0);
    // Headers (bearer tokens, cookies) never reach the line.
    expect(JSON.stringify(lines)).not.toMatch(/never-in-a-log-line|also-never|authorization|cookie/i);
  });

  it("keeps the caller's trace id from a valid traceparent", async () => {
    const { base, closingLine } = await serve('info');
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const reply = await fetch(`${base}/ok`, { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } });
    expect(reply.headers.get('x-trace-id')).toBe(traceId);
    expect((await closingLine(traceId)).res).toEqual({ statusCode: 200 });
  });

  it('logs a 5xx at error, and the lines a handler writes carry its traceId', async () => {
    const { base, closingLine, lines } = await serve('info');
    const failed = await fetch(`${base}/unavailable`);
    expect(await closingLine(failed.headers.get('x-trace-id')!)).toMatchObject({ level: 50, msg: 'request errored', res: { statusCode: 503 } });
    const spoke = await fetch(`${base}/speaks`);
    const traceId = spoke.headers.get('x-trace-id')!;
    await closingLine(traceId);
    expect(lines.find((line) => line.msg === 'a line of its own')).toMatchObject({ level: 40, traceId, step: 1 });
  });

  it('logs a client that hung up as 499, once', async () => {
    const { base, closingLine, lines, held, hungUp } = await serve('info');
    const sent = request(`${base}/hangs`);
    sent.on('error', () => {});
    sent.end();
    await held; // the handler has it and will never answer
    sent.destroy();
    await hungUp;
    await vi.waitFor(() => expect(lines.some((line) => line.msg === hangUpMessage)).toBe(true));
    const line = lines.find((entry) => entry.msg === hangUpMessage)!;
    expect(await closingLine(line.traceId!)).toMatchObject({ level: 30, res: { statusCode: 499 }, req: { method: 'GET', url: '/hangs' } });
    expect(lines.filter((entry) => entry.traceId === line.traceId)).toHaveLength(1);
  });

  it('spends nothing on lines no level writes: no closing line at warn, and no logger until a request logs', async () => {
    const { base, lines, children } = await serve('warn');
    for (let i = 0; i < 5; i++) expect((await fetch(`${base}/ok`)).status).toBe(200);
    const spoke = await fetch(`${base}/speaks`);
    expect(children).toHaveBeenCalledTimes(1);
    // A 5xx's closing line is at error, which warn writes; a 2xx's is not.
    const failed = await fetch(`${base}/unavailable`);
    await vi.waitFor(() => expect(lines.map((line) => line.msg)).toEqual(['a line of its own', 'request errored']));
    expect(children).toHaveBeenCalledTimes(2);
    expect(lines.map((line) => line.traceId)).toEqual([spoke.headers.get('x-trace-id'), failed.headers.get('x-trace-id')]);
  });
});
