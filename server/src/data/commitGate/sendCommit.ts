import { Commit, noteRequestCommit } from '../../request/commitOutcome.ts';
import type { RequestContext } from '../../request/requestContext.ts';

/** `commit` (the attempt's; a new one outside an attempt), sent now: one of the request's commits (adr/0052). */
export function sendCommit(context: RequestContext | undefined, commit: Commit | undefined): Commit {
  const sent = commit ?? new Commit();
  noteRequestCommit(context, sent);
  sent.send();
  return sent;
}
