/**
 * A scripted world for the request layer's tests: each fetch takes the next answer
 * (a Response, an Error to throw, or 'hang' until aborted), may advance the clock,
 * and every sleep and timer is recorded instead of waited.
 */
import type { RequestEnvironment } from './requestEnvironment.ts';

/** One scripted answer. */
export type ScriptedAnswer = Response | Error | 'hang' | { tookMs: number; answer: Response | Error };

/** A timer the test can fire. */
interface FakeTimer {
  ms: number;
  run: () => void;
  cancelled: boolean;
}

/** The fake world and what it saw. */
export interface FakeWorld {
  env: RequestEnvironment;
  sent: Request[];
  sleeps: number[];
  timers: FakeTimer[];
  advance(ms: number): void;
  /** Fires the newest live abort timer, as if its time had come. */
  fireAbortTimer(): void;
}

/** Builds a fake world answering `answers` in order; `die` is every random draw. */
export function fakeWorld(answers: ScriptedAnswer[], die = 0): FakeWorld {
  let clock = 1_000;
  const world: FakeWorld = {
    sent: [],
    sleeps: [],
    timers: [],
    advance: (ms) => void (clock += ms),
    fireAbortTimer: () => {
      const live = [...world.timers].reverse().find((timer) => !timer.cancelled);
      if (!live) throw new Error('no live timer');
      clock += live.ms;
      live.run();
    },
    env: {
      now: () => clock,
      random: () => die,
      sleep: async (ms, signal) => {
        world.sleeps.push(ms);
        if (!signal?.aborted) clock += ms;
      },
      setTimer: (run, ms) => {
        const timer: FakeTimer = { ms, run, cancelled: false };
        world.timers.push(timer);
        return () => void (timer.cancelled = true);
      },
      fetch: async (request) => {
        world.sent.push(request);
        const next = answers.shift();
        if (next === undefined) throw new Error('the script ran out of answers');
        if (next === 'hang') {
          return new Promise<Response>((_, reject) => {
            const fail = () => reject(new DOMException('The operation was aborted.', 'AbortError'));
            if (request.signal.aborted) fail();
            request.signal.addEventListener('abort', fail, { once: true });
          });
        }
        const { tookMs, answer } = next instanceof Response || next instanceof Error ? { tookMs: 0, answer: next } : next;
        clock += tookMs;
        if (answer instanceof Error) throw answer;
        return answer;
      },
    },
  };
  return world;
}

/** A problem+json answer. */
export function problemResponse(status: number, body: Record<string, unknown>, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ type: 'about:blank', title: 't', status, traceId: 'trace-1', ...body }), {
    status,
    headers: { 'Content-Type': 'application/problem+json', ...headers },
  });
}

/** A JSON success. */
export function okResponse(body: unknown = { items: [] }, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** A proxy's answer that is not JSON (or empty, with `text` ''). */
export function bareResponse(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(text === '' ? null : text, { status, headers: { 'Content-Type': 'text/html', ...headers } });
}

/** What fetch throws when the connection fails. */
export function connectionRefused(): TypeError {
  return new TypeError('fetch failed');
}
