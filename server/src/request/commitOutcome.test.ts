import { describe, expect, it } from 'vitest';
import { Commit, IllegalCommitTransition, noteRequestCommit, requestIsSettlingCommit, requestMayHaveMoved, type CommitOutcome, type RequestCommits } from './commitOutcome.ts';

/** A commit brought to a state by the gate's and the data layer's transitions. */
const commitAfter = (...steps: Array<(commit: Commit) => unknown>): Commit => {
  const commit = new Commit();
  for (const step of steps) step(commit);
  return commit;
};

describe('Commit: one commit outcome (adr/0052)', () => {
  it.each<[string, Commit, CommitOutcome]>([
    ['a new commit', commitAfter(), { kind: 'not-started' }],
    ['sent', commitAfter((c) => c.send()), { kind: 'in-flight' }],
    ['sent to a backend', commitAfter((c) => c.send(), (c) => c.sentTo(4242)), { kind: 'in-flight', backendPid: 4242 }],
    ['answered', commitAfter((c) => c.send(), (c) => c.answered()), { kind: 'landed' }],
    ['refused before it was sent', commitAfter((c) => c.refused()), { kind: 'refused' }],
    ['rolled back by its own error', commitAfter((c) => c.send(), (c) => c.refused()), { kind: 'refused' }],
    ['its connection ended', commitAfter((c) => c.send(), (c) => c.sentTo(7), (c) => c.failed()), { kind: 'in-doubt', backendPid: 7, stillRunning: false, unconfirmed: false }],
    ['no answer in its bound', commitAfter((c) => c.send(), (c) => c.timedOut()), { kind: 'in-doubt', stillRunning: true, unconfirmed: false }],
    ['no answer in its bound, then an error', commitAfter((c) => c.send(), (c) => c.timedOut(), (c) => c.failed()), { kind: 'in-doubt', stillRunning: false, unconfirmed: false }],
    ['no answer in its bound, then "done"', commitAfter((c) => c.send(), (c) => c.timedOut(), (c) => c.answered()), { kind: 'landed' }],
    ['answered after its cancel', commitAfter((c) => c.send(), (c) => c.deadlinePassed('sent'), (c) => c.answered()), { kind: 'in-doubt', stillRunning: false, unconfirmed: true, cancel: 'sent' }],
    ['past the deadline, no cancel sent, answered', commitAfter((c) => c.send(), (c) => c.deadlinePassed('not-sent'), (c) => c.answered()), { kind: 'landed' }],
    ['a look found it', commitAfter((c) => c.send(), (c) => c.failed(), (c) => c.provenLanded()), { kind: 'landed' }],
    ['a look found nothing after it settled', commitAfter((c) => c.send(), (c) => c.failed(), (c) => c.provenNotLanded()), { kind: 'not-landed' }],
    ['given up while it still runs', commitAfter((c) => c.send(), (c) => c.timedOut(), (c) => c.settleAsUnknown()), { kind: 'unknown', stillRunning: true }],
    ['given up, then answered late', commitAfter((c) => c.send(), (c) => c.timedOut(), (c) => c.settleAsUnknown(), (c) => c.answered()), { kind: 'unknown', stillRunning: false }],
    ['proven landed, then answered late', commitAfter((c) => c.send(), (c) => c.timedOut(), (c) => c.provenLanded(), (c) => c.answered()), { kind: 'landed' }],
  ])('%s', (_name, commit, state) => {
    expect(commit.state).toEqual(state);
  });

  it.each<[string, Commit, (commit: Commit) => unknown]>([
    ['sent twice', commitAfter((c) => c.send()), (c) => c.send()],
    ['answered before it was sent', commitAfter(), (c) => c.answered()],
    ['failed before it was sent', commitAfter(), (c) => c.failed()],
    ['refused once it landed', commitAfter((c) => c.send(), (c) => c.answered()), (c) => c.refused()],
    ['refused once in doubt', commitAfter((c) => c.send(), (c) => c.failed()), (c) => c.refused()],
    ['proven landed while still in flight', commitAfter((c) => c.send()), (c) => c.provenLanded()],
    ['proven not landed while it still runs', commitAfter((c) => c.send(), (c) => c.timedOut()), (c) => c.provenNotLanded()],
    ['proven not landed when answered after its cancel', commitAfter((c) => c.send(), (c) => c.deadlinePassed('sent'), (c) => c.answered()), (c) => c.provenNotLanded()],
    ['proven not landed once landed', commitAfter((c) => c.send(), (c) => c.answered()), (c) => c.provenNotLanded()],
    ['sent again once proven not landed', commitAfter((c) => c.send(), (c) => c.failed(), (c) => c.provenNotLanded()), (c) => c.send()],
  ])('throws when %s', (_name, commit, transition) => {
    const before = commit.state;
    expect(() => transition(commit)).toThrow(IllegalCommitTransition);
    expect(commit.state).toBe(before);
  });

  it('passes the deadline once: the second of two timers changes nothing', () => {
    const commit = commitAfter((c) => c.send());
    expect(commit.deadlinePassed('sent')).toBe(true);
    expect(commit.deadlinePassed('not-sent')).toBe(false);
    expect(commit.state).toEqual({ kind: 'in-flight', cancel: 'sent' });
  });

  it.each<[CommitOutcome['kind'], Commit, boolean]>([
    ['not-started', commitAfter(), false],
    ['in-flight', commitAfter((c) => c.send()), true],
    ['landed', commitAfter((c) => c.send(), (c) => c.answered()), true],
    ['refused', commitAfter((c) => c.send(), (c) => c.refused()), false],
    ['in-doubt', commitAfter((c) => c.send(), (c) => c.failed()), true],
    ['not-landed', commitAfter((c) => c.send(), (c) => c.failed(), (c) => c.provenNotLanded()), false],
    ['unknown', commitAfter((c) => c.send(), (c) => c.failed(), (c) => c.settleAsUnknown()), true],
  ])('%s: money may have moved is %s', (_kind, commit, mayHaveMoved) => {
    expect(commit.mayHaveMoved).toBe(mayHaveMoved);
  });

  it("reads a request's commits: moved once any may have, settling while any is in doubt", () => {
    const request: RequestCommits = {};
    expect(requestMayHaveMoved(request)).toBe(false);
    const first = new Commit();
    noteRequestCommit(request, first);
    first.send();
    first.answered();
    const second = new Commit();
    noteRequestCommit(request, second);
    second.send();
    second.failed();
    expect(requestIsSettlingCommit(request)).toBe(true);
    second.provenNotLanded();
    expect(requestIsSettlingCommit(request)).toBe(false);
    expect(requestMayHaveMoved(request)).toBe(true); // the first landed
  });
});
