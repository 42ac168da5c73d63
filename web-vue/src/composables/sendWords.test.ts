import { describe, expect, it } from 'vitest';
import { sendWordsText, waitHints } from '../messages.ts';
import { sendMoment, sendWords, type SendMoment, type SendWords } from './sendWords.ts';
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
