/**
 * One AbortSignal per request that fires when the visitor hangs up (the response closes
 * before it was completely written). Everything done only for this visitor (the proxied
 * call, sign-in's calls) listens to it; what must finish anyway (a renewal, a revoke)
 * does not.
 */
import type { RequestHandler, Response } from 'express';
import { VisitorHungUp } from '../upstream/upstreamFailure.ts';

/** This response's hang-up signal (installed by `watchForHangUp`). */
export function visitorSignal(res: Response): AbortSignal {
  const signal = res.locals.visitorSignal as AbortSignal | undefined;
  if (signal) return signal;
  return install(res);
}

function install(res: Response): AbortSignal {
  const controller = new AbortController();
  res.locals.visitorSignal = controller.signal;
  const hungUp = () => {
    if (res.writableFinished) return;
    // 499 "client closed request": what the request log records (nothing reaches the visitor).
    res.statusCode = 499;
    controller.abort(new VisitorHungUp());
  };
  if (res.closed || res.destroyed) hungUp();
  else res.once('close', hungUp);
  return controller.signal;
}

/**
 * Installs the signal before any work starts, so no hang-up goes unnoticed. First in the
 * middleware list, so its close listener runs before the request log's and the log sees 499.
 */
export function watchForHangUp(): RequestHandler {
  return (_req, res, next) => {
    install(res);
    next();
  };
}
