import { Commit, noteRequestCommit } from '../../request/commitOutcome.ts';
import type { RequestContext } from '../../request/requestContext.ts';
import type { TransactionAttempt } from '../retry/index.ts';

/** `commit` (a new one by default), sent now: the attempt's commit and one of the request's (adr/0052). */
export function sendCommit(context: RequestContext | undefined, attempt: TransactionAttempt | undefined, commit = new Commit()): Commit {
  if (attempt) attempt.commit = commit;
  noteRequestCommit(context, commit);
  commit.send();
  return commit;
}
