import { describe, expect, it } from 'vitest';
import { sendWordsText, waitHints } from '../messages.ts';
import { readWaitHint, sendMoment, sendWords, type ReadWaitMoment, type SendMoment, type SendWords } from './sendWords.ts';
import type { SendPhase } from './sendState.ts';

describe('sendWords: one row per moment of a send', () => {
  it.each<[string, { moment: SendMoment; want: SendWords }]>([
    ['nothing has left', { moment: { kind: 'notSent' }, want: { intro: 'Nothing has been sent yet. Check the details, then confirm.', hint: '' } }],
    ['refused: nothing moved', { moment: { kind: 'refused' }, want: { intro: 'Nothing was moved. Check the details, then confirm.', hint: '' } }],
    ['sending, first 5 s', { moment: { kind: 'sending', wait: 'quiet', online: true }, want: { intro: sendWordsText.sending, hint: '' } }],
    ['sending, from 5 s', { moment: { kind: 'sending', wait: 'slow', online: true }, want: { intro: sendWordsText.sending, hint: waitHints.slow } }],
    ['sending, from 20 s', { moment: { kind: 'sending', wait: 'still', online: true }, want: { intro: sendWordsText.sending, hint: 'Still trying…' } }],
    ['sending, offline at once', { moment: { kind: 'sending', wait: 'quiet', online: false }, want: { intro: sendWordsText.sending, hint: "You're offline. We'll know whether it went through once you're back online." } }],
    ['in doubt: the alert says it, once', { moment: { kind: 'inDoubt' }, want: { intro: '', hint: '' } }],
    ['known: the receipt says it', { moment: { kind: 'known' }, want: { intro: '', hint: '' } }],
  ])('%s', (_name, { moment, want }) => {
    expect(sendWords(moment)).toEqual(want);
  });

  it('says it may have gone through from the first byte, and never "Nothing has been sent" after it', () => {
    expect(sendWordsText.sending).toMatch(/may already have gone through/);
    for (const moment of [{ kind: 'sending', wait: 'still', online: true }, { kind: 'inDoubt' }, { kind: 'known' }] as SendMoment[]) {
      expect(Object.values(sendWords(moment)).join(' ')).not.toMatch(/Nothing has been sent/);
    }
  });
});

describe('sendMoment: each phase of a send', () => {
  it.each<[SendPhase, SendMoment['kind']]>([
    ['idle', 'notSent'],
    ['rejected', 'refused'],
    ['pending', 'sending'],
    ['unsettled', 'inDoubt'],
    ['verifyRequired', 'inDoubt'],
    ['succeeded', 'known'],
    ['wentThrough', 'known'],
    ['confirmed', 'known'],
  ])('%s → %s', (phase, kind) => {
    expect(sendMoment(phase, 'quiet', true).kind).toBe(kind);
  });
});

describe("readWaitHint: one row per moment of a page's waiting reads (adr/0074)", () => {
  it.each<[string, { moment: ReadWaitMoment; want: string }]>([
    ['first 5 s: nothing', { moment: { wait: 'quiet', online: true, outage: null }, want: '' }],
    ['from 5 s', { moment: { wait: 'slow', online: true, outage: null }, want: 'Taking longer than usual…' }],
    ['from 20 s', { moment: { wait: 'still', online: true, outage: null }, want: 'Still trying…' }],
    ['a 503 met: the outage, at once', { moment: { wait: 'quiet', online: true, outage: 'unavailable' }, want: 'The service is temporarily unavailable. Trying again…' }],
    ['a 503 met, past 20 s: still the outage, not "Still trying…"', { moment: { wait: 'still', online: true, outage: 'unavailable' }, want: 'The service is temporarily unavailable. Trying again…' }],
    ['no connection made', { moment: { wait: 'slow', online: true, outage: 'unreachable' }, want: "We couldn't reach Tidewater. Trying again…" }],
    ['offline, before anything else', { moment: { wait: 'still', online: false, outage: 'unavailable' }, want: "You're offline. We'll load this once you're back online." }],
  ])('%s', (_name, { moment, want }) => {
    expect(readWaitHint(moment)).toBe(want);
  });
});
