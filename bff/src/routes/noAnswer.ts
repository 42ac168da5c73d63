/**
 * What a BFF route answers when the API gave none: nothing to a visitor who hung up (a
 * 499, logged), else the BFF's own 503 with the route's sentence.
 */
import type { Request, Response } from 'express';
import { answerUnavailable } from '../http/problem.ts';
import type { ApiNoAnswer } from '../upstream/apiClient.ts';
import { describeNetworkError, VISITOR_LEFT } from '../upstream/upstreamFailure.ts';
import { noteUnavailable } from '../metrics.ts';

/** Answers (or not) a call that got no answer. */
export function answerNoAnswer(
  req: Request,
  res: Response,
  result: ApiNoAnswer,
  detail: string,
  retryAfterSeconds: number,
): void {
  if (result.failure === 'hungUp') {
    req.log.info(VISITOR_LEFT);
    return;
  }
  req.log.warn(
    { failure: result.failure, cause: describeNetworkError(result.error) },
    'the API gave no answer; answering 503',
  );
  noteUnavailable(res, result.failure === 'timeout' ? 'upstream_timeout' : 'upstream_unreachable');
  answerUnavailable(res, detail, retryAfterSeconds);
}
