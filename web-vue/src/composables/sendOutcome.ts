/**
 * What a money send's answer means for its Idempotency-Key (adr/0009,
 * adr/0010). One pure function so the rules read as a table and are tested as one.
 */
import { hasNoStatus, type ApiProblem } from '../api/apiProblem.ts';

/**
 * - `rejected`: the answer is known and nothing moved (a 4xx with a code): the key is released.
 * - `unsettled`: it may have landed; the key is kept and only the same key may be sent
 *   again (a 5xx incl. every 503 whatever `applied` says, the SPA's 65 s abort, 409 IN_FLIGHT).
 * - `wentThrough`: 409 IDEMPOTENCY_RESULT_UNKNOWN with `applied: true`; no send is offered.
 * - `verifyRequired`: it may have landed and the key cannot be trusted to replay it
 *   (no status at all, a 409 with no code, 422 IDEMPOTENCY_KEY_REUSED): the key is
 *   dropped and a check by key comes before any new key.
 *
 * `SENDING_ELSEWHERE` (another tab sends the key now; nothing left this one) keeps the key.
 */
export type SendVerdict = 'rejected' | 'unsettled' | 'wentThrough' | 'verifyRequired';

/** The verdict on a failed money send. */
export function judgeSendProblem(problem: ApiProblem): SendVerdict {
  if (problem.code === 'TIMED_OUT' || problem.code === 'SENDING_ELSEWHERE') return 'unsettled'; // the abort keeps the key, even on a deposit; another tab's send answers for it
  if (hasNoStatus(problem)) return 'verifyRequired'; // a rejection with no status
  if (problem.code === 'IDEMPOTENCY_RESULT_UNKNOWN') return problem.applied === true ? 'wentThrough' : 'unsettled';
  if (problem.code === 'IDEMPOTENCY_IN_FLIGHT') return 'unsettled';
  if (problem.status === 409 && problem.code.startsWith('HTTP_')) return 'verifyRequired';
  if (problem.code === 'IDEMPOTENCY_KEY_REUSED') return 'verifyRequired';
  if (problem.status !== null && problem.status >= 500) return 'unsettled';
  return 'rejected';
}

/**
 * The verdict on a failed "Open account" (adr/0013). There is no listing by key of opened
 * accounts, and re-sending the same key is always safe (it replays, or answers 409 while
 * the first request runs), so every answer that is not known keeps the key, a failed
 * connection included: only a 4xx with a code releases it, and `applied: true` went through.
 */
export function judgeOpenProblem(problem: ApiProblem): SendVerdict {
  if (problem.code === 'IDEMPOTENCY_RESULT_UNKNOWN' && problem.applied === true) return 'wentThrough';
  if (problem.code === 'SENDING_ELSEWHERE') return 'unsettled';
  if (hasNoStatus(problem) || problem.code === 'IDEMPOTENCY_IN_FLIGHT' || problem.code.startsWith('HTTP_')) return 'unsettled';
  if (problem.status !== null && problem.status >= 500) return 'unsettled';
  return 'rejected';
}
